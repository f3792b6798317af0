/** The top of a statement or a yearly summary: the firm, the title, the period, and who it is for. */
import { useBrand } from "~/lib/brand";
import { formatLongDate } from "~/lib/format";

type Covered = { periodStart: number; periodEnd: number; holder: string; email: string; accountId: string };

export function StatementHeader({ title, s }: { title: string; s: Covered }) {
  const brand = useBrand();
  return (
    <header className="flex flex-wrap items-start justify-between gap-4 border-b border-border pb-4">
      <div>
        <p className="text-lg font-bold">{brand}</p>
        <h1 className="text-2xl font-bold">{title}</h1>
        <p className="text-ink-muted">
          Period: {formatLongDate(s.periodStart)} – {formatLongDate(s.periodEnd)} (UTC)
        </p>
      </div>
      <dl className="text-sm sm:text-right">
        <dt className="text-ink-muted">Account holder</dt>
        <dd className="font-medium">{s.holder}</dd>
        <dt className="mt-2 text-ink-muted">E-mail</dt>
        <dd className="break-all font-medium">{s.email}</dd>
        <dt className="mt-2 text-ink-muted">Account ID</dt>
        <dd className="break-all font-medium">{s.accountId}</dd>
      </dl>
    </header>
  );
}
