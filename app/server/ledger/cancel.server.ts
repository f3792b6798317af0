/**
 * A client cancels a request of their own while it is pending: a withdrawal, a deposit or a stock deposit.
 * One conditional UPDATE (pending -> cancelled, decided_by the owner) with its audit row, in one batch. The
 * status condition and the database's guards make a cancel and an admin's decision racing each other end
 * with exactly one of them; a cancelled withdrawal stops being reserved at once (the figures go by status).
 * Suspended clients may cancel too: it only ever lowers what the firm owes.
 */
import { and, eq, sql } from "drizzle-orm";
import type { TransactionType } from "~/lib/ledger";
import { cancellableSql, isCancellable } from "~/lib/money/constraints";
import type { FeedTransaction } from "~/lib/realtime";
import { CANCEL_MESSAGES } from "~/lib/schemas/requests";
import { type Actor, auditInsert } from "../audit.server";
import { afterCommit, type CommandContext, type Outcome, type Result } from "../commands.server";
import type { Db } from "../db.server";
import { returning, schema, writeTogether } from "../db.server";
import { readCancelToken } from "./cancel-link.server";
import { FEED_RETURNING } from "./reads.server";

const { transactions } = schema;

/**
 * Where a cancel came from: the signed-in client's own page, or the mail's link, which works signed out for
 * whoever holds it. The audit row says which.
 */
type CancelPath = "dashboard" | "link";

export async function cancelRequest(
  db: Db,
  owner: Actor,
  transactionId: number,
  via: CancelPath = "dashboard",
  now = Date.now(),
): Promise<Result<{ transaction: FeedTransaction }>> {
  const { cancelled } = await writeTogether(db, {
    cancelled: returning<FeedTransaction>(
      sql`UPDATE transactions SET status = 'cancelled', decided_by = ${owner.id}, decided_at = ${now}
          WHERE id = ${transactionId} AND user_id = ${owner.id} AND created_by IS user_id AND ${sql.raw(cancellableSql())}
          RETURNING ${FEED_RETURNING}`,
    ),
    // Written only for the cancel this batch made (same owner and moment), so a replay adds no second row.
    // No profile projection: it is made of approved rows, and a pending row leaving changes none of them.
    audit: auditInsert({
      actor: owner,
      action: "transaction.cancel",
      target: sql`'transaction:' || id`,
      detail: sql`'client', user_id, 'type', transaction_type, 'amountCents', amount_cents, 'before', 'pending', 'after', status,
                  'via', ${via}`,
      from: sql`transactions
          WHERE id = ${transactionId} AND status = 'cancelled' AND decided_by = ${owner.id} AND decided_at = ${now}
            AND NOT EXISTS (SELECT 1 FROM audit_log a WHERE a.target = 'transaction:' || transactions.id
                            AND a.action = 'transaction.cancel')`,
      at: now,
    }),
  });
  const row = cancelled[0];
  if (row) return { ok: true, transaction: row };

  const current = await db
    .select({
      status: transactions.status,
      userId: transactions.userId,
      createdBy: transactions.createdBy,
      type: transactions.transactionType,
    })
    .from(transactions)
    .where(eq(transactions.id, transactionId))
    .get();
  if (!current || current.userId !== owner.id) return { ok: false, error: CANCEL_MESSAGES.notFound };
  // A deposit seen on chain and held for review is the desk's to decide: the coins have arrived.
  if (!isCancellable(current.type)) return { ok: false, error: CANCEL_MESSAGES.notCancellable };
  if (current.createdBy !== owner.id) return { ok: false, error: CANCEL_MESSAGES.receivedOnChain };
  if (current.status === "cancelled") return { ok: false, error: CANCEL_MESSAGES.alreadyCancelled };
  return { ok: false, error: CANCEL_MESSAGES.alreadyDecided };
}

/** The client's cancel, then their dashboard, their admin page and the desk hear of it. */
export async function cancel(
  context: CommandContext,
  owner: Actor,
  transactionId: number,
  via: CancelPath = "dashboard",
): Promise<Outcome> {
  const result = await cancelRequest(context.db, owner, transactionId, via);
  if (!result.ok) return { ok: false, error: result.error, status: 409 };
  afterCommit(context, {
    events: [{ userId: owner.id, event: { type: "transaction.updated", transaction: result.transaction } }],
  });
  return { ok: true };
}

/** What the cancel link's page shows of the request it names, for its owner only and while it is pending. */
export async function requestForCancelLink(
  db: Db,
  secret: string,
  token: string | null,
): Promise<Result<{ request: LinkedRequest }>> {
  const named = readCancelToken(secret, token);
  if (!named) return { ok: false, error: CANCEL_MESSAGES.invalidLink };
  const request = await db
    .select({
      id: transactions.id,
      transactionType: transactions.transactionType,
      amountCents: transactions.amountCents,
      address: transactions.withdrawalWalletAddress,
      createdAt: transactions.createdAt,
      status: transactions.status,
      createdBy: transactions.createdBy,
      ownerEmail: schema.users.email,
    })
    .from(transactions)
    .innerJoin(schema.users, eq(schema.users.id, transactions.userId))
    .where(and(eq(transactions.id, named.transactionId), eq(transactions.userId, named.ownerId)))
    .get();
  // A signature of ours over a row that is not (or no longer) this owner's: as good as forged.
  if (!request) return { ok: false, error: CANCEL_MESSAGES.invalidLink };
  const { createdBy, ...shown } = request;
  // Never offered for a row the client did not make (a deposit seen on chain): the cancel would be refused.
  if (createdBy !== named.ownerId) return { ok: false, error: CANCEL_MESSAGES.receivedOnChain };
  if (request.status === "cancelled") return { ok: false, error: CANCEL_MESSAGES.alreadyCancelled };
  if (request.status !== "pending") return { ok: false, error: CANCEL_MESSAGES.alreadyDecided };
  return { ok: true, request: { ...shown, ownerId: named.ownerId } };
}

type LinkedRequest = {
  id: number;
  ownerId: string;
  ownerEmail: string;
  transactionType: TransactionType;
  amountCents: number;
  address: string | null;
  createdAt: number;
};

/**
 * The cancel link's POST: the token names the request and its owner, and the owner cancels it, through the
 * same conditional update as the dashboard's button. Works signed out; a second use finds the row cancelled.
 */
export async function cancelByLink(context: CommandContext, token: string | null): Promise<Outcome> {
  const found = await requestForCancelLink(context.db, context.env.SESSION_SECRET, token);
  if (!found.ok) return { ok: false, error: found.error, status: 410 };
  const { ownerId, ownerEmail, id } = found.request;
  return cancel(context, { id: ownerId, email: ownerEmail }, id, "link");
}
