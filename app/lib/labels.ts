/**
 * How the product names transaction types and statuses, per audience (docs/product.md, "The ledger"): pages,
 * statements, CSVs, mails and the back office all read them here, so a word is changed in one place.
 */
import type { TransactionStatus, TransactionType } from "../../db/enums";

/**
 * The one set of names of the transaction types. Sentence case: a label that starts a line or a cell is written as
 * it is here, one inside a sentence in lower case (`typeInSentence`).
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
 * Who reads a status, and in which words:
 * - `client`: the client's History, statements and filters: a rejected request reads 'Declined'.
 * - `clientPanel`: the dashboard's lists, whose badges capitalise by style: 'declined', 'Cancelled'.
 * - `desk`: the back office's filters: 'Rejected'.
 * - `deskTable`: the back office's transaction tables, which capitalise by style and keep the stored word
 *   (the live desk matches rows by it), 'Cancelled' apart.
 */
export const STATUS_LABELS = {
  client: { pending: "Pending", approved: "Approved", rejected: "Declined", cancelled: "Cancelled" },
  clientPanel: { pending: "pending", approved: "approved", rejected: "declined", cancelled: "Cancelled" },
  desk: { pending: "Pending", approved: "Approved", rejected: "Rejected", cancelled: "Cancelled" },
  deskTable: { pending: "pending", approved: "approved", rejected: "rejected", cancelled: "Cancelled" },
} as const satisfies Record<string, Readonly<Record<TransactionStatus, string>>>;

export type StatusAudience = keyof typeof STATUS_LABELS;

export const statusLabel = (status: TransactionStatus, audience: StatusAudience): string =>
  STATUS_LABELS[audience][status];
