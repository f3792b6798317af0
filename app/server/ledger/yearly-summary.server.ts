/**
 * A year's summary (/statements/year/{year}): for each month of the year the account was open, the money that moved
 * by kind and the closing balance, and the same for the year. Read from `ledger_months` (approved cents per client, type and the
 * UTC month the money moved) plus the year's opening balance, the monthly statement's own `openingQuery`: so each
 * month's closing balance is its statement's, and the cost does not grow with the history. Then the year's realized
 * gains by stock, from the sales and the lots they closed (FIFO).
 */
import { and, eq, gte, lte } from "drizzle-orm";
import { emptyTotals, type FigureName, figure } from "~/lib/money/rules";
import { realizedTotal } from "~/lib/realized-gains";
import { FIRST_STATEMENT_YEAR, YEAR_PATTERN } from "~/lib/statement-month";
import type { SummaryFigures } from "~/lib/yearly-summary";
import type { TransactionType } from "../../../db/enums";
import { type Db, readTogether, schema } from "../db.server";
import { realizedGainsQuery } from "../positions/reads.server";
import { holderName, openingQuery, type PeriodRefusal } from "./statements.server";

const { ledgerMonths, profiles, users } = schema;

export interface SummaryYear {
  year: string;
  start: number;
  end: number;
}

export function parseSummaryYear(input: string, now = Date.now()): SummaryYear | PeriodRefusal {
  if (!YEAR_PATTERN.test(input)) return "malformed";
  const year = Number(input);
  if (year < FIRST_STATEMENT_YEAR) return "early";
  const start = Date.UTC(year, 0, 1);
  if (start > now) return "future";
  return { year: input, start, end: Date.UTC(year + 1, 0, 1) };
}

/**
 * The summary's columns, each a sum of figures of the rules table over the month's approved rows: deposits (plain
 * and stock), fee deposits, withdrawals, profit less loss. With the opening balance they make the closing one.
 */
const COLUMNS = {
  depositsCents: ["plainDeposits", "stockBalance"],
  feeDepositsCents: ["feeDeposits"],
  withdrawalsCents: ["withdrawals"],
  profitAndLossCents: ["totalProfit"],
} as const satisfies Record<string, readonly FigureName[]>;

type Column = keyof typeof COLUMNS;
export type SummaryMonth = SummaryFigures & { month: string };

/**
 * The summary's first month (0 is January): the month the account was opened in its first year, January after it,
 * and none (12) in a year before it. Money recorded as moved earlier than the opening (rows written with earlier
 * dates, as an import may) brings the start back to it, so that the months still add up to the year's figures.
 */
function firstMonthIndex(year: number, openedAt: number, openingCents: number, movedMonths: string[]): number {
  const opened = new Date(openedAt);
  const openedYear = opened.getUTCFullYear();
  let first = openedYear < year || openingCents !== 0 ? 0 : openedYear > year ? 12 : opened.getUTCMonth();
  for (const month of movedMonths) first = Math.min(first, Number(month.slice(5, 7)) - 1);
  return first;
}

export async function yearlySummary(db: Db, client: { id: string; email: string }, year: SummaryYear, now: number) {
  // The realized gains are a raw read, which a batch cannot carry: it runs beside the batch.
  const [{ account, profile, opening, rows }, gains] = await Promise.all([
    readTogether(db, {
      account: db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, client.id)).limit(1),
      profile: db
        .select({ firstName: profiles.firstName, lastName: profiles.lastName })
        .from(profiles)
        .where(eq(profiles.userId, client.id))
        .limit(1),
      opening: openingQuery(db, client.id, `${year.year}-01`),
      rows: db
        .select({
          month: ledgerMonths.month,
          type: ledgerMonths.transactionType,
          count: ledgerMonths.count,
          cents: ledgerMonths.cents,
        })
        .from(ledgerMonths)
        .where(
          and(
            eq(ledgerMonths.userId, client.id),
            gte(ledgerMonths.month, `${year.year}-01`),
            lte(ledgerMonths.month, `${year.year}-12`),
          ),
        ),
    }),
    realizedGainsQuery(db, client.id, year.start, year.end),
  ]);
  const openingCents = Number(opening[0]?.cents ?? 0);
  const movedMonths = rows.filter((row) => row.count > 0).map((row) => row.month);
  const first = firstMonthIndex(Number(year.year), account[0]?.createdAt ?? year.start, openingCents, movedMonths);
  let balance = openingCents;
  const months: SummaryMonth[] = [];
  for (let index = first; index < 12 && Date.UTC(Number(year.year), index, 1) <= now; index++) {
    const month = `${year.year}-${String(index + 1).padStart(2, "0")}`;
    const totals = emptyTotals();
    for (const row of rows) {
      if (row.month === month) totals.approved[row.type as TransactionType] = { count: row.count, cents: row.cents };
    }
    const movedCents = figure(totals, "ledgerBalance");
    balance += movedCents;
    const columns = Object.fromEntries(
      Object.entries(COLUMNS).map(([column, names]) => [
        column,
        names.reduce((sum, name) => sum + figure(totals, name), 0),
      ]),
    ) as Record<Column, number>;
    months.push({ month, ...columns, movedCents, closingCents: balance });
  }
  const sum = (key: keyof SummaryFigures) => months.reduce((total, month) => total + month[key], 0);
  return {
    year: year.year,
    periodStart: year.start,
    periodEnd: Math.min(year.end, now + 1) - 1,
    accountId: client.id,
    email: client.email,
    holder: holderName(profile[0], client.email),
    openingCents,
    months,
    total: {
      depositsCents: sum("depositsCents"),
      feeDepositsCents: sum("feeDepositsCents"),
      withdrawalsCents: sum("withdrawalsCents"),
      profitAndLossCents: sum("profitAndLossCents"),
      movedCents: sum("movedCents"),
      closingCents: balance,
    } satisfies SummaryFigures,
    realizedGains: gains,
    realizedTotal: realizedTotal(gains),
  };
}

export type YearlySummary = Awaited<ReturnType<typeof yearlySummary>>;
