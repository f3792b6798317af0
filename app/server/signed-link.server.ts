/**
 * Links that act without a stored token: `<row id>.<owner id>.<HMAC-SHA-256>`, signed with a key derived from
 * SESSION_SECRET for one purpose alone, so a MAC made for one purpose means nothing for another, and no other
 * signature of ours can pass for one of these. A link is single-use because what it does (cancel a pending row)
 * can happen only once; it is not secret from its owner's mailbox, which is the point.
 */
import { hmac } from "@oslojs/crypto/hmac";
import { SHA256 } from "@oslojs/crypto/sha2";
import { constantTimeEqual } from "@oslojs/crypto/subtle";
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";

const utf8 = (value: string) => new TextEncoder().encode(value);

export interface SignedIdLink {
  /** Synchronous, so mails can render it at delivery from stored ids (the outbox keeps no live token). */
  sign: (secret: string, id: number, ownerId: string) => string;
  /** The row and owner a token names, or null for anything not signed for this purpose (constant-time compare). */
  read: (secret: string, token: string | null | undefined) => { id: number; ownerId: string } | null;
}

export function signedIdLink(purpose: string): SignedIdLink {
  const mac = (secret: string, id: number, ownerId: string) =>
    hmac(SHA256, hmac(SHA256, utf8(secret), utf8(purpose)), utf8(`${id}.${ownerId}`));
  return {
    sign: (secret, id, ownerId) => `${id}.${ownerId}.${encodeBase64urlNoPadding(mac(secret, id, ownerId))}`,
    read(secret, token) {
      if (!token || token.length > 300) return null;
      const match = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match) return null;
      const [, idText, ownerId, signature] = match as unknown as [string, string, string, string];
      const id = Number(idText);
      if (!Number.isSafeInteger(id)) return null;
      let given: Uint8Array;
      try {
        given = decodeBase64urlIgnorePadding(signature);
      } catch {
        return null;
      }
      const expected = mac(secret, id, ownerId);
      if (given.length !== expected.length || !constantTimeEqual(given, expected)) return null;
      return { id, ownerId };
    },
  };
}
