/**
 * The one-click cancel link of a withdrawal to a new payout address: a signed token naming the request and its
 * owner (app/server/signed-link.server.ts). Nothing is stored for it: it only ever cancels a pending request, and a
 * request is pending once (the database never lets a cancelled or decided row change again).
 */
import { signedIdLink } from "../signed-link.server";

const requestCancel = signedIdLink("cancel-request-link/v1");

export function signCancelToken(secret: string, transactionId: number, ownerId: string): string {
  return requestCancel.sign(secret, transactionId, ownerId);
}

export function cancelLink(origin: string, secret: string, transactionId: number, ownerId: string): string {
  return `${origin}/cancel-request?token=${signCancelToken(secret, transactionId, ownerId)}`;
}

/** The request and owner a token names, or null for anything not signed by us (compared in constant time). */
export function readCancelToken(
  secret: string,
  token: string | null | undefined,
): { transactionId: number; ownerId: string } | null {
  const read = requestCancel.read(secret, token);
  return read ? { transactionId: read.id, ownerId: read.ownerId } : null;
}
