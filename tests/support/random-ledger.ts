import fc from "fast-check";
import { TRANSACTION_TYPES, type TransactionStatus, type TransactionType } from "~/lib/ledger";

/**
 * Random ledgers for the property tests of the projections (statements' `ledger_months`, the charts' `ledger_days`):
 * requests of every type left pending or decided some time after they were made, and admin entries approved as
 * they are written.
 */
export interface LedgerOperation {
  transactionType: TransactionType;
  amountCents: number;
  createdAt: number;
  /** What becomes of the request; "entry" is an admin's entry, approved as it is written. */
  fate: "pending" | "approved" | "rejected" | "cancelled" | "entry";
  /** How long after the request its decision came. */
  delay: number;
}

/** Only a client's own requests of these types can be cancelled; another type's "cancelled" fate is a rejection. */
const CANCELLABLE: readonly TransactionType[] = ["deposit", "stock_deposit", "withdraw"];

export function ledgerOperations(options: {
  from: number;
  to: number;
  maxCents: number;
  maxDelay: number;
  minLength?: number;
  maxLength: number;
}) {
  return fc.array(
    fc.record<LedgerOperation>({
      transactionType: fc.constantFrom(...TRANSACTION_TYPES),
      amountCents: fc.integer({ min: 1, max: options.maxCents }),
      createdAt: fc.integer({ min: options.from, max: options.to }),
      fate: fc.constantFrom<LedgerOperation["fate"]>("pending", "approved", "rejected", "cancelled", "entry"),
      delay: fc.integer({ min: 0, max: options.maxDelay }),
    }),
    { minLength: options.minLength ?? 0, maxLength: options.maxLength },
  );
}

/**
 * What a request operation ends as: its status, when it was decided (never after `latest`) and when its money moved
 * (the decision of an approved row, else its writing).
 */
export function decided(op: LedgerOperation, latest = Number.POSITIVE_INFINITY) {
  let status: TransactionStatus = op.fate === "entry" ? "approved" : op.fate;
  if (status === "cancelled" && !CANCELLABLE.includes(op.transactionType)) status = "rejected";
  const decidedAt = op.fate === "entry" ? op.createdAt : Math.min(op.createdAt + op.delay, latest);
  return { status, decidedAt, movedAt: status === "approved" ? decidedAt : op.createdAt };
}
