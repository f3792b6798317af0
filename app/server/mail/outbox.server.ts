import { and, asc, desc, eq, lte, type SQL, sql } from "drizzle-orm";
import { Resend } from "resend";
import { z } from "zod";
import type { Db } from "../db.server";
import { returning, schema } from "../db.server";
import type { AppEnv } from "../env.server";
import { type EmailData, type EmailTemplate, emailTemplates, renderStoredEmail } from "./templates.server";

const { emailOutbox } = schema;

/*
 * The retry policy (docs/decisions/0016-mail-that-never-arrives.md, its window from 0054). An outage is retried with
 * capped exponential backoff for three days; a refused API key holds the queue without counting against any notice; a
 * message the provider refuses as malformed fails at once. A failed notice stays visible on /admin/mail, where
 * an admin can queue it again.
 */

/** First retry after a minute, then doubling: 1, 2, 4 … 32, then every 60 minutes. */
export const RETRY_BASE_MS = 60_000;
export const MAX_RETRY_DELAY_MS = 60 * 60_000;
/**
 * An outage is retried this long after the notice was queued (created, or re-queued by an admin); then it fails.
 * Three days, so that an outage of a day or a weekend loses nothing (docs/decisions/0054).
 */
export const RETRY_WINDOW_MS = 72 * 60 * 60_000;
/** A claimed row is invisible to other deliverers this long, so the cron and a waitUntil never race. */
const CLAIM_LEASE_MS = 5 * 60_000;

type OutboxRow = typeof emailOutbox.$inferSelect;
/** "held": the provider refused our API key; the row waits, unchanged but for its last error. */
type DeliveryOutcome = "sent" | "captured" | "retry" | "held" | "failed";

