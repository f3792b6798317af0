/**
 * A client's side of access recovery (docs/product.md, "Access recovery"): after the password (or provider) step,
 * a client who lost every second factor starts a request, uploads a new photo of their identity document and a
 * selfie holding it, and sends it; they, or the link in any of its mails, may cancel it while it is in progress. The
 * browser that started it follows it with a random token in an HttpOnly cookie (its hash on the row), without a
 * session: the account has none to give until two admins approve.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { ACCESS_RECOVERY_COOKIE_DAYS, ACCESS_RECOVERY_MESSAGES } from "~/lib/access-recovery";
import { type AccessRecoveryFileKind, LIVE_ACCESS_RECOVERY_STATUSES } from "../../../db/enums";
import { auditInsert } from "../audit.server";
import type { ClientMeta } from "../auth/client-meta.server";
import { afterCommit, type CommandContext, type FormOutcome, type Outcome } from "../commands.server";
import { appCookie } from "../cookies.server";
import { randomToken, sha256Hex } from "../crypto.server";
import { returning, schema, writeTogether } from "../db.server";
import type { AppEnv } from "../env.server";
import { type IncomingFile, putCheckedFile } from "../verification/checked-upload.server";
import { accessRecoveryCancelToken } from "./cancel-link.server";
import { loadRecoveryRequest, recoveryNotice } from "./notice.server";

const { accessRecoveryRequests: requests, accessRecoveryFiles: files, verificationCases } = schema;

export function recoveryCookie(env: AppEnv) {
  return appCookie(env, "access-recovery", { maxAge: ACCESS_RECOVERY_COOKIE_DAYS * 24 * 60 * 60 });
}

/** The request this browser started, by its cookie's token: any status, so the page can say how it ended. */
export async function requestOfBrowser(context: { db: CommandContext["db"]; env: AppEnv }, request: Request) {
  const token: unknown = await recoveryCookie(context.env).parse(request.headers.get("Cookie"));
  if (typeof token !== "string" || !/^[\w-]{43}$/.test(token)) return null;
  const row = await context.db
    .select({
      id: requests.id,
      userId: requests.userId,
      status: requests.status,
      refusalReason: requests.refusalReason,
    })
    .from(requests)
    .where(
      and(
        eq(requests.tokenHash, await sha256Hex(token)),
        // The cookie's life, on the server too: a copied cookie is not good for longer.
        sql`${requests.createdAt} > ${Date.now() - ACCESS_RECOVERY_COOKIE_DAYS * 24 * 60 * 60 * 1000}`,
      ),
    )
    .get();
  if (!row) return null;
  const current = await context.db
    .select({ kind: files.kind, fileName: files.fileName, sizeBytes: files.sizeBytes, uploadedAt: files.uploadedAt })
    .from(files)
    .where(and(eq(files.requestId, row.id), sql`${files.replacedAt} IS NULL`))
    .all();
  return { ...row, files: current };
}

/**
 * Whether this account may ask: a client whose identity verification was approved (their documents on file are
 * what the new photos are checked against). The verified case's id, or the refusal to show.
 */
export async function recoveryEligibility(
  db: CommandContext["db"],
  user: { id: string; role: string },
): Promise<{ ok: true; caseId: number } | { ok: false; error: string; status: number }> {
  if (user.role !== "user") return { ok: false, error: ACCESS_RECOVERY_MESSAGES.adminsAsk, status: 403 };
  const verified = await db
    .select({ id: verificationCases.id })
    .from(verificationCases)
    .where(
      and(
        eq(verificationCases.userId, user.id),
        eq(verificationCases.status, "approved"),
        sql`${verificationCases.endedAt} IS NULL`,
      ),
    )
    .get();
  return verified
    ? { ok: true, caseId: verified.id }
    : { ok: false, error: ACCESS_RECOVERY_MESSAGES.notVerified, status: 409 };
}

/**
 * Starts this account's request (ending one being prepared in another browser; refused while one is sent). The
 * answer carries the cookie that follows the request.
 */
