/**
 * What the client pages read from the ledger: the dashboard in one round trip, the firm's deposit wallets,
 * and the transaction lists, each a bounded index range (never the client's whole history).
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { summarize, type TransactionStatus, type TransactionType } from "~/lib/ledger";
import { type FeedTransaction, feedTransactionColumns } from "~/lib/realtime";
import { accountQuery } from "../accounts.server";
import type { Db } from "../db.server";
import { readTogether, schema } from "../db.server";
import { afterCursor, type Keyset, type KeysetOrder, keysetOrderBy } from "../paging.server";
import { openPositionsQuery } from "../positions/reads.server";
import { ledgerTotalsQuery, totalsOf } from "./figures.server";
import { approvedStockTotals, balanceHistoryOf, balanceHistoryReads } from "./portfolio.server";

const { transactions, depositWallets, ledgerTotals: totalsTable } = schema;

/** A transaction as the feeds carry it and the lists show it: one definition for selects and RETURNING. */
export const feedColumns = feedTransactionColumns(transactions);

/** The same columns for the RETURNING clause of a hand-written statement, named as in `FeedTransaction`. */
export const FEED_RETURNING = sql.raw(
  Object.entries(feedColumns)
    .map(([key, column]) => `${column.name} AS "${key}"`)
    .join(", "),
);

/**
 * A transaction as a list of one client's rows shows it: the feed's columns without the owner, who is the list's
 * client (an unused column would be sent to the browser twice, in the HTML and in the data beside it).
 */
export const listColumns = withoutOwner(feedColumns);

function withoutOwner<Columns extends { userId: unknown }>({ userId: _owner, ...columns }: Columns) {
  return columns;
}
/** Whether the client made the row themselves: only then may they cancel it (see `offersCancel`). */
export const madeByClient = sql<boolean>`(${transactions.createdBy} IS ${transactions.userId})`.mapWith(Boolean);

type LedgerListRow = Omit<FeedTransaction, "userId">;

const byNewest = (a: LedgerListRow, b: LedgerListRow) => b.createdAt - a.createdAt || b.id - a.id;
const transactionKeyset = { createdAt: transactions.createdAt, id: transactions.id };

export function latestWithStatus(db: Db, userId: string, status: TransactionStatus, limit: number, cursor?: Keyset) {
  return db
    .select(listColumns)
    .from(transactions)
    .where(
      and(
        eq(transactions.userId, userId),
        eq(transactions.status, status),
        afterCursor(transactionKeyset, cursor, "newest"),
      ),
    )
    .orderBy(...keysetOrderBy(transactionKeyset, "newest"))
    .limit(limit);
}

/** A client's pending rows, newest first, each saying whether the client made it (and so may cancel it). */
export function latestPending(db: Db, userId: string, limit: number) {
  return db
    .select({ ...listColumns, madeByClient })
    .from(transactions)
    .where(and(eq(transactions.userId, userId), eq(transactions.status, "pending")))
    .orderBy(...keysetOrderBy(transactionKeyset, "newest"))
    .limit(limit);
}

/** A client's rows of one type (optionally narrowed by `extra`), newest first or oldest first. */
export function ofType(
  db: Db,
  userId: string,
  type: TransactionType,
  limit: number,
  extra?: SQL,
  order: KeysetOrder = "newest",
) {
  return db
    .select(listColumns)
    .from(transactions)
    .where(and(eq(transactions.userId, userId), eq(transactions.transactionType, type), extra))
    .orderBy(...keysetOrderBy(transactionKeyset, order))
    .limit(limit);
}

/** Approved stock deposits grouped by stock (the dashboard's and the admin's Stocks lists). */
export function approvedStocks(db: Db, userId: string) {
  return db
    .select({ stock: totalsTable.stock, cents: totalsTable.cents, count: totalsTable.count })
    .from(totalsTable)
    .where(approvedStockTotals(userId))
    .orderBy(totalsTable.stock);
}

/**
 * Everything the dashboard shows, in one round trip and without reading the client's whole history: the
 * account (with the profile's trades and win rate), totals from `ledger_totals`, each list a bounded index
 * range (small ranges merged where a list spans several statuses or types), and the last 30 days' balances from
 * the per-month and per-day projections.
 */
export async function dashboardData<Also extends Record<string, BatchItem<"sqlite">> = Record<never, never>>(
  db: Db,
  userId: string,
  // Another module's reads for the same page, answered in this batch: each D1 round trip costs the Worker
  // about as much CPU as a small statement's whole run.
  also: Also = {} as Also,
  listSize = 5,
  now = Date.now(),
) {
  const {
    account,
    totals,
    recent,
    openPositions,
    pending,
    rejected,
    cancelled,
    stocks,
    monthSums,
    daySums,
    ...alsoRead
  } = await readTogether(db, {
    ...also,
    account: accountQuery(db, userId),
    totals: ledgerTotalsQuery(db, userId),
    recent: latestWithStatus(db, userId, "approved", listSize + 1),
    // The client's open positions (docs/product.md, "Orders and positions"), newest first.
    openPositions: openPositionsQuery(db, userId, listSize),
    pending: latestPending(db, userId, 10),
    rejected: latestWithStatus(db, userId, "rejected", 10),
    cancelled: latestWithStatus(db, userId, "cancelled", 10),
    stocks: approvedStocks(db, userId),
    ...balanceHistoryReads(db, userId, "30d", now),
  });
  const profile = account[0] ?? null;
  const summary = summarize(totalsOf(totals));
  return {
    account: profile,
    summary: profile?.status
      ? { ...summary, totalTrades: profile.totalTrades ?? 0, winRate: profile.winRate ?? 0 }
      : summary,
    recentActivity: recent.slice(0, listSize),
    hasMoreActivity: recent.length > listSize,
    openPositions,
    pendingAndDeclined: [...pending, ...rejected, ...cancelled].sort(byNewest).slice(0, 10),
    stocks,
    balanceLine: balanceHistoryOf({ monthSums, daySums }, "30d", now).points,
    also: alsoRead,
  };
}

export function listDepositWallets(db: Db) {
  return db
    .select({
      id: depositWallets.id,
      walletType: depositWallets.walletType,
      walletAddress: depositWallets.walletAddress,
    })
    .from(depositWallets)
    .orderBy(depositWallets.walletType);
}
