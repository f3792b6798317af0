/**
 * The ledger as the browser and the server share it: the enumerations and how a typed amount is read (the
 * names are in `./labels`). The figures themselves come from the one rules table in `./money/rules`.
 */
import { TRANSACTION_STATUSES, TRANSACTION_TYPES, type TransactionStatus, type TransactionType } from "../../db/enums";
import { figure, type LedgerTotals } from "./money/rules";

export {
  emptyTotals,
  isCredit,
  type LedgerRow,
  type LedgerSummary,
  type LedgerTotals,
  signedCents,
  summarize,
  totalsFromRows,
} from "./money/rules";
export { TRANSACTION_STATUSES, TRANSACTION_TYPES, type TransactionStatus, type TransactionType };

/** A ledger entry an admin posts to a client's account (or proposes, for a second admin's approval). */
export interface LedgerEntry {
  type: TransactionType;
  amountCents: number;
  tradingPair?: string;
  stock?: string;
  idempotencyKey: string;
  /** The admin's reason, told to the client (their mail, their History); at most 500 characters. */
  memo?: string;
}

/** Single figures of the rules table, by name, for callers that need one. */
export const ledgerBalance = (t: LedgerTotals) => figure(t, "ledgerBalance");
export const withdrawable = (t: LedgerTotals) => figure(t, "withdrawable");

/**
 * The one parser of every money field: digits with at most one '.' and at most 2 decimals, above 0, below a
 * sanity cap. Anything else is refused, a comma included: '1,50' means 1.50 to half the world and 150 to the
 * other half, so it is never guessed. Returns integer cents, or null.
 */
export const MAX_AMOUNT_CENTS = 100_000_000_00;
export function parseAmountToCents(input: unknown): number | null {
  if (typeof input !== "string" && typeof input !== "number") return null;
  const text = String(input).trim();
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  const value = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return value > 0 && value <= MAX_AMOUNT_CENTS ? value : null;
}

export const centsToAmount = (value: number) => (value / 100).toFixed(2);
