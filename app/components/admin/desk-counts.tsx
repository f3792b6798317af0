import { Link } from "react-router";

/**
 * The desk's cards: Total Users, Pending requests (requests waiting for a decision), Verifications (identity
 * verifications awaiting review, which opens their queue) and, for those who review them, Open monitoring alerts
 * (which opens the alert queue).
 */
export function DeskCounts({
  counts,
  queueLink,
}: {
  /** `openAlerts` is null for a viewer who does not review monitoring alerts: the card is not shown. */
  counts: { totalUsers: number; pendingRequests: number; awaitingReview: number; openAlerts: number | null };
  /** Whether the viewer may open the verification queue (the card's title links there only then). */
  queueLink: boolean;
}) {
  return (
    <div className={`grid gap-4 ${counts.openAlerts === null ? "sm:grid-cols-3" : "sm:grid-cols-2 lg:grid-cols-4"}`}>
      <CountCard title="Total Users" testId="total-users" value={counts.totalUsers} />
      <CountCard
        title="Pending requests"
        testId="pending-requests"
        value={counts.pendingRequests}
        tone="text-pending"
      />
      <CountCard
        title="Verifications awaiting review"
        testId="awaiting-review"
        value={counts.awaitingReview}
        tone="text-pending"
        to={queueLink ? "/admin/verifications" : undefined}
      />
      {counts.openAlerts === null ? null : (
        <CountCard
          title="Open monitoring alerts"
          testId="open-alerts"
          value={counts.openAlerts}
          tone="text-pending"
          to="/admin/alerts"
        />
      )}
    </div>
  );
}

/** One count: its title (a link to its list when it has one) and the figure, in the figure's colour when it has one. */
function CountCard({
  title,
  testId,
  value,
  tone,
  to,
}: {
  title: string;
  testId: string;
  value: number;
  tone?: string;
  to?: string;
}) {
  return (
    <article className="rounded-xl border border-border bg-surface p-5">
      <h2 className="text-sm text-ink-muted">
        {to ? (
          <Link to={to} className="text-brand hover:underline">
            {title}
          </Link>
        ) : (
          title
        )}
      </h2>
      <p className={tone ? `mt-1 text-3xl font-semibold ${tone}` : "mt-1 text-3xl font-semibold"} data-testid={testId}>
        {value}
      </p>
    </article>
  );
}
