/** The desk's two cards: Total Users and Active Alerts (requests waiting for a decision). */
export function DeskCounts({ counts }: { counts: { totalUsers: number; activeAlerts: number } }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <CountCard title="Total Users" testId="total-users" value={counts.totalUsers} />
      <CountCard title="Active Alerts" testId="active-alerts" value={counts.activeAlerts} tone="text-pending" />
    </div>
  );
}

/** One count: its title and the figure, in the figure's colour when it has one. */
function CountCard({ title, testId, value, tone }: { title: string; testId: string; value: number; tone?: string }) {
  return (
    <article className="rounded-xl border border-border bg-surface p-5">
      <h2 className="text-sm text-ink-muted">{title}</h2>
      <p className={tone ? `mt-1 text-3xl font-semibold ${tone}` : "mt-1 text-3xl font-semibold"} data-testid={testId}>
        {value}
      </p>
    </article>
  );
}
