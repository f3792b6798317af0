import { formSchema, formValues, type Parsed, text } from "~/lib/forms";
import { parseAmountToCents } from "~/lib/ledger";
import {
  type BitcoinNetwork,
  invalidAddressMessage,
  isValidAddress,
  WITHDRAWAL_CURRENCIES,
} from "~/lib/wallet-address";

/**
 * The client money forms' rules and messages, shared by the pages and the actions. The messages and the
 * order of the checks are the product's (docs/product.md, "Messages"): only the first failure is reported.
 */
export const MONEY_MESSAGES = {
  notAuthenticated: "User not authenticated",
  invalidAmount: "Please enter a valid amount",
  selectDepositWallet: "Please select a cryptocurrency to proceed with a deposit",
  exceedsBalance: "Withdrawal amount exceeds account balance",
  selectCryptoAndAddress: "Please select a cryptocurrency and enter a wallet address",
  depositSubmitted: "Deposit request submitted successfully",
  withdrawalSubmitted: "Withdrawal request submitted successfully",
  noWallets: "No deposit wallets available",
  noWalletsYet: "No deposit wallets available yet",
  formExpired: "This form has expired. Please reload the page.",
} as const;

/** A stock deposit's extra rules: a stock is selected, and the URL's symbol is a known one. */
export const STOCK_MESSAGES = {
  selectStock: "Please select a stock",
  invalidSymbol: "Invalid stock symbol in URL",
} as const;

/** A form's idempotency key: generated when the form rendered, sent back with it. */
export function idempotencyKeyOf(form: FormData): string | null {
  const key = text(form.get("idempotencyKey"));
  return /^[A-Za-z0-9-]{16,64}$/.test(key) ? key : null;
}

interface DepositWalletOption {
  walletType: string;
  walletAddress: string;
}

const depositSchema = formSchema(
  (v, wallets: DepositWalletOption[]) => ({
    amountCents: parseAmountToCents(text(v.amount)),
    wallet: wallets.find((w) => w.walletType === text(v.walletType)),
  }),
  [
    [(v) => v.amountCents !== null, MONEY_MESSAGES.invalidAmount, "amount"],
    [(v) => v.wallet !== undefined, MONEY_MESSAGES.selectDepositWallet, "walletType"],
  ],
  (v) => ({ amountCents: v.amountCents as number, wallet: v.wallet as DepositWalletOption }),
);

/** Deposit: an amount above 0, then one of the firm's wallets. */
export function parseDepositForm(
  form: FormData,
  wallets: DepositWalletOption[],
): Parsed<{ amountCents: number; wallet: DepositWalletOption }> {
  return depositSchema.parse(formValues(form), wallets);
}

const isWithdrawalCurrency = (value: string) => (WITHDRAWAL_CURRENCIES as readonly string[]).includes(value);

interface WithdrawalLimits {
  withdrawableCents: number;
  bitcoinNetwork: BitcoinNetwork;
}

const withdrawalSchema = formSchema(
  (v, _limits: WithdrawalLimits) => ({
    amountCents: parseAmountToCents(text(v.amount)),
    cryptoCurrency: text(v.cryptoCurrency),
    walletAddress: text(v.walletAddress),
  }),
  [
    [(v) => v.amountCents !== null, MONEY_MESSAGES.invalidAmount, "amount"],
    [(v, limits) => (v.amountCents ?? 0) <= limits.withdrawableCents, MONEY_MESSAGES.exceedsBalance, "amount"],
    [
      (v) => isWithdrawalCurrency(v.cryptoCurrency) && v.walletAddress !== "",
      MONEY_MESSAGES.selectCryptoAndAddress,
      (v) => (isWithdrawalCurrency(v.cryptoCurrency) ? "walletAddress" : "cryptoCurrency"),
    ],
    [
      (v, limits) => isValidAddress(v.cryptoCurrency, v.walletAddress, limits.bitcoinNetwork),
      (v) => invalidAddressMessage(v.cryptoCurrency),
      "walletAddress",
    ],
  ],
  (v) => ({ amountCents: v.amountCents as number, cryptoCurrency: v.cryptoCurrency, address: v.walletAddress }),
);

/**
 * Withdrawal: an amount above 0 and not above what can be withdrawn, then a currency and an address, then the
 * address's format for that currency's network (a typo in an address loses the money).
 */
export function parseWithdrawalForm(
  form: FormData,
  limits: WithdrawalLimits,
): Parsed<{ amountCents: number; cryptoCurrency: string; address: string }> {
  return withdrawalSchema.parse(formValues(form), limits);
}
