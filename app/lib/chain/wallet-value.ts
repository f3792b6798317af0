/**
 * What an admin typed for a deposit wallet, read once for everyone who shows or checks it: the wallet-change form
 * (in the browser, as the admin types), the Worker before it proposes the change, the second admin's card and the
 * wallet-changed mail. An address is left to the address format check; a key is read for the wallet's chain and
 * gives its first addresses, so both admins compare the same addresses with their wallet software.
 */
import { firstAddresses, KEY_MESSAGES, readAccountKey } from "./addresses";
import { WALLET_KEY_MESSAGES } from "./wallet-messages";
import { looksLikeExtendedKey, watchedChainOf } from "./wallets";

export type WalletValue =
  | { kind: "address" }
  | { kind: "key"; addresses: string[] }
  | { kind: "refused"; error: string };

export { WALLET_KEY_MESSAGES };

/** Reads a wallet's value as typed: an address, a key with its first addresses, or the refusal of a key. */
export function readWalletValue(walletType: string, value: string): WalletValue {
  if (!looksLikeExtendedKey(value)) return { kind: "address" };
  const chain = watchedChainOf(walletType);
  if (!chain) {
    // A private key is named as such wherever it is typed: the admin must know it was exposed.
    const reading = readAccountKey(value, "usdt_trc20");
    if (!reading.ok && reading.error === KEY_MESSAGES.privateKey) return { kind: "refused", error: reading.error };
    return { kind: "refused", error: WALLET_KEY_MESSAGES.notWatched(walletType) };
  }
  const preview = firstAddresses(value, chain);
  return preview.ok ? { kind: "key", addresses: preview.addresses } : { kind: "refused", error: preview.error };
}

/** The first addresses of a wallet's value when it is a key its chain reads; null for an address. */
export function keyAddressesOf(walletType: string | null, value: string | null): string[] | null {
  if (!walletType || !value) return null;
  const read = readWalletValue(walletType, value);
  return read.kind === "key" ? read.addresses : null;
}
