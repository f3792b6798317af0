/**
 * Decisions on client requests: pending -> approved or pending -> rejected, once. (Approving at or above the
 * four-eyes threshold is a proposal first: request-approvals.server.ts.) The status update only
 * matches a pending row (and, for a withdrawal approval, only while the client is verified and their approved
 * balance still covers it); the audit row and the profile projection follow it in the same batch. Whoever comes second
 * changes nothing, and the database's guards refuse any other change of a decided row. The client's mail about
 * the decision is in the same batch and is written only when this decision is the one stored.
 */
import { eq, type SQL, sql } from "drizzle-orm";
import { type AdminLimits, VERIFIED_ONLY } from "~/lib/money/constraints";
import type { FeedTransaction } from "~/lib/realtime";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import { parseReason, REASON_MAX_LENGTH, REASON_TOO_LONG } from "~/lib/schemas/reason";
import { LEVEL_MONEY_MESSAGES } from "~/lib/verification-money";
import { type Actor, auditInsert } from "../audit.server";
import { afterCommit, type CommandContext, type Outcome, type Result } from "../commands.server";
import type { Db } from "../db.server";
import { returning, schema, writeTogether } from "../db.server";
import { requestDecidedNotice } from "../ledger/decision-notice.server";
import { coverSql, refreshProfileProjection } from "../ledger/figures.server";
import { FEED_RETURNING } from "../ledger/reads.server";
import { isVerified, verifiedSql } from "../verification/levels.server";
import { approvalLimitBroken, approvalWithinLimitsSql, countsTowardLimits } from "./approval-limits.server";
import type { HeldByLimit } from "./entries.server";

const { transactions, profiles } = schema;

type Decision = "approved" | "rejected";

/**
 * The rules table's cover rule of an approval, over the `transactions` row being approved: a withdrawal only while
 * the client's coverable balance still pays it.
 */
const coveredByBalance = (owner: SQL | string) =>
  coverSql("requestApproval", owner, { type: sql`transaction_type`, amountCents: sql`amount_cents` });

/**
 * Every rule an approval of the `transactions` row checks in its own statement: a withdrawal only for a verified
 * client (a database trigger holds the same) and only while covered. Shared by every path that approves one.
 */
export const approvableRequest = (owner: SQL | string) =>
  sql`(transaction_type NOT IN (${sql.join(
    VERIFIED_ONLY.types.map((type) => sql`${type}`),
    sql`, `,
  )}) OR ${verifiedSql(owner)}) AND ${coveredByBalance(owner)}`;

/**
 * Why an approval of a pending withdrawal wrote nothing: the client is not verified, or their balance no longer
 * covers it (the two conditions of `approvableRequest`), in the words of `notCovered`.
 */
export async function withdrawalApprovalRefusal(
  db: Db,
  userId: string,
  notCovered: string = ADMIN_MESSAGES.cannotCoverWithdrawal,
): Promise<string> {
  return (await isVerified(db, userId)) ? notCovered : LEVEL_MONEY_MESSAGES.approvalNeedsVerifiedClient;
}

/**
 * A client's request as a decision needs it, read once before the batch: what the decision mail says (type,
 * amount, when, the client's first name), its owner and status, and the stock a proposal names. Null when there
 * is no such row.
 */
export async function requestToDecide(db: Db, transactionId: number) {
  const row = await db
    .select({
      id: transactions.id,
      userId: transactions.userId,
      transactionType: transactions.transactionType,
      amountCents: transactions.amountCents,
      stock: transactions.stock,
      createdAt: transactions.createdAt,
      status: transactions.status,
      firstName: profiles.firstName,
    })
    .from(transactions)
    .leftJoin(profiles, eq(profiles.userId, transactions.userId))
    .where(eq(transactions.id, transactionId))
    .get();
  return row ? { ...row, name: row.firstName?.trim() ?? "" } : null;
}

export type RequestToDecide = NonNullable<Awaited<ReturnType<typeof requestToDecide>>>;

