/**
 * The money rules, in one table: what each transaction type and status does to each figure a client or an
 * admin sees (docs/product.md, "Money rules"). Both the TypeScript formulas (`figure`, `summarize`) and the
 * SQL expressions the server puts inside its statements (`figureSql`) are derived from `FIGURES`, and a
 * property test holds them equal on random ledgers. Nothing else in the code base may spell out a sign.
 *
 * What may happen to money (covers, cancelling, step-up, a second admin, the levels' limits) is the sibling table
 * in `constraints.ts`, which builds on this one (never the other way round: no import circle).
 *
 * Only type imports here: Node scripts (seed, bench data) import this file as it is.
 */
import type { TransactionStatus, TransactionType } from "../../../db/enums";

/** A figure is a weighted sum over the client's per-(status, type) totals: cents, or number of rows. */
interface FigureRule {
  measure: "cents" | "count";
  weights: Partial<Record<TransactionStatus, Partial<Record<TransactionType, number>>>>;
}

/**
 * The table. Each row of a figure says, for one status, how much each type counts: +1 adds, -1 takes
 * away, a missing type does not count. Amounts are integer cents.
 */
export const FIGURES = {
  /** The client's ledger balance (the admin's "Balance"): every approved row, signed. */
  ledgerBalance: {
    measure: "cents",
    weights: { approved: { deposit: 1, stock_deposit: 1, fee_deposit: 1, profit: 1, withdraw: -1, loss: -1 } },
  },
  /** Dashboard "Available": a fee deposit is counted in and then out again, so it does not add. */
  available: {
    measure: "cents",
    weights: { approved: { deposit: 1, stock_deposit: 1, profit: 1, withdraw: -1, loss: -1 } },
  },
  /** Dashboard "Gross": Available + approved fee deposits + pending deposits of every kind - pending withdrawals. */
  gross: {
    measure: "cents",
    weights: {
      approved: { deposit: 1, stock_deposit: 1, fee_deposit: 1, profit: 1, withdraw: -1, loss: -1 },
      pending: { deposit: 1, stock_deposit: 1, fee_deposit: 1, withdraw: -1 },
    },
  },
  /**
   * What a client may still ask to withdraw: approved deposit + profit - loss - withdraw, minus the
   * withdrawals already requested and not yet decided, which are reserved.
   */
  withdrawable: {
    measure: "cents",
    weights: {
      approved: { deposit: 1, profit: 1, withdraw: -1, loss: -1 },
      pending: { withdraw: -1 },
    },
  },
  /**
   * What an order may spend before the open positions' cost is reserved (docs/product.md, "Orders and
   * positions"): Available less the withdrawals waiting for a decision, which are reserved too.
   */
  spendable: {
    measure: "cents",
    weights: {
      approved: { deposit: 1, stock_deposit: 1, profit: 1, withdraw: -1, loss: -1 },
      pending: { withdraw: -1 },
    },
  },
  /** What an approval of a withdrawal may take: approved deposit + profit - loss - withdraw. */
  coverable: {
    measure: "cents",
    weights: { approved: { deposit: 1, profit: 1, withdraw: -1, loss: -1 } },
  },
  /** Approved money in, all three deposit types ("Total Withdrawals & Deposits"). */
  deposits: { measure: "cents", weights: { approved: { deposit: 1, stock_deposit: 1, fee_deposit: 1 } } },
  /** Approved money out. */
  withdrawals: { measure: "cents", weights: { approved: { withdraw: 1 } } },
  /** Approved profit - approved loss. */
  totalProfit: { measure: "cents", weights: { approved: { profit: 1, loss: -1 } } },
  /** The admin's "Total Deposits": approved plain deposits. */
  plainDeposits: { measure: "cents", weights: { approved: { deposit: 1 } } },
  /** The admin's "Stock Balance": approved stock deposits. */
  stockBalance: { measure: "cents", weights: { approved: { stock_deposit: 1 } } },
  /** The admin's "Total Fee Deposits": approved fee deposits. */
  feeDeposits: { measure: "cents", weights: { approved: { fee_deposit: 1 } } },
  /**
   * What an unverified client's deposit limit counts: deposits and stock deposits, awaiting a decision or approved
   * (fee deposits are the firm's, never a client's request).
   */
  clientDeposits: {
    measure: "cents",
    weights: { approved: { deposit: 1, stock_deposit: 1 }, pending: { deposit: 1, stock_deposit: 1 } },
  },
  /** Money a client's pending requests would bring in: deposits of every kind awaiting a decision. */
  pendingIn: { measure: "cents", weights: { pending: { deposit: 1, stock_deposit: 1, fee_deposit: 1 } } },
  /** Money a client's pending requests would take out: withdrawals awaiting a decision. */
  pendingOut: { measure: "cents", weights: { pending: { withdraw: 1 } } },
  /** Total Trades: approved profit and loss entries, counted. */
  totalTrades: { measure: "count", weights: { approved: { profit: 1, loss: 1 } } },
  /** Winning trades: approved profit entries, counted (Win Rate's numerator). */
  wins: { measure: "count", weights: { approved: { profit: 1 } } },
} as const satisfies Record<string, FigureRule>;

