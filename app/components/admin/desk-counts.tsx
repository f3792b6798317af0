/** The desk's two cards: Total Users and Active Alerts (requests waiting for a decision). */
export function DeskCounts({ counts }: { counts: { totalUsers: number; activeAlerts: number } }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <article className="rounded-xl border border-border bg-surface p-5">
        <h2 className="text-sm text-ink-muted">Total Users</h2>
        <p className="mt-1 text-3xl font-semibold" data-testid="total-users">
          {counts.totalUsers}
        </p>
      </article>
      <article className="rounded-xl border border-border bg-surface p-5">
        <h2 className="text-sm text-ink-muted">Active Alerts</h2>
        <p className="mt-1 text-3xl font-semibold text-pending" data-testid="active-alerts">
          {counts.activeAlerts}
        </p>
      </article>
    </div>
  );
}
