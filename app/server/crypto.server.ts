import { sha256 } from "@oslojs/crypto/sha2";
import { constantTimeEqual as bytesEqual } from "@oslojs/crypto/subtle";
import { encodeBase64urlNoPadding, encodeHexLowerCase } from "@oslojs/encoding";

/**
 * The crypto helpers sessions, tokens and API auth share, on @oslojs (plain JavaScript, so they run alike in
 * workerd and Node). The async signatures are kept so that callers need not care how the hash is computed.
 */

const utf8 = (value: string) => new TextEncoder().encode(value);

/** `bytes` random bytes as unpadded base64url (43 characters for the default 32). */
export function randomToken(bytes = 32): string {
  return encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** SHA-256 of the UTF-8 text, as 64 lowercase hex digits. */
export async function sha256Hex(value: string): Promise<string> {
  return encodeHexLowerCase(sha256(utf8(value)));
}

/** Compares two secrets without leaking, through timing, how much of them matched. */
export async function constantTimeEqual(a: string, b: string): Promise<boolean> {
  // Hashing first makes the inputs equal-length, so the comparison time does not reveal the length either.
  return bytesEqual(sha256(utf8(a)), sha256(utf8(b)));
}
