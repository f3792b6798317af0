/**
 * The ledger as the browser and the server share it: the enumerations, how a type is named, and how a
 * typed amount is read. The figures themselves come from the one rules table in `./money/rules`.
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

/** Single figures of the rules table, by name, for callers that need one. */
export const ledgerBalance = (t: LedgerTotals) => figure(t, "ledgerBalance");
export const withdrawable = (t: LedgerTotals) => figure(t, "withdrawable");

/**
 * The one set of names the product gives the transaction types (docs/product.md, "The ledger"): pages,
 * statements, CSVs, mails and the back office all read them here. Sentence case: a label that starts a line
 * or a cell is written as it is here, one inside a sentence in lower case (`typeInSentence`).
 */
export const TRANSACTION_TYPE_LABELS: Readonly<Record<TransactionType, string>> = {
  deposit: "Deposit",
  stock_deposit: "Stock deposit",
  fee_deposit: "Fee deposit",
  withdraw: "Withdrawal",
  profit: "Profit",
  loss: "Loss",
};

export const typeLabel = (type: TransactionType): string => TRANSACTION_TYPE_LABELS[type];

/** A type inside a sentence: "Approve withdrawal of $75.00", "Your stock deposit request was approved". */
export const typeInSentence = (type: TransactionType): string => TRANSACTION_TYPE_LABELS[type].toLowerCase();

/** The dashboard's lists, by the product's rule for them: a stock deposit reads 'Deposit', its stock beside it. */
export const dashboardTypeLabel = (type: TransactionType): string =>
  typeLabel(type === "stock_deposit" ? "deposit" : type);

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
