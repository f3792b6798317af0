import { parseAmountToCents } from "~/lib/ledger";
import { invalidAddressMessage, isValidAddress, WITHDRAWAL_CURRENCIES } from "~/lib/wallet-address";

/** The client money forms' rules and SPEC's messages (§5, §8), shared by the pages and the actions. */
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

/** SPEC §5's extra rules for a stock deposit. */
export const STOCK_MESSAGES = {
  selectStock: "Please select a stock",
  invalidSymbol: "Invalid stock symbol in URL",
} as const;

type Parsed<T> = { ok: true; data: T } | { ok: false; error: string };

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
};

/** A form's idempotency key: generated when the form rendered, sent back with it. */
export function idempotencyKeyOf(form: FormData): string | null {
  const key = field(form, "idempotencyKey");
  return /^[A-Za-z0-9-]{16,64}$/.test(key) ? key : null;
}

export interface DepositWalletOption {
  walletType: string;
  walletAddress: string;
}

/** Deposit: amount above 0, then a wallet of the firm's (SPEC §5 order). */
export function parseDepositForm(
  form: FormData,
  wallets: DepositWalletOption[],
): Parsed<{ amountCents: number; wallet: DepositWalletOption }> {
  const amountCents = parseAmountToCents(field(form, "amount"));
  if (amountCents === null) return { ok: false, error: MONEY_MESSAGES.invalidAmount };
  const wallet = wallets.find((w) => w.walletType === field(form, "walletType"));
  if (!wallet) return { ok: false, error: MONEY_MESSAGES.selectDepositWallet };
  return { ok: true, data: { amountCents, wallet } };
}

/**
 * Withdrawal: amount above 0, not above what can be withdrawn, then currency and address, then the
 * address's format for that currency's network (SPEC §5 order, DESIGN §7).
 */
export function parseWithdrawalForm(
  form: FormData,
  withdrawableCents: number,
): Parsed<{ amountCents: number; cryptoCurrency: string; address: string }> {
  const amountCents = parseAmountToCents(field(form, "amount"));
  if (amountCents === null) return { ok: false, error: MONEY_MESSAGES.invalidAmount };
  if (amountCents > withdrawableCents) return { ok: false, error: MONEY_MESSAGES.exceedsBalance };
  const cryptoCurrency = field(form, "cryptoCurrency");
  const address = field(form, "walletAddress");
  if (!(WITHDRAWAL_CURRENCIES as readonly string[]).includes(cryptoCurrency) || !address) {
    return { ok: false, error: MONEY_MESSAGES.selectCryptoAndAddress };
  }
  if (!isValidAddress(cryptoCurrency, address)) return { ok: false, error: invalidAddressMessage(cryptoCurrency) };
  return { ok: true, data: { amountCents, cryptoCurrency, address } };
}
