import { Moment } from "~/components/moment";
import { formatCents } from "~/lib/format";

/** The client page's Stocks (approved stock deposits by stock) and Fee Deposits lists, side by side. */
export function ClientHoldings({
  stocks,
  feeDeposits,
}: {
  stocks: Array<{ stock: string | null; cents: number }>;
  feeDeposits: Array<{ id: number; createdAt: number; amountCents: number }>;
}) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <article className="rounded-xl border border-border bg-surface p-5">
        <h2 className="text-lg font-semibold">Stocks</h2>
        {stocks.length === 0 ? (
          <p className="mt-3 text-sm text-ink-muted">No recent stock deposits</p>
        ) : (
          <ul className="mt-3 divide-y divide-border text-sm">
            {stocks.map((s) => (
              <li key={s.stock} className="flex justify-between py-2">
                <span className="font-medium">{s.stock}</span>
                <span className="tabular-nums">{formatCents(s.cents)}</span>
              </li>
            ))}
          </ul>
        )}
      </article>
      <article className="rounded-xl border border-border bg-surface p-5">
        <h2 className="text-lg font-semibold">Fee Deposits</h2>
        {feeDeposits.length === 0 ? (
          <p className="mt-3 text-sm text-ink-muted">No fee deposits</p>
        ) : (
          <ul className="mt-3 divide-y divide-border text-sm">
            {feeDeposits.map((fee) => (
              <li key={fee.id} className="flex justify-between py-2">
                <Moment at={fee.createdAt} />
                <span className="tabular-nums">{formatCents(fee.amountCents)}</span>
              </li>
            ))}
          </ul>
        )}
      </article>
    </div>
  );
}
