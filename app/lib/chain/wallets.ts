/**
 * What a deposit wallet holds: the firm's one address (every client pays it, and claims the payment), or, where the
 * chain is watched, the account's extended public key, from which every client gets an address of their own and
 * payments are seen on chain. A key is accepted only where the watcher reads the chain: Bitcoin, Ether and USDT on
 * Ethereum. USDT on Tron stays an address (docs/product.md, "Deposits").
 */
import { networkOf } from "../wallet-address";
import { type AccountKey, type DepositChain, readAccountKey } from "./extended-key";

/** The chains whose payments the watcher sees: a wallet of these may hold an extended key. */
export const WATCHED_CHAINS = ["bitcoin", "ethereum", "usdt_erc20"] as const satisfies readonly DepositChain[];
export type WatchedChain = (typeof WATCHED_CHAINS)[number];

/** The watched chain of a deposit wallet type ("BTC", "ETH", "USDT (ERC20)"), or null for an address-only wallet. */
export function watchedChainOf(walletType: string): WatchedChain | null {
  switch (networkOf(walletType)) {
    case "bitcoin":
      return "bitcoin";
    case "ethereum":
      return /ERC|USDT/i.test(walletType) ? "usdt_erc20" : "ethereum";
    default:
      return null;
  }
}

/** Whether the text looks like an extended key (xpub, zpub, vpub…) rather than an address. */
export function looksLikeExtendedKey(text: string): boolean {
  return /^[a-zA-Z]{4}[1-9A-HJ-NP-Za-km-z]{100,}$/.test(text.trim());
}

/** The account key a wallet's stored value holds, or null when it holds an address (or a key its chain refuses). */
export function walletAccountKey(walletType: string, value: string): AccountKey | null {
  const chain = watchedChainOf(walletType);
  if (!chain || !looksLikeExtendedKey(value)) return null;
  const reading = readAccountKey(value, chain);
  return reading.ok ? reading.key : null;
}
