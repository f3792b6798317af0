/**
 * /admin/transactions: every client's transactions, newest first, filtered, a keyset page at a time, and the
 * same view as a streamed CSV.
 *
 * Which index (EXPLAIN QUERY PLAN on the bench's 200,000 rows): unfiltered, or filtered by type, date, amount
 * or client, the rows come off transactions_recent_idx (created_at, id) in page order; a status filter (the
 * 'Pending only' view) walks transactions_status_recent_idx (status, created_at, id); a reference is one row of
 * the primary key. No temp B-tree: a page stops after 51 rows. The client filter is a sub-select of the matching
 * users (a scan of the clients, not of the transactions).
 */
import { and, eq, gte, lte, type SQL, sql } from "drizzle-orm";
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

const { transactions, users, profiles } = schema;

function clientCondition(client: string): SQL {
  const pattern = `%${client.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  return sql`${transactions.userId} IN (SELECT u.id FROM users u LEFT JOIN profiles p ON p.user_id = u.id
    WHERE u.email LIKE ${pattern} ESCAPE '\\'
       OR lower(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '')) LIKE ${pattern} ESCAPE '\\')`;
}

export function adminTransactionConditions(filters: AdminTransactionFilters): SQL | undefined {
  return historyConditions({
    filters,
    extra: and(
      filters.client ? clientCondition(filters.client) : undefined,
      filters.minCents === undefined ? undefined : gte(transactions.amountCents, filters.minCents),
      filters.maxCents === undefined ? undefined : lte(transactions.amountCents, filters.maxCents),
    ),
  });
}

function adminTransactionsQuery(db: Db, filters: AdminTransactionFilters, position: HistoryPosition, limit: number) {
  const { cursor, orderBy } = historyPageClauses(position);
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
    .where(and(adminTransactionConditions(filters), cursor))
    .orderBy(...orderBy)
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
  const rows = await adminTransactionsQuery(db, filters, position, HISTORY_PAGE_SIZE + 1);
  const page = historyPage(rows, position);
  return { ...page, rows: page.rows.map((row) => toRow(row, introducedAt)) };
}

/** The filtered view as CSV, newest first, streamed a keyset page at a time. */
export function adminTransactionsCsv(db: Db, filters: AdminTransactionFilters): ReadableStream<Uint8Array> {
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
    readPage: (after, limit) => adminTransactionsQuery(db, filters, { after }, limit),
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