export async function startRecovery(
  context: CommandContext,
  user: { id: string; role: string },
  meta: ClientMeta,
  now = Date.now(),
): Promise<Outcome<{ setCookie: string }>> {
  const eligible = await recoveryEligibility(context.db, user);
  if (!eligible.ok) return eligible;
  const token = randomToken(32);
  const tokenHash = await sha256Hex(token);
  // A request being prepared elsewhere ends (the password was proved again here); a sent one is not taken over: its
  // owner was mailed its cancel link, and whoever holds the password must not be able to swap its photos or stop it.
  const { started } = await writeTogether(context.db, {
    earlier: sql`UPDATE access_recovery_requests SET status = 'cancelled', decided_at = ${now}
                 WHERE user_id = ${user.id} AND status = 'open'`,
    started: returning<{ id: number }>(sql`
      INSERT INTO access_recovery_requests (user_id, case_id, token_hash, user_agent, country, city, created_at)
      VALUES (${user.id}, ${eligible.caseId}, ${tokenHash}, ${meta.userAgent}, ${meta.country}, ${meta.city}, ${now})
      ON CONFLICT (user_id) WHERE status IN ('open', 'submitted', 'first_approved') DO NOTHING
      RETURNING id`),
  });
  if (started.length === 0) return { ok: false, error: ACCESS_RECOVERY_MESSAGES.alreadySent, status: 409 };
  return { ok: true, setCookie: await recoveryCookie(context.env).serialize(token) };
}

/** One of the request's two photos, replacing the one of that kind; only while the request is being prepared. */
export async function storeRecoveryFile(
  context: CommandContext,
  requestId: number,
  kind: AccessRecoveryFileKind,
  file: IncomingFile,
  now = Date.now(),
): Promise<Outcome> {
  const bucket = context.bindings.DOCUMENTS;
  const open = sql`(SELECT id, case_id, user_id FROM access_recovery_requests WHERE id = ${requestId} AND status = 'open')`;
  const notOpen = { ok: false as const, error: ACCESS_RECOVERY_MESSAGES.notOpen, status: 409 };
  const put = await putCheckedFile(bucket, file, async () => {
    const row = await context.db.get<{ id: number }>(sql`SELECT id FROM ${open}`);
    return row ? null : notOpen;
  });
  if (!put.ok) return put;
  const stored = put.file;
  let inserted: { id: string }[] = [];
  let replaced: { object_key: string }[] = [];
  try {
    // A photo replaced before the request is sent was never looked at: it goes, row and object.
    ({ inserted, replaced } = await writeTogether(context.db, {
      replaced: returning<{ object_key: string }>(
        sql`DELETE FROM access_recovery_files
            WHERE request_id = (SELECT id FROM ${open}) AND kind = ${kind} RETURNING object_key`,
      ),
      inserted: returning<{ id: string }>(
        sql`INSERT INTO access_recovery_files (id, request_id, case_id, user_id, kind, object_key, file_name,
                                               content_type, size_bytes, sha256, uploaded_at)
            SELECT ${crypto.randomUUID()}, id, case_id, user_id, ${kind}, ${stored.objectKey}, ${stored.fileName},
                   ${stored.contentType}, ${stored.sizeBytes}, ${stored.sha256}, ${now}
            FROM ${open} RETURNING id`,
      ),
    }));
  } finally {
    // No row names the object (an error, or the request sent or cancelled while the file travelled): it goes.
    if (inserted.length === 0) await bucket.delete(stored.objectKey).catch(() => {});
  }
  if (replaced.length > 0) await bucket.delete(replaced.map((row) => row.object_key)).catch(() => {});
  return inserted.length > 0 ? { ok: true } : notOpen;
}

