/**
 * How each chain writes an address from a secp256k1 public key (33 bytes, compressed, as BIP32 gives it).
 * Each is the chain's own published rule, with the audited hashes and codecs; nothing here is hand-rolled but
 * the byte layout, so a wrong layout shows against the published vectors in tests/worker/deposit-addresses.test.ts.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { bech32, createBase58check } from "@scure/base";

/** BIP173's human-readable parts. Bitcoin Core's regtest writes `bcrt`; this portal runs tests on testnet or signet. */
export const SEGWIT_PREFIXES = { mainnet: "bc", testnet: "tb" } as const;

/** TRON's address version byte: every address starts with 0x41, written `T…` (TRON docs, "Account"). */
const TRON_PREFIX = 0x41;

const base58check = createBase58check(sha256);

/** BIP141 P2WPKH: witness version 0 and the key's HASH160, in bech32 (BIP173). */
export function segwitAddress(publicKey: Uint8Array, prefix: string): string {
  return p2wpkhAddress(ripemd160(sha256(publicKey)), prefix);
}

/** The P2WPKH address of a 20-byte witness program, as a block's output script carries it. */
export function p2wpkhAddress(program: Uint8Array, prefix: string): string {
  return bech32.encode(prefix, [0, ...bech32.toWords(program)]);
}

/** The last 20 bytes of Keccak-256 of the uncompressed key without its 0x04 byte: Ethereum's and TRON's account. */
function accountBytes(publicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(12);
}

/** EIP-55: each hex letter upper-cased where the Keccak-256 of the lower-case hex has a nibble of 8 or more. */
export function ethereumAddress(publicKey: Uint8Array): string {
  return checksummedHex(bytesToHex(accountBytes(publicKey)));
}

export function checksummedHex(lowerHex: string): string {
  const hash = bytesToHex(keccak_256(new TextEncoder().encode(lowerHex)));
  let out = "0x";
  for (let i = 0; i < lowerHex.length; i++) {
    const char = lowerHex.charAt(i);
    out += Number.parseInt(hash.charAt(i), 16) >= 8 ? char.toUpperCase() : char;
  }
  return out;
}

/** TRON: the Ethereum account bytes behind 0x41, in base58check (double SHA-256 checksum). */
export function tronAddress(publicKey: Uint8Array): string {
  return tronFromBytes(accountBytes(publicKey));
}

/** A TRON address from its 20 account bytes; apart so the encoding can be checked on TRON's own examples. */
export function tronFromBytes(account: Uint8Array): string {
  const payload = new Uint8Array(21);
  payload[0] = TRON_PREFIX;
  payload.set(account, 1);
  return base58check.encode(payload);
}
