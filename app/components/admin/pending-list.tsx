import { Link } from "react-router";
import { CopyButton } from "~/components/copy-button";
import { useListNavigation } from "~/components/list-navigation";
import { formatCents, formatLongDate } from "~/lib/format";
import type { VerificationLevel } from "~/lib/verification";
import { WatchBadge } from "./client-flags";
import { NewAddressBadge } from "./transactions-table";
import { VerificationLevelBadge } from "./verification-level";

/**
 * What the rows share, set once on the list rather than on every row: each row's layout, the name link, the muted
 * figures, and the payout line (the row's third part, when a withdrawal waits) with its address.
 */
const ROWS_CLASS = [
  "mt-4 divide-y divide-border",
  "[&>li]:flex [&>li]:flex-wrap [&>li]:items-center [&>li]:justify-between [&>li]:gap-2 [&>li]:py-2 [&>li]:text-sm",
  "[&>li>a]:font-medium [&>li>a]:text-brand [&>li>a]:hover:underline [&>li>span:nth-child(2)]:text-ink-muted",
  "[&>li>span:nth-child(3)]:flex [&>li>span:nth-child(3)]:w-full [&>li>span:nth-child(3)]:flex-wrap",
  "[&>li>span:nth-child(3)]:items-center [&>li>span:nth-child(3)]:gap-2 [&>li>span:nth-child(3)]:text-xs",
  "[&>li>span:nth-child(3)]:text-ink-muted [&_code]:break-all [&_code]:font-mono [&_code]:text-ink",
].join(" ");

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
    /** Whether the client carries the Watch flag, shown with the waiting withdrawal. */
    watched?: boolean;
    /** The client's verification level, shown with a waiting withdrawal. */
    level?: VerificationLevel;
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
        <ul className={ROWS_CLASS} onClick={followLink}>
          {pending.map((group) => (
            <li key={group.userId}>
              <a href={`/user/${group.userId}`}>{group.name}</a>
              <span>
                {`${group.count} pending · in ${formatCents(group.incomingCents)} · out ${formatCents(group.outgoingCents)} · since ${formatLongDate(group.oldest)}`}
              </span>
              {group.payout ? (
                <span>
                  {`${group.withdrawals > 1 ? "Oldest withdrawal pays out" : "Withdrawal pays out"}${group.payout.currency ? ` in ${group.payout.currency}` : ""} to`}
                  <code data-testid="pending-payout-address">{group.payout.address}</code>
                  <CopyButton value={group.payout.address} />
                  {group.payout.isNew ? <NewAddressBadge /> : null}
                  {group.watched ? <WatchBadge /> : null}
                  {group.level ? <VerificationLevelBadge level={group.level} /> : null}
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
