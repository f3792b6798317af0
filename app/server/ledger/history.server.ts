/**
 * One page of a transaction history, newest first, filtered, by keyset on (created_at, id): forwards goes to
 * older rows (`after` a cursor), backwards to newer ones (`before` a cursor) so Previous needs no stack of
 * cursors. A page reads at most 51 rows of one index range, so it costs the same on the first page of a new
 * client and deep in the history of a client with 20,000 rows.
 *
 * Which index: every condition is an equality on the leading columns of one of the indexes on
 * transactions followed by the (created_at, id) order, so SQLite walks the index in order and stops after
 * the page (no temp B-tree for the ORDER BY):
 *   - a type filter: transactions_user_type_recent_idx (user_id, transaction_type, created_at, id);
 *   - a status filter: transactions_user_status_recent_idx (user_id, status, created_at, id);
 *   - neither: transactions_user_recent_idx (user_id, created_at, id);
 *   - a reference: the primary key (one row).
 * The admin's all-clients view calls this with no user id and its own `extra` conditions; its indexes are its
 * own concern.
 */
import { and, eq, gte, lt, type SQL } from "drizzle-orm";
import type { SQLiteSelect } from "drizzle-orm/sqlite-core";
import { type HistoryFilters, historyReferenceId, historyTimeRange, parseHistoryFilters } from "~/lib/history-filters";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import {
  afterCursor,
  createdAtCursor,
  type Keyset,
  type KeysetPage,
  keysetOrderBy,
  keysetPage,
  type PagePosition,
  parseCursor,
  readsBackwards,
} from "../paging.server";
import { feedColumns } from "./reads.server";

const { transactions } = schema;

export const HISTORY_PAGE_SIZE = 50;

const transactionKeyset = { createdAt: transactions.createdAt, id: transactions.id };

/** Where a page starts: the first page, older than a row (Next), or newer than a row (Previous). */
export type HistoryPosition = PagePosition<Keyset>;

/** The filters and page a URL asks for; a bad filter drops every filter and the cursor (the first page). */
export function historyRequest(url: URL) {
  const parsed = parseHistoryFilters(url.searchParams);
  const position: HistoryPosition =
    parsed.errors.length > 0
      ? {}
      : { after: parseCursor(url.searchParams.get("after")), before: parseCursor(url.searchParams.get("before")) };
  return { ...parsed, position };
}

export interface HistoryQuery {
  filters: HistoryFilters;
  /** One client's rows; omitted only by a caller that narrows the rows itself (the admin's view). */
  userId?: string;
  /** The caller's own conditions, ANDed with the filters. */
  extra?: SQL;
}

/** The WHERE of a history (without the page's cursor), for callers that select their own columns. */
export function historyConditions({ filters, userId, extra }: HistoryQuery): SQL | undefined {
  const { fromMs, beforeMs } = historyTimeRange(filters);
  const referenceId = historyReferenceId(filters);
  return and(
    userId === undefined ? undefined : eq(transactions.userId, userId),
    filters.type ? eq(transactions.transactionType, filters.type) : undefined,
    filters.status ? eq(transactions.status, filters.status) : undefined,
    fromMs === undefined ? undefined : gte(transactions.createdAt, fromMs),
    beforeMs === undefined ? undefined : lt(transactions.createdAt, beforeMs),
    referenceId === undefined ? undefined : eq(transactions.id, referenceId),
    extra,
  );
}

/**
 * The cursor condition and the order of one page read: backwards reads the rows just newer than `before`
 * oldest first (the index walked the other way), and `historyPage` turns them back to newest first.
 */
export function historyPageClauses(position: HistoryPosition) {
  const backwards = readsBackwards(position);
  return {
    backwards,
    cursor: backwards
      ? afterCursor(transactionKeyset, position.before ?? undefined, "oldest")
      : afterCursor(transactionKeyset, position.after ?? undefined, "newest"),
    orderBy: keysetOrderBy(transactionKeyset, backwards ? "oldest" : "newest"),
  };
}

/** The columns of a history row: what the lists show (the reference is derived from the id). */
export const historyColumns = feedColumns;

/**
 * One page of a select of `transactions` (`pageSize + 1` rows read, to know whether there is more), whatever
 * columns it reads: the history's own, or more where a page shows more (the client's History, an entry's memo).
 */
export function onHistoryPage<Select extends SQLiteSelect>(
  select: Select,
  query: HistoryQuery,
  position: HistoryPosition = {},
  pageSize = HISTORY_PAGE_SIZE,
) {
  const { cursor, orderBy } = historyPageClauses(position);
  return select
    .where(and(historyConditions(query), cursor))
    .orderBy(...orderBy)
    .limit(pageSize + 1);
}

/** One page of rows with the history's columns, for `readTogether` or await. */
export function historyPageQuery(
  db: Db,
  query: HistoryQuery,
  position: HistoryPosition = {},
  pageSize = HISTORY_PAGE_SIZE,
) {
  return onHistoryPage(db.select(historyColumns).from(transactions).$dynamic(), query, position, pageSize);
}

export type HistoryPage<Row> = KeysetPage<Row>;

/** The page the rows of `historyPageQuery` (or a caller's own select with `historyPageClauses`) make. */
export function historyPage<Row extends Keyset>(
  rows: Row[],
  position: HistoryPosition,
  pageSize = HISTORY_PAGE_SIZE,
): HistoryPage<Row> {
  return keysetPage(rows, position, pageSize, createdAtCursor);
}

/** A page of one client's history in one read. */
export async function readHistoryPage(db: Db, query: HistoryQuery, position: HistoryPosition = {}) {
  return historyPage(await historyPageQuery(db, query, position), position);
}
