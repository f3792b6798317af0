/**
 * "Delete client data", made recoverable: the profile and transactions are copied to the archives, then
 * removed from the live tables, the client's sessions end and an audit row records what went, in one
 * batch. The login account stays; a later sign-in creates a fresh profile. The identity-verification case and
 * its documents are evidence we must keep: in the same batch the case is ended (`ended_at`) and kept until
 * `retain_until`, five years later, when the scheduled purge deletes it (app/server/verification/retention.server.ts).
 * The client's notes are kept the same way (app/server/admin/notes.server.ts) and their flags cleared.
 */
import { eq, sql } from "drizzle-orm";
import { PAYOUT_TEXTS } from "~/lib/chain/payouts";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import { retainUntil } from "~/lib/verification";
import { type Actor, auditInsert } from "../audit.server";
import { afterCommit, type CommandContext, type Outcome, type Result } from "../commands.server";
import type { Db } from "../db.server";
import { schema, writeTogether } from "../db.server";
import { assertMay, type BackOfficeActor } from "../permissions.server";
import { endSessionsOf } from "../session.server";
import { deleteStoredPdfs } from "../statement-pdf/stored-pdf.server";

const { users } = schema;

export const DELETION_MESSAGES = {
  openPositions: "This client holds open positions: close them before deleting their data.",
} as const;

export async function deleteClientData(
  db: Db,
  actor: Required<Actor>,
  userId: string,
  now = Date.now(),
): Promise<Result> {
  const target = await db.select({ role: users.role }).from(users).where(eq(users.id, userId)).get();
  if (!target) return { ok: false, error: ADMIN_MESSAGES.userNotFound };
  if (target.role === "admin") return { ok: false, error: "Admin accounts cannot be deleted here" };
  try {
    await writeTogether(db, {
      audit: auditInsert({
        actor,
        action: "client.delete",
        target: `user:${userId}`,
        detail: sql`'transactions', (SELECT count(*) FROM transactions WHERE user_id = ${userId}),
                    'balanceCents', (SELECT balance_cents FROM profiles WHERE user_id = ${userId}),
                    'email', (SELECT email FROM users WHERE id = ${userId}),
                    'verificationRetainedUntil', (SELECT ${retainUntil(now)} FROM verification_cases
                                                  WHERE user_id = ${userId} AND ended_at IS NULL),
                    'notesRetained', (SELECT count(*) FROM client_notes
                                      WHERE user_id = ${userId} AND retain_until IS NULL)`,
        at: now,
      }),
      archiveTransactions: sql`
        INSERT INTO transactions_archive (id, user_id, transaction_type, amount_cents, status, wallet_address,
          withdrawal_wallet_address, balance_after_cents, trading_pair, stock, idempotency_key, created_by,
          decided_by, decided_at, decision_reason, memo, created_at, archived_at, archived_by)
        SELECT id, user_id, transaction_type, amount_cents, status, wallet_address, withdrawal_wallet_address,
               balance_after_cents, trading_pair, stock, idempotency_key, created_by, decided_by, decided_at,
               decision_reason, memo, created_at, ${now}, ${actor.id}
        FROM transactions WHERE user_id = ${userId}`,
      archiveProfile: sql`
        INSERT INTO profiles_archive (id, user_id, email, first_name, last_name, phone_number, username, country,
          referral_id, balance_cents, status, role, total_trades, win_rate, created_at, updated_at, archived_at,
          archived_by)
        SELECT id, user_id, email, first_name, last_name, phone_number, username, country, referral_id,
               balance_cents, status, role, total_trades, win_rate, created_at, updated_at, ${now}, ${actor.id}
        FROM profiles WHERE user_id = ${userId}`,
      // Their payouts not yet settled are no longer checked (their withdrawals are archived); the records stay.
      payouts: sql`UPDATE chain_payouts SET status = 'mismatch', problem = ${PAYOUT_TEXTS.clientDeleted}
                   WHERE user_id = ${userId} AND status IN ('recorded', 'matched')`,
      transactions: sql`DELETE FROM transactions WHERE user_id = ${userId}`,
      profile: sql`DELETE FROM profiles WHERE user_id = ${userId}`,
      signOut: endSessionsOf(db, userId),
      keepVerificationEvidence: sql`
        UPDATE verification_cases SET ended_at = ${now}, retain_until = ${retainUntil(now)}, updated_at = ${now}
        WHERE user_id = ${userId} AND ended_at IS NULL`,
      // A request to restore access ends with the account; its photos stay with the case's evidence.
      endAccessRecovery: sql`UPDATE access_recovery_requests SET status = 'cancelled', decided_at = ${now}
                             WHERE user_id = ${userId} AND status IN ('open', 'submitted', 'first_approved')`,
      // The back office's notes follow the evidence's rule: kept, no longer shown, until the same retain_until.
      keepNotes: sql`UPDATE client_notes SET retain_until = ${retainUntil(now)}
                     WHERE user_id = ${userId} AND retain_until IS NULL`,
      clearFlags: sql`DELETE FROM client_flags WHERE user_id = ${userId}`,
      // Their notifications describe the deleted transactions: they go with them.
      notifications: sql`DELETE FROM notifications WHERE user_id = ${userId}`,
      // Their mail choices are their data too: a client who comes back starts with every mail wanted.
      mailPreferences: sql`DELETE FROM mail_preferences WHERE user_id = ${userId}`,
    });
    return { ok: true };
  } catch (error) {
    console.error("deleteClientData failed", error);
    const reason = error instanceof Error ? error.message : String(error);
    if (/open positions/.test(reason)) return { ok: false, error: DELETION_MESSAGES.openPositions };
    if (/transactions/.test(reason)) return { ok: false, error: `Failed to delete transactions: ${reason}` };
    if (/profiles/.test(reason)) return { ok: false, error: `Failed to delete profile: ${reason}` };
    return { ok: false, error: ADMIN_MESSAGES.deleteFailed };
  }
}

/** The deletion, then the client's open pages are told and their sockets closed. */
export async function deleteClient(context: CommandContext, actor: BackOfficeActor, userId: string): Promise<Outcome> {
  const allowed = assertMay(actor, "deleteClients");
  if (!allowed.ok) return allowed;
  const result = await deleteClientData(context.db, actor, userId);
  if (!result.ok) return { ok: false, error: result.error, status: 400 };
  afterCommit(context, { events: [{ userId, event: { type: "client.deleted", userId } }], signedOut: [userId] });
  // Their statement PDFs print their name and every movement: kept copies go with the data.
  context.ctx.waitUntil(deleteStoredPdfs(context.bindings.STATEMENTS, userId));
  return { ok: true };
}
