/**
 * Mail in the back office: the notices not delivered yet (/admin/mail), the admin's Resend of a failed one,
 * and the trouble the /admin banner reports. The delivery rules themselves live in `mail/outbox.server.ts`.
 */
import { and, eq, sql } from "drizzle-orm";
import { auditInsert } from "../audit.server";
import { builtOnce } from "../built-once.server";
import { afterCommit, type CommandContext, type Outcome } from "../commands.server";
import type { Db } from "../db.server";
import { readTogether, schema, writeTogether } from "../db.server";
import { keyRefusedError, requeueFailedEmail } from "../mail/outbox.server";
import { afterCursor, createdAtCursor, type Keyset, keysetOrderBy, keysetPage } from "../paging.server";
import { assertMay, type BackOfficeActor } from "../permissions.server";

const { emailOutbox } = schema;

export const MAIL_PAGE_SIZE = 50;
/** A notice counts as trouble once it has been failing this long… */
export const TROUBLE_AFTER_MS = 60 * 60_000;
/** …and a failed one for this long after it failed (or until it is resent). */
export const FAILED_SHOWN_MS = 24 * 60 * 60_000;

export const MAIL_MESSAGES = {
  resent: (id: number) => `Notice #${id} is queued again and will be sent shortly.`,
  notFailed:
    "Only a failed notice can be resent. This one is not failed (it may have been resent already): nothing was changed.",
  notFound: "Notice not found.",
  unknownAction: "Unknown action",
} as const;

/**
 * What the /admin banner shows; `mailTrouble` answers null when there is nothing to show.
 * - `failing`: pending notices whose last try failed (an outage, or a refused key) and that were queued (created,
 *   or re-queued by a Resend) over an hour ago.
 * - `failed`: notices marked failed in the last 24 hours and not resent since.
 * - `keyRefused`: the provider refuses our API key: a pending notice's last error is a 401 or 403.
 * The banner shows while `failing + failed > 0`; `keyRefused` only adds the likely cause.
 */
export interface MailTrouble {
  failing: number;
  failed: number;
  keyRefused: boolean;
}

/**
 * The banner's one query, unexecuted so a page can put it in its `readTogether` batch. It reads the pending rows
 * (the due index) and the recently failed ones (the failed index), never the sent history.
 */
export function mailTroubleQuery(db: Db, now = Date.now()) {
  return mailTroubleRead(db, { queuedBefore: now - TROUBLE_AFTER_MS, failedSince: now - FAILED_SHOWN_MS });
}

/** The read of `mailTroubleQuery`, built once (../built-once.server.ts). */
const mailTroubleRead = builtOnce((db) => {
  const queuedBefore = sql.placeholder("queuedBefore");
  const failedSince = sql.placeholder("failedSince");
  const t = emailOutbox;
  return db
    .select({
      failing: sql<number>`coalesce(sum(${t.status} = 'pending' AND ${t.lastError} IS NOT NULL
                                        AND coalesce(${t.requeuedAt}, ${t.createdAt}) <= ${queuedBefore}), 0)`,
      failed: sql<number>`coalesce(sum(${t.status} = 'failed'), 0)`,
      keyRefused: sql<number>`coalesce(max(${t.status} = 'pending' AND ${keyRefusedError}), 0)`,
    })
    .from(t)
    .where(sql`${t.status} = 'pending' OR (${t.status} = 'failed' AND ${t.failedAt} > ${failedSince})`);
});

export function toMailTrouble(rows: Awaited<ReturnType<typeof mailTroubleQuery>>): MailTrouble | null {
  const row = rows[0];
  const failing = Number(row?.failing ?? 0);
  const failed = Number(row?.failed ?? 0);
  if (failing + failed === 0) return null;
  return { failing, failed, keyRefused: Boolean(row?.keyRefused) };
}

/** For the /admin loader: what the mail failure banner needs, or null when all is well. */
export async function mailTrouble(db: Db, now = Date.now()): Promise<MailTrouble | null> {
  return toMailTrouble(await mailTroubleQuery(db, now));
}

/** One page of the notices not delivered yet (pending or failed), newest first, keyset-paged. */
function openEmailsQuery(db: Db, after: Keyset<number> | undefined, pageSize: number) {
  const t = emailOutbox;
  return (
    db
      .select({
        id: t.id,
        template: t.template,
        toAddress: t.toAddress,
        status: t.status,
        attempts: t.attempts,
        lastError: t.lastError,
        nextAttemptAt: t.nextAttemptAt,
        createdAt: t.createdAt,
        failedAt: t.failedAt,
        requeuedAt: t.requeuedAt,
      })
      .from(t)
      // Literal statuses, so the planner can use the partial index of the open notices.
      .where(and(sql`${t.status} IN ('pending', 'failed')`, afterCursor(t, after, "newest")))
      .orderBy(...keysetOrderBy(t, "newest"))
      .limit(pageSize + 1)
  );
}

type OpenEmail = Awaited<ReturnType<typeof openEmailsQuery>>[number];

/** The /admin/mail page in one round trip: a page of open notices and whether the provider refuses our key. */
export async function mailQueue(
  db: Db,
  options: { after?: Keyset<number>; pageSize?: number } = {},
  now = Date.now(),
): Promise<{ emails: OpenEmail[]; next: string | null; trouble: MailTrouble | null; keyRefused: boolean }> {
  const pageSize = options.pageSize ?? MAIL_PAGE_SIZE;
  const { page, trouble } = await readTogether(db, {
    page: openEmailsQuery(db, options.after, pageSize),
    trouble: mailTroubleQuery(db, now),
  });
  const { rows, next } = keysetPage(page, { after: options.after }, pageSize, createdAtCursor);
  return { emails: rows, next, trouble: toMailTrouble(trouble), keyRefused: Boolean(trouble[0]?.keyRefused) };
}

/**
 * An admin's Resend of a failed notice: the same row goes back in the queue (so the provider sees the same
 * idempotency key, `outbox-<id>`), audited in the same batch, then delivered in the background. Only a failed
 * row is re-queued; anything else (pending, sent, captured, already resent) is left as it is.
 */
export async function resendEmail(
  context: CommandContext,
  actor: BackOfficeActor,
  id: number,
  now = Date.now(),
): Promise<Outcome<{ id: number }>> {
  const allowed = assertMay(actor, "manageMail");
  if (!allowed.ok) return allowed;
  const { requeued } = await writeTogether(context.db, {
    // First, while the row still says how it failed; written only for a row that is failed, like the update.
    audit: auditInsert({
      actor,
      action: "email.resend",
      target: `email:${id}`,
      detail: sql`'template', template, 'to', to_address, 'attempts', attempts, 'lastError', last_error,
                  'failedAt', failed_at`,
      from: sql`email_outbox WHERE id = ${id} AND status = 'failed'`,
      at: now,
    }),
    requeued: requeueFailedEmail(id, now),
  });
  if (requeued.length === 0) {
    const exists = await context.db
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(eq(emailOutbox.id, id))
      .get();
    return exists
      ? { ok: false, error: MAIL_MESSAGES.notFailed, status: 409 }
      : { ok: false, error: MAIL_MESSAGES.notFound, status: 404 };
  }
  afterCommit(context, { emailIds: [id] });
  return { ok: true, id };
}
