/** What a client may cancel is the rules table's (`CANCELLABLE` in app/lib/money/constraints.ts). */
export { isCancellable } from "~/lib/money/rules";

/** What clients and admins read about cancelling and deciding a client's request. */
export const CANCEL_MESSAGES = {
  cancelled: "Request cancelled",
  // The same words for "no such request" and "someone else's": a guess never learns that an id exists.
  notFound: "Request not found",
  notCancellable: "Only a pending deposit, stock deposit or withdrawal can be cancelled.",
  alreadyCancelled: "This request was already cancelled.",
  alreadyDecided: "This request has already been decided and can no longer be cancelled.",
  invalidLink: "This cancel link is not valid. Open the link from the e-mail again, or cancel from your dashboard.",
} as const;

/** The longest reason an admin may give for a rejection (the client reads it in the decision mail). */
export const REASON_MAX_LENGTH = 500;
export const REASON_TOO_LONG = `The reason can be at most ${REASON_MAX_LENGTH} characters.`;

/** An optional free-text reason: trimmed, empty means none; null when it is too long. */
export function parseReason(value: FormDataEntryValue | null): { ok: true; reason: string | null } | { ok: false } {
  const text = typeof value === "string" ? value.trim() : "";
  if (text.length > REASON_MAX_LENGTH) return { ok: false };
  return { ok: true, reason: text || null };
}
