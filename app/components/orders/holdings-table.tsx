import { Link } from "react-router";
import { Moment } from "~/components/moment";
import { LIST_ROWS, StackedTable } from "~/components/stacked-table";
import { formatCents } from "~/lib/format";
import type { HoldingView } from "~/lib/holdings";
import { formatPrice, formatShares } from "~/lib/money/orders";
import { Result } from "./result";

const FIGURE = { className: "py-2 pr-4 text-right font-medium" };
const COLUMNS = [
  "Stock",
  { label: "Shares", ...FIGURE },
  { label: "Average price", ...FIGURE },
  { label: "Cost", ...FIGURE },
  { label: "Price (mid)", ...FIGURE },
  { label: "Market value", ...FIGURE },
  { label: "Unrealized result", ...FIGURE },
  { label: "Share of account", ...FIGURE },
];

/**
 * Holdings at market value: per stock the open shares, the average price paid, the cost, the mid price with its
 * time, the value, the unrealized result and the share of the account's value (docs/product.md, "Portfolio").
 */
export function HoldingsTable({ holdings }: { holdings: HoldingView[] }) {
  if (holdings.length === 0)
    return <p className="text-sm text-ink-muted">No open positions. Buy a stock from its page to open one.</p>;
  return (
    <StackedTable columns={COLUMNS} caption="Holdings" bodyClassName={LIST_ROWS}>
      {holdings.map((h) => (
        <tr key={h.symbol} data-testid={`holding-${h.symbol}`}>
          <td>
            <Link to={`/stocks/${encodeURIComponent(h.symbol)}`} className="font-semibold text-brand hover:underline">
              {h.symbol}
            </Link>
            <span className="block text-xs text-ink-muted">
              {h.positions === 1 ? "1 position" : `${h.positions} positions`}
            </span>
          </td>
          <td className="text-right tabular-nums">{formatShares(h.sharesE4)}</td>
          <td className="text-right tabular-nums">{formatPrice(h.averagePriceE4)}</td>
          <td className="text-right tabular-nums">{formatCents(h.costCents)}</td>
          <td className="text-right tabular-nums">
            {h.mark ? (
              <>
                {formatPrice(h.mark.midE4)}
                <span className="block text-xs text-ink-muted">
                  <Moment at={h.mark.at} />
                </span>
              </>
            ) : (
              <span className="text-ink-muted">Unavailable</span>
            )}
          </td>
          <td className="text-right tabular-nums">{h.valueCents === null ? "—" : formatCents(h.valueCents)}</td>
          <td className="text-right tabular-nums">
            <Result cents={h.resultCents} percent={h.resultPercent} />
          </td>
          <td className="text-right tabular-nums">{h.sharePercent === null ? "—" : `${h.sharePercent.toFixed(1)}%`}</td>
        </tr>
      ))}
    </StackedTable>
  );
}