export type FigureName = keyof typeof FIGURES;

/**
 * How an approved row of each type moves the ledger balance: +1 credits, -1 debits. Read off the table's
 * ledger balance, so the running balance of a statement and a ledger entry's "balance after" use the same
 * signs as every figure.
 */
export const LEDGER_SIGN = FIGURES.ledgerBalance.weights.approved satisfies Record<TransactionType, number>;

export const signedCents = (type: TransactionType, cents: number) => LEDGER_SIGN[type] * cents;
export const isCredit = (type: TransactionType) => LEDGER_SIGN[type] > 0;

/** Whether a request of this type holds money back while it waits (a pending withdrawal lowers what may be withdrawn). */
export const reservesWhilePending = (type: TransactionType) =>
  ((FIGURES.withdrawable.weights.pending as Partial<Record<TransactionType, number>>)[type] ?? 0) < 0;

/* ---------------------------------------------------------------- totals and the TypeScript formulas */

interface Bucket {
  count: number;
  cents: number;
}
export type LedgerTotals = Record<TransactionStatus, Record<TransactionType, Bucket>>;

const STATUSES: readonly TransactionStatus[] = ["pending", "approved", "rejected", "cancelled"];
const TYPES = Object.keys(LEDGER_SIGN) as TransactionType[];

export function emptyTotals(): LedgerTotals {
  const byType = () =>
    Object.fromEntries(TYPES.map((type) => [type, { count: 0, cents: 0 }])) as Record<TransactionType, Bucket>;
  return Object.fromEntries(STATUSES.map((status) => [status, byType()])) as LedgerTotals;
}

export interface LedgerRow {
  transactionType: TransactionType;
  status: TransactionStatus;
  amountCents: number;
}

/** The totals of a list of rows: the reference the SQL aggregate is tested against. */
export function totalsFromRows(rows: Iterable<LedgerRow>): LedgerTotals {
  const totals = emptyTotals();
  for (const row of rows) {
    const bucket = totals[row.status][row.transactionType];
    bucket.count += 1;
    bucket.cents += row.amountCents;
  }
  return totals;
}

function weightedTerms(rule: FigureRule): Array<[TransactionStatus, TransactionType, number]> {
  return Object.entries(rule.weights).flatMap(([status, byType]) =>
    Object.entries(byType ?? {}).map(
      ([type, weight]) => [status, type, weight] as [TransactionStatus, TransactionType, number],
    ),
  );
}

/** One figure of the table, computed from totals. */
export function figure(totals: LedgerTotals, name: FigureName): number {
  const rule: FigureRule = FIGURES[name];
  return weightedTerms(rule).reduce(
    (sum, [status, type, weight]) => sum + weight * totals[status][type][rule.measure],
    0,
  );
}

/**
 * Win Rate: winning trades over all trades, as a percentage with one decimal; 0 when there are none.
 * Written as round(1000 * wins / trades) / 10 so that SQL (`winRateSql`) does the same arithmetic.
 */
