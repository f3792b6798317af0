import type { TransactionStatus } from "~/lib/ledger";

/** How the client's screens name a status: a rejected request reads 'Declined'. */
export const STATUS_LABELS: Record<TransactionStatus, string> = {
  pending: "Pending",
  approved: "Approved",
  rejected: "Declined",
  cancelled: "Cancelled",
};

const STATUS_STYLES: Record<TransactionStatus, string> = {
  approved: "bg-success/15 text-success",
  pending: "bg-pending/15 text-pending",
  rejected: "bg-danger/15 text-danger",
  cancelled: "bg-ink-muted/15 text-ink-muted",
};

export function TransactionStatusBadge({ status }: { status: TransactionStatus }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_STYLES[status]}`}>
      {STATUS_LABELS[status]}
    </span>
  );
}
