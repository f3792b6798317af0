import { and, asc, desc, eq, lte, type SQL, sql } from "drizzle-orm";
import { Resend } from "resend";
import type { Db } from "../db.server";
import { returning, schema } from "../db.server";
import type { AppEnv } from "../env.server";
import { type EmailData, type EmailTemplate, emailTemplates, renderStoredEmail } from "./templates.server";

const { emailOutbox } = schema;

/** After this many failed tries a notice is marked failed and stays visible; it is never deleted. */
export const MAX_DELIVERY_ATTEMPTS = 8;
/** First retry after a minute, then doubling: 1, 2, 4 … 64 minutes. */
export const RETRY_BASE_MS = 60_000;
/** A claimed row is invisible to other deliverers this long, so the cron and a waitUntil never race. */
const CLAIM_LEASE_MS = 5 * 60_000;

export type OutboxRow = typeof emailOutbox.$inferSelect;
export type DeliveryOutcome = "sent" | "captured" | "retry" | "failed";

export function retryDelayMs(attempts: number): number {
  return RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1);
}

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

interface ProviderResult {
  ok: boolean;
  providerId?: string;
  error?: string;
  /** A refusal that no retry can fix (a malformed message), as opposed to an outage. */
  permanent?: boolean;
}

async function sendWithResend(env: AppEnv, row: OutboxRow): Promise<ProviderResult> {
  const message = renderStoredEmail(row.template, row.payload, env);
  const resend = new Resend(env.RESEND_API_KEY);
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
  if (error || !data) {
    const status = (error as { statusCode?: number | null } | null)?.statusCode ?? null;
    const permanent = status !== null && status >= 400 && status < 500 && ![408, 409, 429].includes(status);
    return { ok: false, error: `${status ?? "network"}: ${error?.message ?? "no response"}`, permanent };
  }
  return { ok: true, providerId: data.id };
}

/**
 * Delivers one outbox row if it is due and nobody else holds it. Without RESEND_API_KEY (local dev,
 * tests) the row is "captured": kept for the local mailbox instead of sent.
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
    result = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  const attempts = row.attempts + 1;
  if (result.ok) {
    await db
      .update(emailOutbox)
      .set({ status: "sent", attempts, providerId: result.providerId ?? null, sentAt: now, lastError: null })
      .where(eq(emailOutbox.id, id));
    return "sent";
  }
  const givesUp = result.permanent || attempts >= MAX_DELIVERY_ATTEMPTS;
  if (givesUp) console.error(`email_outbox ${id}: giving up after ${attempts} attempt(s): ${result.error}`);
  await db
    .update(emailOutbox)
    .set({
      status: givesUp ? "failed" : "pending",
      attempts,
      lastError: result.error ?? "unknown error",
      nextAttemptAt: givesUp ? now : now + retryDelayMs(attempts),
    })
    .where(eq(emailOutbox.id, id));
  return givesUp ? "failed" : "retry";
}

/** The cron's work: every due row, oldest first, a bounded number per run. */
export async function deliverDueEmails(db: Db, env: AppEnv, now = Date.now(), limit = 50) {
  const due = await db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.status, "pending"), lte(emailOutbox.nextAttemptAt, now)))
    .orderBy(asc(emailOutbox.nextAttemptAt))
    .limit(limit);
  const outcomes: Record<DeliveryOutcome, number> = { sent: 0, captured: 0, retry: 0, failed: 0 };
  for (const { id } of due) {
    const outcome = await deliverEmail(db, env, id, now);
    if (outcome) outcomes[outcome]++;
  }
  return outcomes;
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
