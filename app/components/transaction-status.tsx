import type { TransactionStatus } from "~/lib/ledger";

/** How the client's screens name a status: a rejected request reads 'Declined'. */
export const STATUS_LABELS: Record<TransactionStatus, string> = {
  pending: "Pending",
  approved: "Approved",
  rejected: "Declined",
  cancelled: "Cancelled",
};

/** A status as a coloured pill: one short class per status (`status-badge-…`, app/tailwind.css), 50 of them a page. */
export function TransactionStatusBadge({ status }: { status: TransactionStatus }) {
  return <span className={`status-badge-${status}`}>{STATUS_LABELS[status]}</span>;
}
