import { STATUS_LABELS } from "~/lib/labels";
import type { TransactionStatus } from "~/lib/ledger";

/** A status as a coloured pill: one short class per status (`status-badge-…`, app/tailwind.css), 50 of them a page. */
export function TransactionStatusBadge({ status }: { status: TransactionStatus }) {
  return <span className={`status-badge-${status}`}>{STATUS_LABELS.client[status]}</span>;
}
