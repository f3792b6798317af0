/**
 * /admin/transactions: every client's transactions, newest first, filtered, a keyset page at a time, and the
 * same view as a streamed CSV.
 *
 * Which index (EXPLAIN QUERY PLAN on the bench's 200,000 rows): unfiltered, or filtered by type or date, the rows
 * come off transactions_recent_idx (created_at, id) in page order; a status filter (the 'Pending only' view) walks
 * transactions_status_recent_idx (status, created_at, id); a reference is one row of the primary key. No temp
 * B-tree: a page stops after 51 rows. A Client or amount filter whose rows are few is read off its own index and
 * sorted instead (transaction-reads.server.ts); the clients are found through the client search's index.
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { AdminTransactionFilters } from "~/lib/admin-transaction-filters";
import { typeLabel } from "~/lib/labels";
import { displayName } from "~/lib/person-name";
import { transactionReference } from "~/lib/reference";
import type { VerificationStatus } from "../../../db/enums";
import { CSV_PAGE_SIZE, csvStream, moneyCells } from "../csv.server";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import {
  HISTORY_PAGE_SIZE,
  type HistoryPosition,
  historyColumns,
  historyConditions,
  historyPage,
  historyPageClauses,
} from "../ledger/history.server";
import type { Keyset } from "../paging.server";
import { levelOf, liveCaseStatusSql } from "../verification/level-lists.server";
import {
  amountFilter,
  clientFilter,
  sortedReadOrder,
  sortedReadPage,
  type TransactionsRead,
  transactionsReadOf,
} from "./transaction-reads.server";

const { transactions, users, profiles } = schema;

export function adminTransactionConditions(filters: AdminTransactionFilters, read: TransactionsRead): SQL | undefined {
  return historyConditions({
    filters,
    extra: and(filters.client ? clientFilter(filters.client, read) : undefined, amountFilter(filters, read)),
  });
}

/** One page of the view (exported for the query-plan tests). */
export function adminTransactionsQuery(
  db: Db,
  filters: AdminTransactionFilters,
  read: TransactionsRead,
  position: HistoryPosition,
  limit: number,
) {
  const { cursor, orderBy, backwards } = historyPageClauses(position);
  const conditions = adminTransactionConditions(filters, read);
  return db
    .select({
      ...historyColumns,
      email: users.email,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      // The client's level, only where it decides something: beside a pending withdrawal.
      caseStatus: sql<VerificationStatus | null>`CASE WHEN ${transactions.status} = 'pending'
        AND ${transactions.transactionType} = 'withdraw' THEN ${liveCaseStatusSql(transactions.userId)} END`.as(
        "case_status",
      ),
      registeredAt: sql<number>`${users.createdAt}`.as("registered_at"),
      // The Watch flag, beside a pending withdrawal only: one look-up of the flags' primary key per such row.
      watched: sql<number | null>`CASE WHEN ${transactions.status} = 'pending'
        AND ${transactions.transactionType} = 'withdraw' THEN EXISTS (SELECT 1 FROM client_flags
        WHERE user_id = ${transactions.userId} AND flag = 'watch') END`.as("watched"),
    })
    .from(transactions)
    .innerJoin(users, eq(users.id, transactions.userId))
    .leftJoin(profiles, eq(profiles.userId, transactions.userId))
    .where(read === "walk" ? and(conditions, cursor) : sortedReadPage(read, conditions, position, limit))
    .orderBy(...(read === "walk" ? orderBy : [sortedReadOrder(backwards)]))
    .limit(limit);
}

type AdminTransactionRow = Awaited<ReturnType<typeof adminTransactionsQuery>>[number];

const toRow = (r: AdminTransactionRow, introducedAt: number) => ({
  // The page derives the reference from the id: sending both would put it in the page's data for nothing.
  id: r.id,
  userId: r.userId,
  client: displayName(r.firstName, r.lastName, r.email),
  transactionType: r.transactionType,
  amountCents: r.amountCents,
  tradingPair: r.tradingPair,
  stock: r.stock,
  status: r.status,
  createdAt: r.createdAt,
  level:
    r.status === "pending" && r.transactionType === "withdraw"
      ? levelOf({ caseStatus: r.caseStatus, createdAt: r.registeredAt }, Date.now(), introducedAt)
      : null,
  watched: Boolean(r.watched),
});

/** One page of the view; `introducedAt` (VERIFICATION_INTRODUCED_AT) places the deadline of the level shown. */
export async function adminTransactionsPage(
  db: Db,
  filters: AdminTransactionFilters,
  position: HistoryPosition,
  introducedAt: number,
) {
  const read = await transactionsReadOf(db, filters);
  const rows = await adminTransactionsQuery(db, filters, read, position, HISTORY_PAGE_SIZE + 1);
  const page = historyPage(rows, position);
  return { ...page, rows: page.rows.map((row) => toRow(row, introducedAt)) };
}

/** The filtered view as CSV, newest first, streamed a keyset page at a time. */
export function adminTransactionsCsv(db: Db, filters: AdminTransactionFilters): ReadableStream<Uint8Array> {
  let read: Promise<TransactionsRead> | undefined;
  return csvStream<AdminTransactionRow, Keyset>({
    header: [
      "Reference",
      "Date (UTC)",
      "Client",
      "E-mail",
      "Type",
      "Pair/Stock",
      "Direction",
      "Amount (USD)",
      "Status",
    ],
    readPage: async (after, limit) => {
      read ??= transactionsReadOf(db, filters);
      return adminTransactionsQuery(db, filters, await read, { after }, limit);
    },
    keyOf: (row) => ({ createdAt: row.createdAt, id: row.id }),
    cells: (row) => [
      transactionReference(row.id),
      new Date(row.createdAt).toISOString(),
      displayName(row.firstName, row.lastName, row.email),
      row.email,
      typeLabel(row.transactionType),
      row.tradingPair ?? row.stock ?? "",
      ...moneyCells(row.transactionType, row.amountCents),
      row.status,
    ],
    pageSize: CSV_PAGE_SIZE,
  });
}
