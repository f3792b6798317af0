import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import type { PayoutView } from "~/lib/chain/payouts";
import type { loader as activityLoader } from "~/routes/dashboard.activity";
import { Empty, Panel, ViewAll } from "./panels";
import { type DashboardRow, TransactionList } from "./transaction-list";

/** Recent Activity: the latest 5; "Show All" pages through the rest on demand, 20 at a time. */
export function RecentActivity({
  rows,
  hasMore,
  payouts,
}: {
  rows: DashboardRow[];
  hasMore: boolean;
  /** The accepted payouts of the withdrawals shown, by id. */
  payouts: Record<number, PayoutView>;
}) {
  const [expanded, setExpanded] = useState(false);
  const pages = useFetcher<typeof activityLoader>();
  const [all, setAll] = useState<DashboardRow[]>([]);
  const [morePayouts, setMorePayouts] = useState<Record<number, PayoutView>>({});

  useEffect(() => {
    const page = pages.data;
    if (!page) return;
    setMorePayouts((current) => ({ ...current, ...page.payouts }));
    setAll((current) => {
      const seen = new Set(current.map((row) => row.id));
      return [...current, ...page.rows.filter((row) => !seen.has(row.id))];
    });
  }, [pages.data]);

  const nextCursor = pages.data?.nextCursor ?? null;
  const loading = pages.state !== "idle";
  const toggle = hasMore ? (
    <button
      type="button"
      className="text-sm font-medium text-brand hover:underline"
      aria-expanded={expanded}
      onClick={() => {
        if (!expanded && all.length === 0) pages.load("/dashboard/activity");
        setExpanded(!expanded);
      }}
    >
      {expanded ? "Show Less" : "Show All"}
    </button>
  ) : null;

  return (
    <Panel
      title="Recent Activity"
      action={
        <div className="flex items-center gap-3">
          {toggle}
          <ViewAll filters={{ status: "approved" }} what="completed activity" />
        </div>
      }
    >
      {rows.length === 0 ? <Empty>No recent completed activity</Empty> : null}
      {rows.length > 0 ? (
        <TransactionList rows={expanded && all.length > 0 ? all : rows} payouts={{ ...payouts, ...morePayouts }} />
      ) : null}
      {expanded && nextCursor ? (
        <button
          type="button"
          className="mt-3 text-sm font-medium text-brand hover:underline"
          onClick={() => pages.load(`/dashboard/activity?before=${nextCursor}`)}
          disabled={loading}
        >
          {loading ? "Loading..." : "Load more"}
        </button>
      ) : null}
    </Panel>
  );
}
