/**
 * Reading the extended public key of a deposit wallet. The portal only ever holds public keys: it derives each
 * client's deposit address and can never spend from it. A key is refused with the one message a form shows, in
 * the order an admin would fix it: not a key at all, a private key, the wrong kind for the chain, the wrong level.
 *
 * The version bytes say the kind (SLIP-0132): Bitcoin takes a BIP84 `zpub` (`vpub` on testnet, signet and
 * regtest), whose addresses are native segwit; Ethereum and TRON take a BIP44 `xpub`, the kind their wallets export.
 * The key must be an account key, depth 3 (`m/purpose'/coin'/account'`), so the addresses are its `0/i`, as in
 * every wallet; see docs/decisions/0066.
 */

import { sha256 } from "@noble/hashes/sha2.js";
import { createBase58check } from "@scure/base";
import { HDKey } from "@scure/bip32";

export type DepositChain = "bitcoin" | "ethereum" | "usdt_erc20" | "usdt_trc20";

/** The network a key is for. Ethereum and TRON keys carry none: their addresses are the same on every network. */
export type ChainNetwork = "mainnet" | "testnet";

/** A checked account key: the chain it serves, the network its version bytes name, and the key itself. */
export interface AccountKey {
  chain: DepositChain;
  network: ChainNetwork;
  /** The prefix the key was given with (`zpub`, `vpub`, `xpub`), for the form to show. */
  kind: string;
  key: HDKey;
}

/** The depth of an account key: `m/purpose'/coin'/account'`. */
export const ACCOUNT_DEPTH = 3;

interface KeyKind {
  prefix: string;
  network: ChainNetwork;
  isPrivate: boolean;
}

/** SLIP-0132's registered versions; the ones no chain here takes are listed so the refusal can name them. */
const KEY_KINDS = new Map<number, KeyKind>([
  [0x0488b21e, { prefix: "xpub", network: "mainnet", isPrivate: false }],
  [0x049d7cb2, { prefix: "ypub", network: "mainnet", isPrivate: false }],
  [0x04b24746, { prefix: "zpub", network: "mainnet", isPrivate: false }],
  [0x0295b43f, { prefix: "Ypub", network: "mainnet", isPrivate: false }],
  [0x02aa7ed3, { prefix: "Zpub", network: "mainnet", isPrivate: false }],
  [0x043587cf, { prefix: "tpub", network: "testnet", isPrivate: false }],
  [0x044a5262, { prefix: "upub", network: "testnet", isPrivate: false }],
  [0x045f1cf6, { prefix: "vpub", network: "testnet", isPrivate: false }],
  [0x024289ef, { prefix: "Upub", network: "testnet", isPrivate: false }],
  [0x02575483, { prefix: "Vpub", network: "testnet", isPrivate: false }],
  [0x0488ade4, { prefix: "xprv", network: "mainnet", isPrivate: true }],
  [0x049d7878, { prefix: "yprv", network: "mainnet", isPrivate: true }],
  [0x04b2430c, { prefix: "zprv", network: "mainnet", isPrivate: true }],
  [0x0295b005, { prefix: "Yprv", network: "mainnet", isPrivate: true }],
  [0x02aa7a99, { prefix: "Zprv", network: "mainnet", isPrivate: true }],
  [0x04358394, { prefix: "tprv", network: "testnet", isPrivate: true }],
  [0x044a4e28, { prefix: "uprv", network: "testnet", isPrivate: true }],
  [0x045f18bc, { prefix: "vprv", network: "testnet", isPrivate: true }],
  [0x024285b5, { prefix: "Uprv", network: "testnet", isPrivate: true }],
  [0x02575048, { prefix: "Vprv", network: "testnet", isPrivate: true }],
]);

/** The public kinds each chain takes, by version, and the account path its wallet exports the key at. */
const ACCEPTED: Record<DepositChain, { versions: readonly number[]; expected: string; path: string }> = {
  bitcoin: {
    versions: [0x04b24746, 0x045f1cf6],
    expected: "a BIP84 zpub (native segwit; vpub on testnet)",
    path: "m/84'/0'/0'",
  },
  ethereum: { versions: [0x0488b21e], expected: "a BIP44 xpub", path: "m/44'/60'/0'" },
  usdt_erc20: { versions: [0x0488b21e], expected: "a BIP44 xpub", path: "m/44'/60'/0'" },
  usdt_trc20: { versions: [0x0488b21e], expected: "a BIP44 xpub", path: "m/44'/195'/0'" },
};

