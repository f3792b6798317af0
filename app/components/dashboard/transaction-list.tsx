import { CancelRequestButton } from "~/components/cancel-request-button";
import { PayoutLine } from "~/components/payout-line";
import { SignedAmount } from "~/components/signed-amount";
import type { PayoutView } from "~/lib/chain/payouts";
import { formatMediumDate } from "~/lib/format";
import { dashboardTypeLabel, statusLabel } from "~/lib/labels";
import type { TransactionStatus } from "~/lib/ledger";
import { transactionReference } from "~/lib/reference";
import { offersCancel } from "~/lib/schemas/requests";
import type { dashboardData } from "~/server/ledger/reads.server";

/** One row of the dashboard's lists, as the dashboard's read gives it (pending rows say who made them). */
export type DashboardRow = Awaited<ReturnType<typeof dashboardData>>["recentActivity"][number] & {
  madeByClient?: boolean;
};

const STATUS_STYLES: Record<TransactionStatus, string> = {
  approved: "bg-success/15 text-success",
  pending: "bg-pending/15 text-pending",
  rejected: "bg-danger/15 text-danger",
  cancelled: "bg-ink-muted/15 text-ink-muted",
};

function StatusBadge({ status }: { status: TransactionStatus }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium capitalize ${STATUS_STYLES[status]}`}>
      {statusLabel(status, "clientPanel")}
    </span>
  );
}

export function TransactionList({
  rows,
  showStatus = false,
  cancellable = false,
  payouts = {},
}: {
  rows: DashboardRow[];
  /** Accepted payouts of withdrawals among the rows, by id: the transaction shown under its row. */
  payouts?: Record<number, PayoutView>;
  showStatus?: boolean;
  /** Pending rows the client made get their 'Cancel' (the Pending & Declined panel). */
  cancellable?: boolean;
}) {
  return (
    <ul className="divide-y divide-border">
      {rows.map((row) => (
        <li
          key={row.id}
          data-status={row.status}
          className={`flex flex-wrap items-center justify-between gap-3 py-2 text-sm ${row.status === "cancelled" ? "opacity-60" : ""}`}
        >
          <div className="min-w-0">
            <p className="font-medium">
              {dashboardTypeLabel(row.transactionType)}
              {row.tradingPair ? <span className="ml-2 text-ink-muted">{row.tradingPair}</span> : null}
              {row.stock ? <span className="ml-2 text-ink-muted">{row.stock}</span> : null}
            </p>
            <p className="text-xs text-ink-muted">
              {formatMediumDate(row.createdAt)}
              <span className="ml-2 font-mono">{transactionReference(row.id)}</span>
            </p>
            {payouts[row.id] ? <PayoutLine payout={payouts[row.id] as PayoutView} /> : null}
          </div>
          <div className="flex shrink-0 items-center gap-2">
            {showStatus ? <StatusBadge status={row.status} /> : null}
            <SignedAmount type={row.transactionType} status={row.status} cents={row.amountCents} />
            {cancellable && offersCancel(row) ? <CancelRequestButton request={row} /> : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
