import { Link } from "react-router";
import { Moment } from "~/components/moment";
import { StackedTable } from "~/components/stacked-table";
import { formatCents, formatUsd } from "~/lib/format";
import type { Position } from "~/server/ledger/portfolio.server";

const FIGURE = { className: "py-2 pr-4 text-right font-medium" };
const COLUMNS = [
  "Stock",
  { label: "Approved deposits", ...FIGURE },
  { label: "Deposits", ...FIGURE },
  "First",
  "Last",
  { label: "Share of balance", ...FIGURE },
  { label: "Watchlist price", ...FIGURE },
];

/**
 * Positions: per stock, the approved stock deposits (sum, count, first and last), their share of the ledger balance
 * and the watchlist's illustrative price, each stock linking to its page. The client's /portfolio and the client
 * page of the back office show the same table.
 */
export function PositionsTable({ positions }: { positions: Position[] }) {
  if (positions.length === 0) return <p className="text-sm text-ink-muted">No approved stock deposits yet.</p>;
  return (
    <StackedTable
      columns={COLUMNS}
      caption="Stock deposits"
      bodyClassName="divide-y divide-border [&>tr>td]:py-2 [&>tr>td]:pr-4 [&>tr>td]:align-top"
    >
      {positions.map((p) => (
        <tr key={p.symbol}>
          <td>
            <Link to={`/stocks/${encodeURIComponent(p.symbol)}`} className="font-semibold text-brand hover:underline">
              {p.symbol}
            </Link>
            {p.name ? <span className="block text-xs text-ink-muted">{p.name}</span> : null}
          </td>
          <td className="text-right tabular-nums">{formatCents(p.cents)}</td>
          <td className="text-right tabular-nums">{p.count}</td>
          <td>
            <Moment at={p.firstAt} />
          </td>
          <td>
            <Moment at={p.lastAt} />
          </td>
          <td className="text-right tabular-nums">
            {p.sharePercent === null ? "N/A" : `${p.sharePercent.toFixed(1)}%`}
          </td>
          <td className="text-right tabular-nums">{p.priceUsd === null ? "N/A" : formatUsd(p.priceUsd)}</td>
        </tr>
      ))}
    </StackedTable>
  );
}
