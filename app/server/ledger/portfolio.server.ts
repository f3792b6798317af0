/**
 * What /portfolio, the dashboard's chart and the client page's Positions read (docs/product.md, "Portfolio"): the
 * signed sums per month (`ledger_months`) and per day (`ledger_days`), and each stock's approved deposits, all
 * bounded reads that cost the same for a long history as for a short one. The signs come from the rules table.
 */
import { and, asc, eq, gte, lte, sql } from "drizzle-orm";
import { approvedWeightSql } from "~/lib/money/rules";
import {
  balancePoints,
  dayOf,
  firstDayToRead,
  type MovementSums,
  monthResults,
  type PortfolioRange,
} from "~/lib/portfolio";
import { findStock } from "~/lib/stocks";
import type { Db } from "../db.server";
import { readTogether, schema } from "../db.server";

const { ledgerMonths, ledgerDays, ledgerTotals } = schema;

const BALANCE_WEIGHT = sql.raw(approvedWeightSql("ledgerBalance"));
const RESULT_WEIGHT = sql.raw(approvedWeightSql("totalProfit"));

/** Each month's signed balance change and profit minus loss, oldest first: one row per month, at most. */
function monthSumsQuery(db: Db, userId: string) {
  return db
    .select({
      month: ledgerMonths.month,
      net: sql<number>`sum(${ledgerMonths.cents} * ${BALANCE_WEIGHT})`,
      result: sql<number>`sum(${ledgerMonths.cents} * ${RESULT_WEIGHT})`,
    })
    .from(ledgerMonths)
    .where(eq(ledgerMonths.userId, userId))
    .groupBy(ledgerMonths.month)
    .orderBy(asc(ledgerMonths.month));
}

/** Each day's signed balance change from `firstDay` to `lastDay`, oldest first. */
function daySumsQuery(db: Db, userId: string, firstDay: string, lastDay: string) {
  return db
    .select({ day: ledgerDays.day, net: sql<number>`sum(${ledgerDays.cents} * ${BALANCE_WEIGHT})` })
    .from(ledgerDays)
    .where(and(eq(ledgerDays.userId, userId), gte(ledgerDays.day, firstDay), lte(ledgerDays.day, lastDay)))
    .groupBy(ledgerDays.day)
    .orderBy(asc(ledgerDays.day));
}

/** The reads behind a range's line and bars, to put in a page's batch; `balanceHistoryOf` turns them into both. */
export function balanceHistoryReads(db: Db, userId: string, range: PortfolioRange, now = Date.now()) {
  const today = dayOf(now);
  return {
    monthSums: monthSumsQuery(db, userId),
    daySums: daySumsQuery(db, userId, firstDayToRead(range, today), today),
  };
}

type Sums = { monthSums: MovementSums["months"]; daySums: MovementSums["days"] };

export function balanceHistoryOf({ monthSums, daySums }: Sums, range: PortfolioRange, now = Date.now()) {
  const today = dayOf(now);
  const sums: MovementSums = {
    months: monthSums.map((m) => ({ month: m.month, net: Number(m.net), result: Number(m.result) })),
    days: daySums.map((d) => ({ day: d.day, net: Number(d.net) })),
  };
  return {
    points: balancePoints(range, today, sums),
    results: monthResults(range, today, sums),
    // The ledger balance now: every month's change.
    balanceCents: sums.months.reduce((sum, m) => sum + m.net, 0),
  };
}

/**
 * The first or last time one of the row's stock's approved deposits moved money: the expression of the index
 * `transactions_user_stock_moved_idx`. The outer row's columns are named with their table, as drizzle leaves a
 * single table's columns bare (which inside the subquery would name the transaction's own).
 */
const stockMovedAt = (edge: "min" | "max") =>
  sql<number>`(SELECT ${sql.raw(edge)}(coalesce(decided_at, created_at)) FROM transactions
    WHERE user_id = ledger_totals.user_id AND stock = ledger_totals.stock
      AND status = 'approved' AND transaction_type = 'stock_deposit')`;

/** The client's rows of `ledger_totals` that hold their stocks: approved stock deposits, one row per stock. */
export function approvedStockTotals(userId: string) {
  return and(
    eq(ledgerTotals.userId, userId),
    eq(ledgerTotals.status, "approved"),
    eq(ledgerTotals.transactionType, "stock_deposit"),
  );
}

/**
 * Each stock's approved deposits: sum and count from `ledger_totals`, the first and last from the index of
 * approved stock deposits by stock (one step each, however many there are).
 */
export function positionRowsQuery(db: Db, userId: string) {
  return db
    .select({
      stock: ledgerTotals.stock,
      cents: ledgerTotals.cents,
      count: ledgerTotals.count,
      firstAt: stockMovedAt("min"),
      lastAt: stockMovedAt("max"),
    })
    .from(ledgerTotals)
    .where(approvedStockTotals(userId))
    .orderBy(asc(ledgerTotals.stock));
}

export type PositionRow = Awaited<ReturnType<typeof positionRowsQuery>>[number];

export interface Position {
  symbol: string;
  /** The watchlist's name and illustrative price; null for a stock the watchlist does not list. */
  name: string | null;
  priceUsd: number | null;
  cents: number;
  count: number;
  firstAt: number;
  lastAt: number;
  /** The stock's approved deposits over the ledger balance, in percent; null while the balance is 0 or less. */
  sharePercent: number | null;
}

/** Positions, largest first: each stock with its share of the client's ledger balance and the watchlist's price. */
export function positionsOf(rows: PositionRow[], balanceCents: number): Position[] {
  return rows
    .filter((row) => row.count > 0)
    .map((row) => {
      const stock = findStock(row.stock);
      return {
        symbol: row.stock,
        name: stock?.name ?? null,
        priceUsd: stock?.price ?? null,
        cents: Number(row.cents),
        count: Number(row.count),
        firstAt: Number(row.firstAt),
        lastAt: Number(row.lastAt),
        sharePercent: balanceCents > 0 ? Math.round((1000 * Number(row.cents)) / balanceCents) / 10 : null,
      };
    })
    .sort((a, b) => b.cents - a.cents || a.symbol.localeCompare(b.symbol));
}

/** Everything /portfolio shows, in one round trip. */
export async function portfolioData(db: Db, userId: string, range: PortfolioRange, now = Date.now()) {
  const { monthSums, daySums, positions } = await readTogether(db, {
    ...balanceHistoryReads(db, userId, range, now),
    positions: positionRowsQuery(db, userId),
  });
  const history = balanceHistoryOf({ monthSums, daySums }, range, now);
  return { ...history, positions: positionsOf(positions, history.balanceCents) };
}