export const CHAIN_NAMES: Record<DepositChain, string> = {
  bitcoin: "Bitcoin",
  ethereum: "Ethereum",
  usdt_erc20: "USDT (ERC-20)",
  usdt_trc20: "USDT (TRC-20)",
};

const withArticle = (prefix: string) => `${prefix.startsWith("x") ? "an" : "a"} ${prefix}`;

export const KEY_MESSAGES = {
  required: "Enter the wallet's extended public key",
  notAKey: "This is not an extended public key: check that it was copied whole",
  badChecksum: "This key's checksum does not match: it was mistyped or cut short",
  privateKey: "This is a private key. The portal holds public keys only: paste the account's public key instead",
  wrongKind: (chain: DepositChain, prefix: string) =>
    `${CHAIN_NAMES[chain]} needs ${ACCEPTED[chain].expected}, not ${withArticle(prefix)}`,
  unknownKind: (chain: DepositChain) => `${CHAIN_NAMES[chain]} needs ${ACCEPTED[chain].expected}`,
  wrongDepth: (chain: DepositChain, depth: number) =>
    `This key is at depth ${depth}: ${CHAIN_NAMES[chain]} needs the account key, depth ${ACCOUNT_DEPTH} (${ACCEPTED[chain].path})`,
  notHardened: (chain: DepositChain) =>
    `This key is not an account key: ${CHAIN_NAMES[chain]} needs the key at ${ACCEPTED[chain].path}`,
  badPoint: "This key's public key is not a valid point: it was altered",
} as const;

const base58check = createBase58check(sha256);

/** Bytes of a serialized extended key: version(4) depth(1) parent(4) child(4) chain code(32) key(33). */
const SERIALIZED_LENGTH = 78;
const HARDENED = 0x80000000;

export type KeyReading = { ok: true; key: AccountKey } | { ok: false; error: string };

/** Reads and checks an extended public key for a chain; the refusal is the message a form shows. */
export function readAccountKey(text: string, chain: DepositChain): KeyReading {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, error: KEY_MESSAGES.required };
  const bytes = decode(trimmed);
  if (typeof bytes === "string") return { ok: false, error: bytes };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(0);
  const kind = KEY_KINDS.get(version);
  // The key byte says private (0x00) whatever the version claims: a relabelled private key is still refused.
  if (kind?.isPrivate || bytes[45] === 0) return { ok: false, error: KEY_MESSAGES.privateKey };
  if (!ACCEPTED[chain].versions.includes(version) || !kind) {
    return { ok: false, error: kind ? KEY_MESSAGES.wrongKind(chain, kind.prefix) : KEY_MESSAGES.unknownKind(chain) };
  }
  const depth = bytes[4] ?? 0;
  if (depth !== ACCOUNT_DEPTH) return { ok: false, error: KEY_MESSAGES.wrongDepth(chain, depth) };
  if (view.getUint32(9) < HARDENED) return { ok: false, error: KEY_MESSAGES.notHardened(chain) };
  try {
    // The private version is never used (there is no private part); it only has to differ from the public one.
    const key = HDKey.fromExtendedKey(trimmed, { public: version, private: version ^ 1 });
    return { ok: true, key: { chain, network: kind.network, kind: kind.prefix, key } };
  } catch {
    return { ok: false, error: KEY_MESSAGES.badPoint };
  }
}

/** The key's bytes, or the message for a text that is not one (not base58, wrong length, bad checksum). */
function decode(text: string): Uint8Array | string {
  // Every serialized key is 111 base58 characters; a text far from it is something else (an address, half a key).
  if (!/^[1-9A-HJ-NP-Za-km-z]{100,120}$/.test(text)) return KEY_MESSAGES.notAKey;
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(text);
  } catch {
    // Base58 alphabet checked above: a failure here is the checksum (a cut key also fails it).
    return KEY_MESSAGES.badChecksum;
  }
  return bytes.length === SERIALIZED_LENGTH ? bytes : KEY_MESSAGES.notAKey;
}
