/** What a client may cancel is the rules table's (`CANCELLABLE` in app/lib/money/constraints.ts). */
export { isCancellable, offersCancel } from "~/lib/money/constraints";

/** What clients and admins read about cancelling and deciding a client's request. */
export const CANCEL_MESSAGES = {
  cancelled: "Request cancelled",
  // The same words for "no such request" and "someone else's": a guess never learns that an id exists.
  notFound: "Request not found",
  notCancellable: "Only a pending deposit, stock deposit or withdrawal can be cancelled.",
  /** A deposit seen on chain and held: the watcher wrote it, not the client. */
  receivedOnChain: "This deposit was received on chain and is with our desk for review: it cannot be cancelled.",
  alreadyCancelled: "This request was already cancelled.",
  alreadyDecided: "This request has already been decided and can no longer be cancelled.",
  invalidLink: "This cancel link is not valid. Open the link from the e-mail again, or cancel from your dashboard.",
} as const;
