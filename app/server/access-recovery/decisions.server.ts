/**
 * The back office's decisions on a client's access-recovery request (docs/product.md, "Access recovery"): two
 * admins of the access-recovery roles approve it one after the other (four eyes: the rules table's
 * `secondAdmin` of `accessRecoveryApproval` in app/lib/acts.ts), or one refuses it with the reason the client reads. The second approval
 * (no sooner than a day after the request was sent, so that its owner can cancel one that was not theirs)
 * removes the client's authenticator app, passkeys and recovery codes, ends their sessions and open sign-ins, and
 * starts the 24-hour hold on money acts, in one batch with its audit row and the client's mail. Each statement
 * names the status the admin's page showed, so two admins acting at once never make one approval count twice; the
 * database's triggers (migration 0028) hold the order, the second admin and the roles as well.
 */
import { type SQL, sql } from "drizzle-orm";
import { ACCESS_RECOVERY_MESSAGES, ACCESS_RECOVERY_WAIT_MS, type RecoveryDecisionInput } from "~/lib/access-recovery";
import { needsSecondAdmin } from "~/lib/acts";
import { RECOVERY_RESET_HOLD_MS } from "~/lib/step-up";
import { auditInsert } from "../audit.server";
import { afterCommit, type CommandContext, type FormOutcome } from "../commands.server";
import { returning, writeTogether } from "../db.server";
import { assertMay, type BackOfficeActor } from "../permissions.server";
import { endSessionsOf } from "../session.server";
import { type LoadedRecoveryRequest, loadRecoveryRequest, recoveryNotice } from "./notice.server";

export async function decideRecovery(
  context: CommandContext & { origin: string },
  admin: BackOfficeActor,
  requestId: number,
  input: RecoveryDecisionInput,
  now = Date.now(),
): Promise<FormOutcome> {
  const allowed = assertMay(admin, "restoreAccess");
  if (!allowed.ok) return allowed;
  const loaded = await loadRecoveryRequest(context.db, requestId);
  if (!loaded) return { ok: false, error: ACCESS_RECOVERY_MESSAGES.notFound, status: 404 };
  if (loaded.status !== input.seenStatus)
    return { ok: false, error: ACCESS_RECOVERY_MESSAGES.decidedMeanwhile, status: 409 };
  if (input.decision === "refuse") return refuse(context, admin, loaded, input.reason, now);
  // A single approval would do only if the rules table ever stopped asking for a second admin.
  const second = input.seenStatus === "first_approved" || !needsSecondAdmin("accessRecoveryApproval", 0);
  if (second && loaded.firstApprovedBy === admin.id)
    return { ok: false, error: ACCESS_RECOVERY_MESSAGES.ownFirstApproval, status: 409 };
  const opensAt = (loaded.submittedAt ?? now) + ACCESS_RECOVERY_WAIT_MS;
  if (second && now < opensAt) return { ok: false, error: ACCESS_RECOVERY_MESSAGES.tooEarly(opensAt), status: 409 };
  return second ? restore(context, admin, loaded, now) : approveFirst(context, admin, loaded, now);
}

const auditOf = (
  admin: BackOfficeActor,
  action: "access_recovery.approve" | "access_recovery.refuse",
  loaded: LoadedRecoveryRequest,
  detail: Record<string, unknown>,
  now: number,
) =>
  auditInsert({
    actor: admin,
    action,
    target: `user:${loaded.userId}`,
    detail: { request: loaded.id, client: loaded.userId, before: loaded.status, ...detail },
    onlyIf: sql`changes() = 1`,
    at: now,
  });

async function finish(
  context: CommandContext,
  written: { changed: { id: number }[]; notice: { id: number }[] },
  message: string,
  signedOut: string[] = [],
): Promise<FormOutcome> {
  if (written.changed.length === 0) return { ok: false, error: ACCESS_RECOVERY_MESSAGES.decidedMeanwhile, status: 409 };
  afterCommit(context, {
    emailIds: written.notice.map((row) => row.id),
    deskEvents: [{ type: "access_recovery.changed" }],
    signedOut,
  });
  return { ok: true, message };
}

