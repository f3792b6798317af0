/**
 * The one-click cancel link of a withdrawal to a new payout address: a signed token naming the request and its
 * owner, `<transaction id>.<owner id>.<HMAC-SHA-256>`. Nothing is stored for it: it is single-use because it
 * only ever cancels a pending request, and a request is pending once (the database never lets a cancelled or
 * decided row change again). The key is derived from SESSION_SECRET for this purpose alone, so a MAC made here
 * means nothing anywhere else, and no other signature of ours can pass for one of these.
 */
import { hmac } from "@oslojs/crypto/hmac";
import { SHA256 } from "@oslojs/crypto/sha2";
import { constantTimeEqual } from "@oslojs/crypto/subtle";
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";

const PURPOSE = "cancel-request-link/v1";
const utf8 = (value: string) => new TextEncoder().encode(value);

function purposeKey(secret: string): Uint8Array {
  return hmac(SHA256, utf8(secret), utf8(PURPOSE));
}

function mac(secret: string, transactionId: number, ownerId: string): Uint8Array {
  return hmac(SHA256, purposeKey(secret), utf8(`${transactionId}.${ownerId}`));
}

/** Synchronous, so mails can render it at delivery from the stored ids (the outbox keeps no live token). */
export function signCancelToken(secret: string, transactionId: number, ownerId: string): string {
  return `${transactionId}.${ownerId}.${encodeBase64urlNoPadding(mac(secret, transactionId, ownerId))}`;
}

export function cancelLink(origin: string, secret: string, transactionId: number, ownerId: string): string {
  return `${origin}/cancel-request?token=${signCancelToken(secret, transactionId, ownerId)}`;
}

/** The request and owner a token names, or null for anything not signed by us (compared in constant time). */
export function readCancelToken(
  secret: string,
  token: string | null | undefined,
): { transactionId: number; ownerId: string } | null {
  if (!token || token.length > 300) return null;
  const match = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, id, ownerId, signature] = match as unknown as [string, string, string, string];
  const transactionId = Number(id);
  if (!Number.isSafeInteger(transactionId)) return null;
  let given: Uint8Array;
  try {
    given = decodeBase64urlIgnorePadding(signature);
  } catch {
    return null;
  }
  const expected = mac(secret, transactionId, ownerId);
  if (given.length !== expected.length || !constantTimeEqual(given, expected)) return null;
  return { transactionId, ownerId };
}
