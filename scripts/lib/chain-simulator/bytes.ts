/**
 * Byte helpers for the chain simulator's serializations: hex both ways, little-endian integers, Bitcoin's varint and
 * double SHA-256, and decimal amounts in coins read as whole base units (no floating point near money).
 */
import { sha256 } from "@noble/hashes/sha2.js";

export const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
export const fromHex = (hex: string) => new Uint8Array(Buffer.from(hex.replace(/^0x/, ""), "hex"));
/** Bitcoin shows hashes byte-reversed: the txid and block hash people read are the digest backwards. */
export const reversedHex = (bytes: Uint8Array) => toHex(Uint8Array.from(bytes).reverse());
export const fromReversedHex = (hex: string) => fromHex(hex).reverse();

export const randomBytes = (length: number) => crypto.getRandomValues(new Uint8Array(length));
export const sha256d = (bytes: Uint8Array) => sha256(sha256(bytes));
/** A stable 32-byte digest of some words: hashes and addresses that are the same every run for the same world. */
export const digestOf = (...parts: Array<string | number>) => sha256(new TextEncoder().encode(parts.join("|")));

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export function uint32LE(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value >>> 0, true);
  return out;
}

export function uint64LE(value: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value, true);
  return out;
}

export function varint(value: number): Uint8Array {
  if (value < 0xfd) return Uint8Array.of(value);
  if (value <= 0xffff) return Uint8Array.of(0xfd, value & 0xff, value >> 8);
  return concat(Uint8Array.of(0xfe), uint32LE(value));
}

/** A length-prefixed byte string, as scripts and witness items are written. */
export const withLength = (bytes: Uint8Array) => concat(varint(bytes.length), bytes);

/** `"0.01"` with 8 decimals → 1000000n; null when it is not a plain positive decimal with at most that many places. */
export function baseUnits(amount: string, decimals: number): bigint | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) return null;
  const [, whole = "0", fraction = ""] = match;
  if (fraction.length > decimals) return null;
  const units = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0");
  return units > 0n ? units : null;
}

/** 1000000n with 8 decimals → "0.01": base units back to a coin amount for people. */
export function coins(units: bigint, decimals: number): string {
  const text = units.toString().padStart(decimals + 1, "0");
  const whole = text.slice(0, text.length - decimals);
  const fraction = text.slice(text.length - decimals).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

export const quantity = (value: bigint | number) => `0x${value.toString(16)}`;
/** A 32-byte big-endian word, as Ethereum's log data and topics hold numbers and addresses. */
export const word = (hex: string) => `0x${hex.replace(/^0x/, "").padStart(64, "0")}`;
