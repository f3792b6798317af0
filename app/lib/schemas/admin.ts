import { formSchema, formValues, type Parsed, text } from "~/lib/forms";
import { parseAmountToCents, TRANSACTION_TYPES, type TransactionType } from "~/lib/ledger";
import { isKnownStock, TRADING_PAIRS } from "~/lib/stocks";

/**
 * An admin's ledger entry (docs/product.md, "Messages"): the messages in the order they are checked; shared
 * by the entry panel and the action.
 */
export const ENTRY_MESSAGES = {
  invalidAmount: "Please enter a valid amount",
  tradingPairRequired: "Please select a trading pair for profit or loss action",
  stockRequired: "Please select a stock for stock deposit transaction",
  failed: "Failed to process transaction",
  wouldGoNegative: "This entry would make the balance negative",
  clientsOnly: "Ledger entries can only be posted to client accounts",
} as const;

interface ParsedEntry {
  type: TransactionType;
  amountCents: number;
  tradingPair?: string;
  stock?: string;
}

const isTrade = (type: string) => type === "profit" || type === "loss";

const entrySchema = formSchema(
  (v) => ({
    type: text(v.type) as TransactionType,
    amountCents: parseAmountToCents(text(v.amount)),
    tradingPair: text(v.tradingPair),
    stock: text(v.stock).toUpperCase(),
  }),
  [
    // The type comes from the button the admin chose, not from a field: a wrong one is the generic failure.
    [(v) => TRANSACTION_TYPES.includes(v.type), ENTRY_MESSAGES.failed],
    [(v) => v.amountCents !== null, ENTRY_MESSAGES.invalidAmount, "amount"],
    [
      (v) => !isTrade(v.type) || TRADING_PAIRS.includes(v.tradingPair),
      ENTRY_MESSAGES.tradingPairRequired,
      "tradingPair",
    ],
    [(v) => v.type !== "stock_deposit" || isKnownStock(v.stock), ENTRY_MESSAGES.stockRequired, "stock"],
  ],
  // Only the detail that the type uses is kept: a pair for a trade, a stock for a stock deposit.
  ({ type, amountCents, tradingPair, stock }): ParsedEntry => {
    if (isTrade(type)) return { type, amountCents: amountCents as number, tradingPair };
    if (type === "stock_deposit") return { type, amountCents: amountCents as number, stock };
    return { type, amountCents: amountCents as number };
  },
);

/** An amount above 0 for every type (a fee deposit too), plus a trading pair for a trade or a stock. */
export function parseLedgerEntryForm(form: FormData): Parsed<ParsedEntry> {
  return entrySchema.parse(formValues(form), undefined);
}

/** The back office's own messages (docs/product.md, "Messages", where it lists them). */
export const ADMIN_MESSAGES = {
  alreadyDecided: "This transaction has already been decided.",
  cannotCoverWithdrawal: "The client's balance no longer covers this withdrawal.",
  transactionNotFound: "Transaction not found",
  userNotFound: "User not found",
  processingFailed: "Failed to process transaction",
  noWalletChanges: "No changes to save",
  walletsFailed: "Failed to update wallets",
  walletChangedMeanwhile: "This wallet was changed by someone else. Reload and try again.",
  deleteConfirm: "Are you sure you want to delete this user's profile and transactions? This action cannot be undone.",
  deleted: "User data deleted successfully.",
  deleteFailed: "An unexpected error occurred while deleting user data.",
} as const;

/** Every kind of row the audit log holds. */
export const AUDIT_ACTIONS = [
  "transaction.approve",
  "transaction.reject",
  "transaction.cancel",
  "ledger.entry",
  "client.suspend",
  "client.activate",
  "client.delete",
  "wallet.update",
  "admin.create",
  "admin.promote",
  "email.resend",
  "proposal.propose",
  "proposal.approve",
  "proposal.reject",
  "proposal.expire",
  "verification.purge",
  "verification.document_view",
  "verification.approve",
  "verification.reject",
  "verification.request_info",
  "client.note",
  "client.notes_purge",
  "team.invite",
  "team.revoke_invitation",
  "team.join",
  "team.roles",
  "team.deactivate",
  "team.reactivate",
  "team.propose",
  "team.approve",
  "team.reject",
  "alert.dismiss",
  "alert.escalate",
  "alert.report",
  "passkey.add",
  "passkey.rename",
  "passkey.remove",
  "passkey.counter_went_back",
  "access_recovery.request",
  "access_recovery.cancel",
  "access_recovery.file_view",
  "access_recovery.approve",
  "access_recovery.refuse",
  "payout.record",
  "order.buy",
  "order.cancel",
  "order.sell",
] as const;
