/**
 * The client's mail that a request of theirs was decided (approved or rejected), for the decision's own batch.
 * Whatever path decides (an admin's approve or reject, a second admin's approval of a proposal), the notice
 * is this one insert: it is written only when the decision it reports is in the database (same status, decider
 * and time, so a decision that lost a race mails nothing) and at most once per transaction (its dedupe key).
 */
import { sql } from "drizzle-orm";
import { typeLabel } from "~/lib/labels";
import type { TransactionType } from "~/lib/ledger";
import { reservesWhilePending } from "~/lib/money/rules";
import { transactionReference } from "~/lib/reference";
import { enqueueEmailFor } from "../mail/outbox.server";

export interface DecidedRequest {
  id: number;
  transactionType: TransactionType;
  amountCents: number;
  createdAt: number;
  /** The client's first name, as every mail greets them ("" when unknown). */
  name: string;
}

interface Decision {
  status: "approved" | "rejected";
  decidedBy: string;
  decidedAt: number;
  reason?: string | null;
}

export function requestDecidedNotice(request: DecidedRequest, decision: Decision) {
  const reason = decision.status === "rejected" ? decision.reason?.trim() || undefined : undefined;
  return enqueueEmailFor({
    template: "request_decided",
    data: {
      name: request.name,
      decision: decision.status,
      requestType: typeLabel(request.transactionType),
      // A rejected request that reserved money while pending (a withdrawal) gives it back: the mail says so.
      ...(decision.status === "rejected" && reservesWhilePending(request.transactionType)
        ? { reserveReleased: true }
        : {}),
      amount: request.amountCents / 100,
      requestedAt: request.createdAt,
      reference: transactionReference(request.id),
      transactionId: request.id,
      ...(reason ? { reason } : {}),
    },
    to: sql`users.email`,
    from: sql`transactions JOIN users ON users.id = transactions.user_id
              WHERE transactions.id = ${request.id} AND transactions.status = ${decision.status}
                AND transactions.decided_by = ${decision.decidedBy} AND transactions.decided_at = ${decision.decidedAt}`,
    dedupeKey: sql`${`request_decided:tx:${request.id}`}`,
  });
}
