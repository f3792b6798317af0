/**
 * Which index a filtered view of /admin/transactions reads, so that a Client or amount filter (min, max) does not
 * walk the whole history. The list is newest first, and no one index gives both a client's or an amount range's
 * rows and that order, so each view takes one of three reads:
 *
 * - "client": the named clients hold at most SORTED_READ_LIMIT rows; the page is chosen among them off
 *   transactions_user_recent_idx (user_id, created_at, id) and sorted;
 * - "amount": the amount range holds at most that many; the page is chosen among them off
 *   transactions_amount_recent_idx (amount_cents, created_at, id) and sorted;
 * - "walk": both are wider (or no such filter is set): the history is walked newest first
 *   (transactions_recent_idx, or transactions_status_recent_idx with a status), those filters checked on the way;
 *   more than SORTED_READ_LIMIT rows match, so a page of 51 fills after about 51 × (rows / matches) rows.
 *
 * One statement decides, counting each filter's rows off its index, at most SORTED_READ_LIMIT + 1 entries each.
 * A filter not driving the read is written `+column`, which SQLite cannot serve from an index.
 */
import { and, type SQL, sql } from "drizzle-orm";
import type { AdminTransactionFilters } from "~/lib/admin-transaction-filters";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import type { HistoryPosition } from "../ledger/history.server";
import { readsBackwards } from "../paging.server";
import { clientSearchIds } from "./client-search.server";

const { transactions } = schema;

/** Sorting this many rows costs about what a walk of 51 × (history / this) rows does at ten times our size. */
export const SORTED_READ_LIMIT = 5_000;

export type SortedRead = "client" | "amount";
export type TransactionsRead = SortedRead | "walk";

/** The index a sorted read chooses its page from, named so that no walk in page order is preferred to it. */
const SORTED_READ_INDEX: Record<SortedRead, SQL> = {
  client: sql.raw("transactions_user_recent_idx"),
  amount: sql.raw("transactions_amount_recent_idx"),
};

const hasAmount = (filters: AdminTransactionFilters) =>
  filters.minCents !== undefined || filters.maxCents !== undefined;

/** How many rows, up to SORTED_READ_LIMIT + 1, the condition keeps, counted off the read's index. */
const boundedCount = (read: SortedRead, where: SQL | undefined) =>
  sql`(SELECT count(*) FROM (SELECT 1 FROM transactions INDEXED BY ${SORTED_READ_INDEX[read]} WHERE ${where}
    LIMIT ${SORTED_READ_LIMIT + 1}))`;

/** One bounded count per filter set, in one statement; the narrower filter (the client first) drives. */
export async function transactionsReadOf(db: Db, filters: AdminTransactionFilters): Promise<TransactionsRead> {
  if (!filters.client && !hasAmount(filters)) return "walk";
  const client = filters.client ? boundedCount("client", clientFilter(filters.client, "client")) : sql`NULL`;
  const amount = hasAmount(filters) ? boundedCount("amount", amountFilter(filters, "amount")) : sql`NULL`;
  const counts = await db.get<{ client: number | null; amount: number | null }>(
    sql`SELECT ${client} AS client, ${amount} AS amount`,
  );
  if (counts.client !== null && counts.client <= SORTED_READ_LIMIT) return "client";
  if (counts.amount !== null && counts.amount <= SORTED_READ_LIMIT) return "amount";
  return "walk";
}

/** The rows of the clients the text names (client search: name or e-mail, any part, any case). */
export function clientFilter(client: string, read: TransactionsRead): SQL {
  const userId = read === "client" ? sql`${transactions.userId}` : sql`+${transactions.userId}`;
  return sql`${userId} IN (${clientSearchIds(client)})`;
}

/** The rows whose amount is within min and max (both included), or undefined with neither. */
export function amountFilter(filters: AdminTransactionFilters, read: TransactionsRead): SQL | undefined {
  const { minCents, maxCents } = filters;
  const amount = read === "amount" ? sql`${transactions.amountCents}` : sql`+${transactions.amountCents}`;
  if (minCents !== undefined && maxCents !== undefined) return sql`${amount} BETWEEN ${minCents} AND ${maxCents}`;
  if (minCents !== undefined) return sql`${amount} >= ${minCents}`;
  return maxCents === undefined ? undefined : sql`${amount} <= ${maxCents}`;
}

/**
 * A sorted read's page: its ids chosen off the read's index (the filter's rows, at most SORTED_READ_LIMIT, each
 * checked against the view's other filters and the cursor, sorted, the page's limit taken); the outer statement
 * then reads those rows by primary key. The cursor is a row value here: its OR form would let SQLite read the
 * named index once per term, whole.
 */
export function sortedReadPage(read: SortedRead, where: SQL | undefined, position: HistoryPosition, limit: number) {
  const backwards = readsBackwards(position);
  const at = backwards ? position.before : position.after;
  const keyset = sql`(${transactions.createdAt}, ${transactions.id})`;
  const cursor = at ? sql`${keyset} ${sql.raw(backwards ? ">" : "<")} (${at.createdAt}, ${at.id})` : undefined;
  const order = sql.raw(backwards ? "ASC" : "DESC");
  return sql`${transactions.id} IN (SELECT ${transactions.id} FROM transactions INDEXED BY ${SORTED_READ_INDEX[read]}
    WHERE ${and(where, cursor) ?? sql`1`}
    ORDER BY ${transactions.createdAt} ${order}, ${transactions.id} ${order} LIMIT ${limit})`;
}

/** A sorted read's outer order: `+` so that it sorts its few rows rather than walk an index in page order. */
export const sortedReadOrder = (backwards: boolean): SQL =>
  backwards
    ? sql`+${transactions.createdAt} ASC, +${transactions.id} ASC`
    : sql`+${transactions.createdAt} DESC, +${transactions.id} DESC`;
