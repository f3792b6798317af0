import { parseAmountToCents, TRANSACTION_TYPES, type TransactionType } from "~/lib/ledger";
import { isKnownStock, TRADING_PAIRS } from "~/lib/stocks";

/** SPEC §5 "Admin ledger entry", in SPEC's order and words; shared by the entry panel and the action. */
export const ENTRY_MESSAGES = {
  invalidAmount: "Please enter a valid amount",
  tradingPairRequired: "Please select a trading pair for profit or loss action",
  stockRequired: "Please select a stock for stock deposit transaction",
  feeDepositPositive: "Fee deposit amount must be greater than 0",
  failed: "Failed to process transaction",
  wouldGoNegative: "This entry would make the balance negative",
  clientsOnly: "Ledger entries can only be posted to client accounts",
} as const;

export interface ParsedEntry {
  type: TransactionType;
  amountCents: number;
  tradingPair?: string;
  stock?: string;
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
};

export function parseLedgerEntryForm(form: FormData): { ok: true; data: ParsedEntry } | { ok: false; error: string } {
  const type = text(form, "type") as TransactionType;
  if (!TRANSACTION_TYPES.includes(type)) return { ok: false, error: ENTRY_MESSAGES.failed };
  const amountCents = parseAmountToCents(text(form, "amount"));
  if (amountCents === null) return { ok: false, error: ENTRY_MESSAGES.invalidAmount };
  if (type === "profit" || type === "loss") {
    const tradingPair = text(form, "tradingPair");
    if (!TRADING_PAIRS.includes(tradingPair)) return { ok: false, error: ENTRY_MESSAGES.tradingPairRequired };
    return { ok: true, data: { type, amountCents, tradingPair } };
  }
  if (type === "stock_deposit") {
    const stock = text(form, "stock").toUpperCase();
    if (!isKnownStock(stock)) return { ok: false, error: ENTRY_MESSAGES.stockRequired };
    return { ok: true, data: { type, amountCents, stock } };
  }
  if (type === "fee_deposit" && amountCents <= 0) return { ok: false, error: ENTRY_MESSAGES.feeDepositPositive };
  return { ok: true, data: { type, amountCents } };
}

/** The back office's own messages (SPEC §8 where it has them). */
export const ADMIN_MESSAGES = {
  alreadyDecided: "This transaction has already been decided.",
  cannotCoverWithdrawal: "The client's balance no longer covers this withdrawal.",
  transactionNotFound: "Transaction not found",
  processingFailed: "Failed to process transaction",
  noWalletChanges: "No changes to save",
  walletsFailed: "Failed to update wallets",
  deleteConfirm: "Are you sure you want to delete this user's profile and transactions? This action cannot be undone.",
  deleted: "User data deleted successfully.",
  deleteFailed: "An unexpected error occurred while deleting user data.",
} as const;

/** Every kind of row the audit log holds. */
export const AUDIT_ACTIONS = [
  "transaction.approve",
  "transaction.reject",
  "ledger.entry",
  "client.suspend",
  "client.activate",
  "client.delete",
  "wallet.update",
  "admin.create",
  "admin.promote",
  "email.resend",
] as const;

/** How a type is labelled on the admin's buttons and tables. */
export const TYPE_LABELS: Record<TransactionType, string> = {
  deposit: "Deposit",
  stock_deposit: "Stock Deposit",
  fee_deposit: "Fee Deposit",
  withdraw: "Withdraw",
  profit: "Profit",
  loss: "Loss",
};
