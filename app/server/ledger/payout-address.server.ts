/**
 * Whether a withdrawal pays out to an address this client was never paid to before: no APPROVED withdrawal of
 * the same client to the same address. Only the client's own approved rows are read (the user/status index),
 * so another client's payouts never make an address familiar.
 */
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

/**
 * As an SQL condition. `row` (a transaction's id and status, as column expressions) is the withdrawal being
 * judged: a decided one is compared with the payouts approved before it; a pending one with every payout so far.
 */
export function neverPaidTo(
  userId: string | SQLWrapper,
  address: string | SQLWrapper,
  row?: { id: SQLWrapper; status: SQLWrapper },
): SQL<boolean> {
  const earlier = row ? sql`AND paid.id <> ${row.id} AND (${row.status} = 'pending' OR paid.id < ${row.id})` : sql``;
  return sql<boolean>`NOT EXISTS (SELECT 1 FROM transactions paid
    WHERE paid.user_id = ${userId} AND paid.status = 'approved' AND paid.transaction_type = 'withdraw'
      AND paid.withdrawal_wallet_address = ${address} ${earlier})`;
}