/** Sends the request to compliance, once both photos are there; the client is mailed, with the cancel link. */
export async function submitRecovery(
  context: CommandContext,
  requestId: number,
  origin: string,
  now = Date.now(),
): Promise<FormOutcome> {
  const loaded = await loadRecoveryRequest(context.db, requestId);
  if (loaded?.status !== "open") return { ok: false, error: ACCESS_RECOVERY_MESSAGES.notOpen, status: 409 };
  const sent = sql`status = 'submitted' AND submitted_at = ${now}`;
  const { submitted, notice } = await writeTogether(context.db, {
    submitted: returning<{ id: number }>(
      sql`UPDATE access_recovery_requests SET status = 'submitted', submitted_at = ${now}
          WHERE id = ${requestId} AND status = 'open'
            AND (SELECT count(DISTINCT kind) FROM access_recovery_files
                 WHERE request_id = ${requestId} AND replaced_at IS NULL) = 2
          RETURNING id`,
    ),
    audit: auditInsert({
      actor: { id: loaded.userId, email: loaded.email },
      action: "access_recovery.request",
      target: `user:${loaded.userId}`,
      detail: { request: requestId, case: loaded.caseId },
      onlyIf: sql`changes() = 1`,
      at: now,
    }),
    notice: recoveryNotice(loaded, "submitted", now, origin, sent),
  });
  if (submitted.length === 0) return { ok: false, error: ACCESS_RECOVERY_MESSAGES.filesMissing, status: 400 };
  afterCommit(context, { emailIds: notice.map((row) => row.id), deskEvents: [{ type: "access_recovery.changed" }] });
  return { ok: true, message: ACCESS_RECOVERY_MESSAGES.submitted };
}

/** Ends a request in progress: from the browser that started it, or from a mail's link (any browser). */
export async function cancelRecovery(
  context: CommandContext,
  requestId: number,
  ownerId: string,
  origin: string,
  now = Date.now(),
): Promise<FormOutcome> {
  const loaded = await loadRecoveryRequest(context.db, requestId);
  const live = (LIVE_ACCESS_RECOVERY_STATUSES as readonly string[]).includes(loaded?.status ?? "");
  if (!loaded || loaded.userId !== ownerId || !live)
    return { ok: false, error: ACCESS_RECOVERY_MESSAGES.gone, status: 409 };
  const ended = sql`status = 'cancelled' AND decided_at = ${now} AND decided_by IS NULL`;
  const { cancelled, notice } = await writeTogether(context.db, {
    cancelled: returning<{ id: number }>(
      sql`UPDATE access_recovery_requests SET status = 'cancelled', decided_at = ${now}
          WHERE id = ${requestId} AND user_id = ${ownerId}
            AND status IN ('open', 'submitted', 'first_approved') RETURNING id`,
    ),
    audit: auditInsert({
      actor: { id: loaded.userId, email: loaded.email },
      action: "access_recovery.cancel",
      target: `user:${loaded.userId}`,
      detail: { request: requestId, before: loaded.status },
      onlyIf: sql`changes() = 1`,
      at: now,
    }),
    // Nothing was sent for a request never submitted: nor is its end.
    notice: loaded.status !== "open" ? recoveryNotice(loaded, "cancelled", now, origin, ended) : undefined,
  });
  if (cancelled.length === 0) return { ok: false, error: ACCESS_RECOVERY_MESSAGES.gone, status: 409 };
  afterCommit(context, {
    emailIds: (notice ?? []).map((row) => row.id),
    deskEvents: [{ type: "access_recovery.changed" }],
  });
  return { ok: true, message: ACCESS_RECOVERY_MESSAGES.cancelled };
}

/** The request a mail's cancel link names, while it is in progress; null for a forged, stale or ended one. */
export async function requestOfCancelLink(context: { db: CommandContext["db"]; env: AppEnv }, token: string | null) {
  const named = accessRecoveryCancelToken.read(context.env.SESSION_SECRET, token);
  if (!named) return null;
  const row = await context.db
    .select({ id: requests.id, userId: requests.userId, submittedAt: requests.submittedAt })
    .from(requests)
    .where(
      and(
        eq(requests.id, named.id),
        eq(requests.userId, named.ownerId),
        inArray(requests.status, [...LIVE_ACCESS_RECOVERY_STATUSES]),
      ),
    )
    .get();
  return row ?? null;
}
