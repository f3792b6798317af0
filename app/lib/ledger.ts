/**
 * The money formulas of DESIGN §3, in one place. They are defined over per-(status, type) totals, which
 * come either from rows (`totalsFromRows`, the reference) or from one SQL aggregate
 * (`ledger.server.ts`, what the pages use); a property test requires both to agree.
 * Amounts are integer cents.
 */
import { TRANSACTION_STATUSES, TRANSACTION_TYPES, type TransactionStatus, type TransactionType } from "../../db/enums";

export { TRANSACTION_STATUSES, TRANSACTION_TYPES, type TransactionStatus, type TransactionType };

/** SPEC §9: the deposit-type set used for totals. */
export const DEPOSIT_TYPES: readonly TransactionType[] = ["deposit", "stock_deposit", "fee_deposit"];

export interface Bucket {
  count: number;
  cents: number;
}
export type LedgerTotals = Record<TransactionStatus, Record<TransactionType, Bucket>>;

export function emptyTotals(): LedgerTotals {
  const byType = () =>
    Object.fromEntries(TRANSACTION_TYPES.map((type) => [type, { count: 0, cents: 0 }])) as Record<
      TransactionType,
      Bucket
    >;
  return { pending: byType(), approved: byType(), rejected: byType() };
}

export interface LedgerRow {
  transactionType: TransactionType;
  status: TransactionStatus;
  amountCents: number;
}

export function totalsFromRows(rows: Iterable<LedgerRow>): LedgerTotals {
  const totals = emptyTotals();
  for (const row of rows) {
    const bucket = totals[row.status][row.transactionType];
    bucket.count += 1;
    bucket.cents += row.amountCents;
  }
  return totals;
}

const cents = (totals: LedgerTotals, status: TransactionStatus, ...types: TransactionType[]) =>
  types.reduce((sum, type) => sum + totals[status][type].cents, 0);
const count = (totals: LedgerTotals, status: TransactionStatus, ...types: TransactionType[]) =>
  types.reduce((sum, type) => sum + totals[status][type].count, 0);

/** Profile balance and the admin's "Balance": every approved entry, signed (SPEC §4). */
export function ledgerBalance(t: LedgerTotals): number {
  return (
    cents(t, "approved", "deposit", "stock_deposit", "fee_deposit", "profit") - cents(t, "approved", "withdraw", "loss")
  );
}

/** Dashboard "Available" (SPEC §9): fee deposits are counted in and then out again, so they do not add. */
export function available(t: LedgerTotals): number {
  return (
    cents(t, "approved", "deposit", "stock_deposit", "fee_deposit", "profit") -
    cents(t, "approved", "loss", "withdraw") -
    cents(t, "approved", "fee_deposit")
  );
}

/** Dashboard "Gross" (SPEC §9). */
export function gross(t: LedgerTotals): number {
  return (
    available(t) +
    cents(t, "pending", "deposit", "stock_deposit", "fee_deposit") +
    cents(t, "approved", "fee_deposit") -
    cents(t, "pending", "withdraw")
  );
}

/**
 * What a client may still ask to withdraw: the old app's check (approved deposit + profit - loss -
 * withdraw) minus withdrawals already requested and not yet decided, which are reserved.
 */
export function withdrawable(t: LedgerTotals): number {
  return (
    cents(t, "approved", "deposit", "profit") -
    cents(t, "approved", "loss", "withdraw") -
    cents(t, "pending", "withdraw")
  );
}

export function totalTrades(t: LedgerTotals): number {
  return count(t, "approved", "profit", "loss");
}

/** Percentage of winning trades, one decimal; 0 when there are none. */
export function winRate(t: LedgerTotals): number {
  const trades = totalTrades(t);
  if (trades === 0) return 0;
  return Math.round((count(t, "approved", "profit") / trades) * 1000) / 10;
}

export function totalProfit(t: LedgerTotals): number {
  return cents(t, "approved", "profit") - cents(t, "approved", "loss");
}

/** Approved money in (all three deposit types) and out, for the "Total Withdrawals & Deposits" panel. */
export function depositsAndWithdrawals(t: LedgerTotals): { deposits: number; withdrawals: number } {
  return { deposits: cents(t, "approved", ...DEPOSIT_TYPES), withdrawals: cents(t, "approved", "withdraw") };
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

export function summarize(t: LedgerTotals): LedgerSummary {
  return {
    ledgerBalance: ledgerBalance(t),
    available: available(t),
    gross: gross(t),
    withdrawable: withdrawable(t),
    totalTrades: totalTrades(t),
    winRate: winRate(t),
    totalProfit: totalProfit(t),
    ...depositsAndWithdrawals(t),
  };
}

/** How a type is shown to clients: a stock deposit is a Deposit (SPEC §2). */
export function displayType(type: TransactionType): string {
  switch (type) {
    case "deposit":
    case "stock_deposit":
      return "Deposit";
    case "fee_deposit":
      return "Fee Deposit";
    case "withdraw":
      return "Withdrawal";
    case "profit":
      return "Profit";
    case "loss":
      return "Loss";
  }
}

export const isCredit = (type: TransactionType) => type !== "withdraw" && type !== "loss";

/**
 * Parses a money amount typed by a person: digits with at most 2 decimals, above 0, below a sanity cap.
 * Returns integer cents, or null.
 */
export const MAX_AMOUNT_CENTS = 100_000_000_00;
export function parseAmountToCents(input: unknown): number | null {
  if (typeof input !== "string" && typeof input !== "number") return null;
  const text = String(input).trim().replace(/,/g, "");
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  const value = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return value > 0 && value <= MAX_AMOUNT_CENTS ? value : null;
}

export const centsToAmount = (value: number) => (value / 100).toFixed(2);
