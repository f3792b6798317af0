import { formatCents } from "~/lib/format";
import { isCredit, type TransactionStatus, type TransactionType } from "~/lib/ledger";

/**
 * A transaction's amount with its direction. Only approved money is coloured (green in, red out): a pending
 * request is shown neutral, and a declined one grey and struck through, so neither reads as money moved.
 */
export function SignedAmount({
  type,
  status,
  cents,
}: {
  type: TransactionType;
  status: TransactionStatus;
  cents: number;
}) {
  const credit = isCredit(type);
  const tone =
    status === "approved"
      ? credit
        ? "text-success"
        : "text-danger"
      : status === "pending"
        ? "text-ink"
        : "text-ink-muted line-through";
  return (
    <span className={`font-semibold tabular-nums ${tone}`} data-status={status}>
      {credit ? "+" : "−"}
      {formatCents(cents)}
    </span>
  );
}
