/**
 * A deposit address per client, derived from the firm's watch-only account key: client number `i` gets the
 * address at `0/i` (the external chain, non-hardened, so the public key alone derives it). The same key and index
 * always give the same address, so nothing but the index has to be stored. Browser-safe and Worker-safe: the
 * wallet-change form shows the first addresses on the page, and the Worker derives them again before saving.
 */
import type { HDKey } from "@scure/bip32";
import { ethereumAddress, SEGWIT_PREFIXES, segwitAddress, tronAddress } from "./encodings";
import { type AccountKey, type ChainNetwork, type DepositChain, readAccountKey } from "./extended-key";

export type { AccountKey, ChainNetwork, DepositChain, KeyReading } from "./extended-key";
export { ACCOUNT_DEPTH, CHAIN_NAMES, KEY_MESSAGES, readAccountKey } from "./extended-key";

export const DEPOSIT_CHAINS = [
  "bitcoin",
  "ethereum",
  "usdt_erc20",
  "usdt_trc20",
] as const satisfies readonly DepositChain[];

/** How many addresses the wallet-change form shows for the admins to compare with their wallet software. */
export const PREVIEW_COUNT = 3;

/** The external (receiving) chain under the account key; `1` is change, which a deposit never uses. */
const EXTERNAL_CHAIN = 0;

/** The highest non-hardened index: past it a public key cannot derive. */
export const MAX_ADDRESS_INDEX = 0x7fffffff;

/** The address of index `i` under a checked account key. */
export function deriveAddress(account: AccountKey, index: number): string {
  if (!Number.isSafeInteger(index) || index < 0 || index > MAX_ADDRESS_INDEX) {
    throw new RangeError(`Address index must be an integer from 0 to ${MAX_ADDRESS_INDEX}`);
  }
  return addressAt(account, account.key.deriveChild(EXTERNAL_CHAIN), index);
}

export type AddressPreview =
  | { ok: true; network: ChainNetwork; kind: string; addresses: string[] }
  | { ok: false; error: string };

/** The first `n` addresses of a key as typed into the wallet-change form, or the form's message for a bad key. */
export function firstAddresses(keyText: string, chain: DepositChain, n: number = PREVIEW_COUNT): AddressPreview {
  const reading = readAccountKey(keyText, chain);
  if (!reading.ok) return reading;
  const account = reading.key;
  // The external chain once: n addresses cost n + 1 child steps, not 2n.
  const external = account.key.deriveChild(EXTERNAL_CHAIN);
  const addresses = Array.from({ length: n }, (_, index) => addressAt(account, external, index));
  return { ok: true, network: account.network, kind: account.kind, addresses };
}

function addressAt(account: AccountKey, external: HDKey, index: number): string {
  const publicKey = external.deriveChild(index).publicKey;
  // A public-only HDKey always has its public key; the check keeps the type honest.
  if (!publicKey) throw new Error("Derived key has no public key");
  switch (account.chain) {
    case "bitcoin":
      return segwitAddress(publicKey, SEGWIT_PREFIXES[account.network]);
    case "ethereum":
    case "usdt_erc20":
      return ethereumAddress(publicKey);
    case "usdt_trc20":
      return tronAddress(publicKey);
  }
}
