import { Link } from "@remix-run/react";
import { CopyButton } from "~/components/copy-button";
import { formatCents, formatLongDate } from "~/lib/format";
import { useListNavigation } from "./list-navigation";
import { NewAddressBadge } from "./transactions-table";

/**
 * The desk's collapsible Pending Transactions list: the clients who have waited longest, oldest first, and a link to
 * every pending request on /admin/transactions.
 */
export function PendingList({
  pending,
}: {
  pending: Array<{
    userId: string;
    name: string;
    count: number;
    incomingCents: number;
    outgoingCents: number;
    oldest: number;
    /** Pending withdrawals, and where the oldest one pays out. */
    withdrawals: number;
    payout: { address: string; currency: string | null; isNew?: boolean } | null;
  }>;
}) {
  const followLink = useListNavigation();
  return (
    <details open className="rounded-xl border border-border bg-surface p-5">
      <summary className="cursor-pointer text-lg font-semibold">Pending Transactions</summary>
      {pending.length === 0 ? (
        <p className="mt-4 text-sm text-ink-muted">No pending transactions found.</p>
      ) : (
        // biome-ignore lint/a11y/useKeyWithClickEvents: the clicks are the links', which the keyboard fires too
        <ul className="mt-4 divide-y divide-border" onClick={followLink}>
          {pending.map((group) => (
            <li key={group.userId} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <a href={`/user/${group.userId}`} className="font-medium text-brand hover:underline">
                {group.name}
              </a>
              <span className="text-ink-muted">
                {`${group.count} pending · in ${formatCents(group.incomingCents)} · out ${formatCents(group.outgoingCents)} · since ${formatLongDate(group.oldest)}`}
              </span>
              {group.payout ? (
                <span className="flex w-full flex-wrap items-center gap-2 text-xs text-ink-muted">
                  {`${group.withdrawals > 1 ? "Oldest withdrawal pays out" : "Withdrawal pays out"}${group.payout.currency ? ` in ${group.payout.currency}` : ""} to`}
                  <code className="break-all font-mono text-ink" data-testid="pending-payout-address">
                    {group.payout.address}
                  </code>
                  <CopyButton value={group.payout.address} />
                  {group.payout.isNew ? <NewAddressBadge /> : null}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {pending.length > 0 ? (
        <p className="mt-3 text-sm">
          <Link to="/admin/transactions?status=pending" className="text-brand hover:underline">
            All pending transactions
          </Link>
        </p>
      ) : null}
    </details>
  );
}