export function winRateOf(wins: number, trades: number): number {
  return trades === 0 ? 0 : Math.round((1000 * wins) / trades) / 10;
}

export interface LedgerSummary {
  ledgerBalance: number;
  available: number;
  gross: number;
  withdrawable: number;
  totalTrades: number;
  winRate: number;
  totalProfit: number;
  deposits: number;
  withdrawals: number;
}

/** Every figure the dashboard shows. */
export function summarize(t: LedgerTotals): LedgerSummary {
  const totalTrades = figure(t, "totalTrades");
  return {
    ledgerBalance: figure(t, "ledgerBalance"),
    available: figure(t, "available"),
    gross: figure(t, "gross"),
    withdrawable: figure(t, "withdrawable"),
    totalTrades,
    winRate: winRateOf(figure(t, "wins"), totalTrades),
    totalProfit: figure(t, "totalProfit"),
    deposits: figure(t, "deposits"),
    withdrawals: figure(t, "withdrawals"),
  };
}

/* ---------------------------------------------------------------- the SQL expressions */

const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * The weighted sum of one figure over rows of `ledger_totals` (columns status, transaction_type, count,
 * cents), as an SQL aggregate: `sum(cents * CASE … END)`. Only constants of the table appear in it, so it
 * is safe to splice into a statement whose values are bound.
 */
export function figureAggregateSql(name: FigureName): string {
  const rule: FigureRule = FIGURES[name];
  const cases = weightedTerms(rule)
    .map(
      ([status, type, weight]) => `WHEN status = ${quote(status)} AND transaction_type = ${quote(type)} THEN ${weight}`,
    )
    .join(" ");
  return `coalesce(sum(${rule.measure} * CASE ${cases} ELSE 0 END), 0)`;
}

/**
 * One figure for the client whose id is the SQL expression `userIdSql` (a column such as
 * `profiles.user_id`, or `?` for a bound value), read from `ledger_totals`.
 */
export function figureSql(name: FigureName, userIdSql: string): string {
  // Only the statuses the figure counts: the table's key (user, status, …) then reads just those rows.
  const statuses = Object.keys(FIGURES[name].weights).map(quote).join(", ");
  return `(SELECT ${figureAggregateSql(name)} FROM ledger_totals WHERE user_id = ${userIdSql} AND status IN (${statuses}))`;
}

/**
 * How one approved row of each type counts toward a cents figure that reads approved rows only (the ledger
 * balance, Total Profit), as an SQL CASE over a type column: the weight to multiply a per-type sum by, in a
 * projection keyed by type (`ledger_months`, `ledger_days`).
 */
export function approvedWeightSql(name: "ledgerBalance" | "totalProfit", typeColumn = "transaction_type"): string {
  const weights: Partial<Record<TransactionType, number>> = FIGURES[name].weights.approved;
  const cases = Object.entries(weights)
    .map(([type, weight]) => `WHEN ${quote(type)} THEN ${weight}`)
    .join(" ");
  return `CASE ${typeColumn} ${cases} ELSE 0 END`;
}

/** `winRateOf` in SQL, over two SQL expressions: the same arithmetic, so the same rounding. */
export function winRateExpression(winsSql: string, tradesSql: string): string {
  return `coalesce(round(1000.0 * ${winsSql} / nullif(${tradesSql}, 0)) / 10.0, 0)`;
}

/** The client's Win Rate in SQL. */
export function winRateSql(userIdSql: string): string {
  return winRateExpression(figureSql("wins", userIdSql), figureSql("totalTrades", userIdSql));
}

/**
 * The profile's stored projections of the ledger (balance, trades, win rate) as SET assignments for
 * `UPDATE profiles`: every batch that changes approved rows ends with it, and the seed scripts run it once.
 */
export function profileProjectionSql(userIdSql = "profiles.user_id"): string {
  return [
    `balance_cents = ${figureSql("ledgerBalance", userIdSql)}`,
    `total_trades = ${figureSql("totalTrades", userIdSql)}`,
    `win_rate = ${winRateSql(userIdSql)}`,
  ].join(", ");
}
