/**
 * Decisions on client requests: pending -> approved or pending -> rejected, once. The status update only
 * matches a pending row (and, for a withdrawal approval, only while the client's approved balance still
 * covers it); the audit row and the profile projection follow it in the same batch. Whoever comes second
 * changes nothing, and the database's guards refuse any other change of a decided row.
 */
import { eq, type SQL, sql } from "drizzle-orm";
import type { FeedTransaction } from "~/lib/realtime";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import { type Actor, auditInsert } from "../audit.server";
import { afterCommit, type CommandContext, type Outcome, type Result } from "../commands.server";
import type { Db } from "../db.server";
import { returning, schema, writeTogether } from "../db.server";
import { figureSql, refreshProfileProjection } from "../ledger/figures.server";
import { FEED_RETURNING } from "../ledger/reads.server";

const { transactions } = schema;

type Decision = "approved" | "rejected";

/**
 * The cover rule of an approval, over the `transactions` row being approved: a withdrawal only while the client's
 * coverable balance still pays it. Shared by every path that approves a withdrawal.
 */
export const coveredByBalance = (owner: SQL | string) =>
  sql`(transaction_type <> 'withdraw' OR ${figureSql("coverable", owner)} >= amount_cents)`;

export async function decideTransaction(
  db: Db,
  actor: Required<Actor>,
  transactionId: number,
  decision: Decision,
  scope: { userId?: string } = {},
  now = Date.now(),
): Promise<Result<{ userId: string; transaction: FeedTransaction }>> {
  const owner = sql`(SELECT user_id FROM transactions WHERE id = ${transactionId})`;
  const inScope = scope.userId ? sql`AND user_id = ${scope.userId}` : sql``;
  const coverCheck = decision === "approved" ? sql`AND ${coveredByBalance(owner)}` : sql``;
  const { decided } = await writeTogether(db, {
    decided: returning<FeedTransaction>(
      sql`UPDATE transactions SET status = ${decision}, decided_by = ${actor.id}, decided_at = ${now}
          WHERE id = ${transactionId} AND status = 'pending' ${inScope} ${coverCheck}
          RETURNING ${FEED_RETURNING}`,
    ),
    // One decision per transaction ever, so one audit row: the guard makes a replay add nothing.
    audit: auditInsert({
      actor,
      action: decision === "approved" ? "transaction.approve" : "transaction.reject",
      target: sql`'transaction:' || id`,
      detail: sql`'client', user_id, 'type', transaction_type, 'amountCents', amount_cents, 'before', 'pending', 'after', status`,
      from: sql`transactions
          WHERE id = ${transactionId} AND status = ${decision} AND decided_by = ${actor.id} AND decided_at = ${now}
            AND NOT EXISTS (SELECT 1 FROM audit_log a WHERE a.target = 'transaction:' || transactions.id
                            AND a.action IN ('transaction.approve', 'transaction.reject'))`,
      at: now,
    }),
    projection: refreshProfileProjection(owner, now),
  });
  const row = decided[0];
  if (row) return { ok: true, userId: row.userId, transaction: row };

  const current = await db
    .select({ status: transactions.status, userId: transactions.userId })
    .from(transactions)
    .where(eq(transactions.id, transactionId))
    .get();
  if (!current || (scope.userId && current.userId !== scope.userId)) {
    return { ok: false, error: ADMIN_MESSAGES.transactionNotFound };
  }
  if (current.status !== "pending") return { ok: false, error: ADMIN_MESSAGES.alreadyDecided };
  return { ok: false, error: ADMIN_MESSAGES.cannotCoverWithdrawal };
}

/** The admin's approve or reject, then the client's feed and the desk hear of it. */
export async function decide(
  context: CommandContext,
  actor: Required<Actor>,
  input: { transactionId: number; decision: Decision; userId?: string },
): Promise<Outcome> {
  const result = await decideTransaction(context.db, actor, input.transactionId, input.decision, {
    userId: input.userId,
  });
  if (!result.ok) return { ok: false, error: result.error, status: 409 };
  afterCommit(context, {
    events: [{ userId: result.userId, event: { type: "transaction.updated", transaction: result.transaction } }],
  });
  return { ok: true };
}