/** The wait after the `attempts`-th failed try of an outage. */
export function retryDelayMs(attempts: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

/** When an outage stops being retried for this row: three days after it was queued. */
export function retryDeadline(row: Pick<OutboxRow, "createdAt" | "requeuedAt">): number {
  return (row.requeuedAt ?? row.createdAt) + RETRY_WINDOW_MS;
}

/**
 * The provider's answers to a bad, revoked or under-privileged key, or to a sender domain it will not send
 * from (401 missing_api_key / restricted_api_key, 403 invalid_api_key / validation_error). Nothing about the
 * notice is wrong: the configuration is, and every notice would get the same answer until someone fixes it.
 */
const KEY_REFUSED_STATUSES = [401, 403];
/** The same refusals by name, for an error body without its status code. */
const KEY_REFUSED_NAMES: Record<string, number> = {
  missing_api_key: 401,
  restricted_api_key: 401,
  invalid_api_key: 403,
};
/** Rows whose last try was refused for our key: `last_error` starts with the status, as `sendWithResend` writes it. */
export const keyRefusedError = sql`(${emailOutbox.lastError} LIKE '401:%' OR ${emailOutbox.lastError} LIKE '403:%')`;

export interface OutgoingEmail<T extends EmailTemplate> {
  to: string;
  template: T;
  data: EmailData<T>;
}

/**
 * The outbox insert for one notice, validated now. Callers put it in the same `db.batch` as the action
 * that caused it, so the action and its notice are stored together or not at all.
 */
export function enqueueEmail<T extends EmailTemplate>(db: Db, email: OutgoingEmail<T>) {
  const data = emailTemplates[email.template].parse(email.data);
  return db
    .insert(emailOutbox)
    .values({ toAddress: email.to.trim().toLowerCase(), template: email.template, payload: data })
    .returning({ id: emailOutbox.id, status: emailOutbox.status });
}

/**
 * The outbox insert for notices that depend on rows of the same batch, validated now like `enqueueEmail`:
 * one notice per row of `from` (a FROM … WHERE … clause; the WHERE is required), sent to `to` (an address,
 * or an SQL expression over those rows). With a `dedupeKey`, a notice already enqueued under that key is not
 * enqueued again, so a retried request never mails twice.
 */
export function enqueueEmailFor<T extends EmailTemplate>(email: {
  template: T;
  data: EmailData<T>;
  to: string | SQL;
  from: SQL;
  dedupeKey?: SQL;
}) {
  const payload = emailTemplates[email.template].parse(email.data);
  const to = typeof email.to === "string" ? sql`${email.to.trim().toLowerCase()}` : sql`lower(${email.to})`;
  return returning<{ id: number }>(
    sql`INSERT INTO email_outbox (to_address, template, payload, dedupe_key)
        SELECT ${to}, ${email.template}, ${JSON.stringify(payload)}, ${email.dedupeKey ?? sql`NULL`}
        FROM ${email.from}
        ON CONFLICT (dedupe_key) DO NOTHING
        RETURNING id`,
  );
}

type ProviderResult =
  | { kind: "sent"; providerId: string }
  /** Our API key or sending domain was refused: a configuration fault, not the notice's. */
  | { kind: "key-refused"; error: string }
  /** A refusal that no retry can fix (a malformed message). */
  | { kind: "permanent"; error: string }
  /** An outage: 5xx, 408, 409, 429, a timeout or a network error. */
  | { kind: "outage"; error: string };

async function sendWithResend(env: AppEnv, row: OutboxRow): Promise<ProviderResult> {
  let message: ReturnType<typeof renderStoredEmail>;
  try {
    message = renderStoredEmail(row.template, row.payload, env);
  } catch (error) {
    // A stored row that does not render never will.
    const reason =
      error instanceof z.ZodError
        ? error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")
        : error instanceof Error
          ? error.message
          : String(error);
    return { kind: "permanent", error: `render: ${reason}` };
  }
  const resend = new Resend(env.RESEND_API_KEY, { baseUrl: env.RESEND_BASE_URL });
  const { data, error } = await resend.emails.send(
    {
      from: `${env.BRAND_NAME} <${env.MAIL_FROM}>`,
      to: [row.toAddress],
      subject: message.subject,
      html: message.html,
      text: message.text,
    },
    // The provider drops a repeat of the same key, so a retry after a lost answer cannot send twice.
    { idempotencyKey: `outbox-${row.id}` },
  );
  if (!error && data) return { kind: "sent", providerId: data.id };
  const details = error as { statusCode?: number | null; name?: string; message?: string } | null;
  const status = details?.statusCode ?? KEY_REFUSED_NAMES[details?.name ?? ""] ?? null;
  const text = `${status ?? "network"}: ${details?.message ?? "no response"}`;
  if (status !== null && KEY_REFUSED_STATUSES.includes(status)) return { kind: "key-refused", error: text };
  if (status !== null && status >= 400 && status < 500 && ![408, 409, 429].includes(status)) {
    return { kind: "permanent", error: text };
  }
  return { kind: "outage", error: text };
}

/**
 * Delivers one outbox row if it is due and nobody else holds it. Without RESEND_API_KEY (local dev,
 * tests) the row is "captured": kept for the local mailbox instead of sent.
 *
 * - Accepted: "sent", with the provider's id.
 * - Outage: "retry" after `retryDelayMs(attempts)`, never later than the row's deadline (three days after it
 *   was queued); a try that fails at or after the deadline marks the row "failed".
 * - Key refused (401/403): "held". The row stays pending, its attempts unchanged, due again at once; only the
 *   error is kept. Nothing is marked failed however long the key stays wrong.
 * - Malformed (other 4xx, or a stored row that does not render): "failed" at once.
 */
export async function deliverEmail(db: Db, env: AppEnv, id: number, now = Date.now()): Promise<DeliveryOutcome | null> {
  const row = await db
    .update(emailOutbox)
    .set({ nextAttemptAt: now + CLAIM_LEASE_MS })
    .where(and(eq(emailOutbox.id, id), eq(emailOutbox.status, "pending"), lte(emailOutbox.nextAttemptAt, now)))
    .returning()
    .get();
  if (!row) return null;

  if (!env.RESEND_API_KEY) {
    await db.update(emailOutbox).set({ status: "captured", sentAt: now }).where(eq(emailOutbox.id, id));
    return "captured";
  }

  let result: ProviderResult;
  try {
    result = await sendWithResend(env, row);
  } catch (error) {
    result = { kind: "outage", error: error instanceof Error ? error.message : String(error) };
  }

  if (result.kind === "key-refused") {
    console.error(
      `MAIL PROVIDER REFUSED OUR API KEY (${result.error}). Check RESEND_API_KEY and that MAIL_FROM's domain is verified. ` +
        `The outbox is on hold: nothing is marked failed, and one notice a minute is tried until the key works (email_outbox ${id}).`,
    );
    await db.update(emailOutbox).set({ lastError: result.error, nextAttemptAt: now }).where(eq(emailOutbox.id, id));
    return "held";
  }

  const attempts = row.attempts + 1;
  if (result.kind === "sent") {
    await db
      .update(emailOutbox)
      .set({ status: "sent", attempts, providerId: result.providerId, sentAt: now, lastError: null })
      .where(eq(emailOutbox.id, id));
    return "sent";
  }

  const deadline = retryDeadline(row);
  const givesUp = result.kind === "permanent" || now >= deadline;
  if (givesUp) console.error(`email_outbox ${id}: failed after ${attempts} attempt(s): ${result.error}`);
  await db
    .update(emailOutbox)
    .set({
      status: givesUp ? "failed" : "pending",
      attempts,
      lastError: result.error,
      nextAttemptAt: givesUp ? now : Math.min(now + retryDelayMs(attempts), deadline),
      failedAt: givesUp ? now : null,
    })
    .where(eq(emailOutbox.id, id));
  return givesUp ? "failed" : "retry";
}

/**
 * The cron's work: every due row, oldest due first, a bounded number per run. A refused key stops the run at
 * that row, so while the key is wrong each run makes one probe instead of one refused request per notice;
 * the first accepted probe lets the rest of the run go out.
 */
export async function deliverDueEmails(db: Db, env: AppEnv, now = Date.now(), limit = 50) {
  const due = await db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    // A literal status, so the planner can use the partial index of pending rows (`email_outbox_due_idx`).
    .where(and(sql`${emailOutbox.status} = 'pending'`, lte(emailOutbox.nextAttemptAt, now)))
    .orderBy(asc(emailOutbox.nextAttemptAt), asc(emailOutbox.id))
    .limit(limit);
  const outcomes: Record<DeliveryOutcome, number> = { sent: 0, captured: 0, retry: 0, held: 0, failed: 0 };
  for (const { id } of due) {
    const outcome = await deliverEmail(db, env, id, now);
    if (outcome) outcomes[outcome]++;
    if (outcome === "held") break;
  }
  return outcomes;
}

/**
 * Puts a failed row back in the queue, as it was (same id, so the same idempotency key for the provider): due
 * now, attempts counted afresh, a new retry window from now. Does nothing unless the row is failed; the row's
 * id comes back only when it was re-queued.
 */
export function requeueFailedEmail(id: number, now = Date.now()) {
  return returning<{ id: number }>(
    sql`UPDATE email_outbox
        SET status = 'pending', attempts = 0, next_attempt_at = ${now}, last_error = NULL, failed_at = NULL,
            requeued_at = ${now}
        WHERE id = ${id} AND status = 'failed'
        RETURNING id`,
  );
}

/** Delivers freshly enqueued rows after the response, without making the request wait for the provider. */
export function deliverInBackground(ctx: ExecutionContext, db: Db, env: AppEnv, ids: number[]) {
  ctx.waitUntil(
    (async () => {
      for (const id of ids) {
        try {
          await deliverEmail(db, env, id);
        } catch (error) {
          // The row stays pending; the cron retries it.
          console.error(`email_outbox ${id}: background delivery failed`, error);
        }
      }
    })(),
  );
}

export async function recentEmails(db: Db, limit = 50): Promise<OutboxRow[]> {
  return db.select().from(emailOutbox).orderBy(desc(emailOutbox.id)).limit(limit);
}