async function approveFirst(
  context: CommandContext & { origin: string },
  admin: BackOfficeActor,
  loaded: LoadedRecoveryRequest,
  now: number,
) {
  const done = sql`status = 'first_approved' AND first_approved_by = ${admin.id} AND first_approved_at = ${now}`;
  const written = await writeTogether(context.db, {
    changed: returning<{ id: number }>(
      sql`UPDATE access_recovery_requests SET status = 'first_approved', first_approved_by = ${admin.id},
            first_approved_at = ${now}
          WHERE id = ${loaded.id} AND status = 'submitted' RETURNING id`,
    ),
    audit: auditOf(admin, "access_recovery.approve", loaded, { after: "first_approved" }, now),
    notice: recoveryNotice(loaded, "first_approved", now, context.origin, done),
  });
  return finish(context, written, ACCESS_RECOVERY_MESSAGES.firstApproved);
}

async function restore(
  context: CommandContext & { origin: string },
  admin: BackOfficeActor,
  loaded: LoadedRecoveryRequest,
  now: number,
) {
  const { userId } = loaded;
  const restored: SQL = sql`EXISTS (SELECT 1 FROM access_recovery_requests WHERE id = ${loaded.id}
                                     AND status = 'approved' AND decided_by = ${admin.id} AND decided_at = ${now})`;
  const written = await writeTogether(context.db, {
    changed: returning<{ id: number }>(
      sql`UPDATE access_recovery_requests SET status = 'approved', decided_by = ${admin.id}, decided_at = ${now}
          WHERE id = ${loaded.id} AND status = 'first_approved' AND first_approved_by IS NOT ${admin.id}
            AND submitted_at <= ${now - ACCESS_RECOVERY_WAIT_MS}
          RETURNING id`,
    ),
    audit: auditOf(
      admin,
      "access_recovery.approve",
      loaded,
      { after: "approved", firstApprovedBy: loaded.firstApprovedBy },
      now,
    ),
    authenticator: sql`DELETE FROM two_factor WHERE user_id = ${userId} AND ${restored}`,
    passkeys: sql`DELETE FROM passkeys WHERE user_id = ${userId} AND ${restored}`,
    codes: sql`DELETE FROM recovery_codes WHERE user_id = ${userId} AND ${restored}`,
    challenges: sql`DELETE FROM sign_in_challenges WHERE user_id = ${userId} AND ${restored}`,
    // The hold on money acts: whoever signs in next with the password alone moves nothing for 24 hours.
    hold: sql`UPDATE users SET second_factor_reset_at = ${now} WHERE id = ${userId} AND ${restored}`,
    signOut: endSessionsOf(context.db, userId, undefined, restored),
    notice: recoveryNotice(loaded, "approved", now, context.origin, sql`status = 'approved' AND decided_at = ${now}`, {
      holdUntil: now + RECOVERY_RESET_HOLD_MS,
    }),
  });
  return finish(context, written, ACCESS_RECOVERY_MESSAGES.approved, written.changed.length > 0 ? [userId] : []);
}

async function refuse(
  context: CommandContext & { origin: string },
  admin: BackOfficeActor,
  loaded: LoadedRecoveryRequest,
  reason: string,
  now: number,
) {
  const written = await writeTogether(context.db, {
    changed: returning<{ id: number }>(
      sql`UPDATE access_recovery_requests SET status = 'refused', decided_by = ${admin.id}, decided_at = ${now},
            refusal_reason = ${reason}
          WHERE id = ${loaded.id} AND status = ${loaded.status} RETURNING id`,
    ),
    audit: auditOf(admin, "access_recovery.refuse", loaded, { after: "refused", reason }, now),
    notice: recoveryNotice(loaded, "refused", now, context.origin, sql`status = 'refused' AND decided_at = ${now}`, {
      reason,
    }),
  });
  return finish(context, written, ACCESS_RECOVERY_MESSAGES.refused);
}