export async function decideTransaction(
  db: Db,
  actor: Required<Actor>,
  transactionId: number,
  decision: Decision,
  scope: { limits: AdminLimits; userId?: string; reason?: string | null; request?: RequestToDecide | null },
  now = Date.now(),
): Promise<Result<{ userId: string; transaction: FeedTransaction; emailIds: number[] }> | HeldByLimit> {
  // Only a rejection carries a reason; it is stored, audited and mailed to the client.
  const reason = decision === "rejected" ? scope.reason?.trim() || null : null;
  if (reason && reason.length > REASON_MAX_LENGTH) return { ok: false, error: REASON_TOO_LONG };
  const owner = sql`(SELECT user_id FROM transactions WHERE id = ${transactionId})`;
  const inScope = scope.userId ? sql`AND user_id = ${scope.userId}` : sql``;
  // An approval alone is also held by the admin's approval limits, in the same statement.
  const coverCheck =
    decision === "approved"
      ? sql`AND ${approvableRequest(owner)} AND ${approvalWithinLimitsSql(scope.limits, actor.id, now)}`
      : sql``;
  // The row as the caller already read it, or read here; only a pending one is mailed about.
  const read = scope.request !== undefined ? scope.request : await requestToDecide(db, transactionId);
  const request = read?.status === "pending" ? read : null;
  const { decided, notice } = await writeTogether(db, {
    decided: returning<FeedTransaction>(
      sql`UPDATE transactions SET status = ${decision}, decided_by = ${actor.id}, decided_at = ${now},
                                  decision_reason = ${reason}
          WHERE id = ${transactionId} AND status = 'pending' ${inScope} ${coverCheck}
          RETURNING ${FEED_RETURNING}`,
    ),
    // One decision per transaction ever, so one audit row: the guard makes a replay add nothing.
    audit: auditInsert({
      actor,
      action: decision === "approved" ? "transaction.approve" : "transaction.reject",
      target: sql`'transaction:' || id`,
      detail: sql`'client', user_id, 'type', transaction_type, 'amountCents', amount_cents, 'before', 'pending', 'after', status, 'reason', decision_reason`,
      from: sql`transactions
          WHERE id = ${transactionId} AND status = ${decision} AND decided_by = ${actor.id} AND decided_at = ${now}
            AND NOT EXISTS (SELECT 1 FROM audit_log a WHERE a.target = 'transaction:' || transactions.id
                            AND a.action IN ('transaction.approve', 'transaction.reject'))`,
      at: now,
    }),
    projection: refreshProfileProjection(owner, now),
    // A row that was not pending when read gets no mail: then this batch decides nothing anyway.
    notice:
      request !== null &&
      requestDecidedNotice(request, { status: decision, decidedBy: actor.id, decidedAt: now, reason }),
  });
  const row = decided[0];
  if (row) {
    return {
      ok: true,
      userId: row.userId,
      transaction: row,
      emailIds: (notice as Array<{ id: number }>).map((n) => n.id),
    };
  }

  const current = await db
    .select({
      status: transactions.status,
      userId: transactions.userId,
      transactionType: transactions.transactionType,
      amountCents: transactions.amountCents,
    })
    .from(transactions)
    .where(eq(transactions.id, transactionId))
    .get();
  if (!current || (scope.userId && current.userId !== scope.userId)) {
    return { ok: false, error: ADMIN_MESSAGES.transactionNotFound };
  }
  if (current.status !== "pending") return { ok: false, error: ADMIN_MESSAGES.alreadyDecided };
  if (decision === "approved" && countsTowardLimits(current.transactionType)) {
    const heldBy = await approvalLimitBroken(db, scope.limits, actor.id, current.userId, current.amountCents, now);
    if (heldBy) return { ok: false, error: heldBy, heldBy };
  }
  return { ok: false, error: await withdrawalApprovalRefusal(db, current.userId) };
}

/**
 * The admin's approve or reject, then the client's feed and the desk hear of it. A reason too long is the form's
 * fault (400, on its field); every refusal of the decision itself is a conflict with the row's state (409).
 */
export async function decide(
  context: CommandContext,
  actor: Required<Actor>,
  input: {
    transactionId: number;
    decision: Decision;
    userId?: string;
    reason?: string | null;
    request?: RequestToDecide | null;
  },
): Promise<Outcome & { field?: "reason"; heldBy?: string }> {
  const reason = parseReason(input.reason ?? null);
  if (!reason.ok) return { ok: false, error: reason.error, status: 400, field: "reason" };
  const result = await decideTransaction(context.db, actor, input.transactionId, input.decision, {
    limits: context.env,
    userId: input.userId,
    reason: reason.text || null,
    request: input.request,
  });
  if (!result.ok) return { ...result, status: 409 };
  afterCommit(context, {
    emailIds: result.emailIds,
    events: [{ userId: result.userId, event: { type: "transaction.updated", transaction: result.transaction } }],
  });
  return { ok: true };
}
