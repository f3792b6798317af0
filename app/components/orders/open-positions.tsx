import type { ReactNode } from "react";
import { Link } from "react-router";
import { Moment } from "~/components/moment";
import { LIST_ROWS, StackedTable } from "~/components/stacked-table";
import { formatCents } from "~/lib/format";
import { type Mark, marked } from "~/lib/holdings";
import { formatPrice, formatShares, positionSerial } from "~/lib/money/orders";
import { Result } from "./result";

export interface OpenPosition {
  id: number;
  symbol: string;
  openSharesE4: number;
  priceE4: number;
  openCostCents: number;
  openedAt: number;
}

const FIGURE = { className: "py-2 pr-4 text-right font-medium" };
const COLUMNS = [
  "Position",
  "Stock",
  { label: "Shares", ...FIGURE },
  { label: "Bought at", ...FIGURE },
  { label: "Value", ...FIGURE },
  { label: "Result", ...FIGURE },
];

/**
 * The open positions, each marked at its stock's mid price: serial, stock, shares, value and unrealized result;
 * on the desk, what the admin may do with each (`actions`).
 */
export function OpenPositionsTable({
  positions,
  marks,
  caption = "Open positions",
  actions,
}: {
  positions: OpenPosition[];
  marks: Record<string, Mark | null>;
  caption?: string;
  actions?: (position: OpenPosition) => ReactNode;
}) {
  return (
    <StackedTable columns={actions ? [...COLUMNS, "Actions"] : COLUMNS} caption={caption} bodyClassName={LIST_ROWS}>
      {positions.map((p) => {
        const { valueCents, resultCents } = marked(p.openSharesE4, p.openCostCents, marks[p.symbol] ?? null);
        return (
          <tr key={p.id} data-testid={`position-${positionSerial(p.id)}`}>
            <td>
              <span className="font-mono">{positionSerial(p.id)}</span>
              <span className="block text-xs text-ink-muted">
                <Moment at={p.openedAt} />
              </span>
            </td>
            <td>
              <Link to={`/stocks/${encodeURIComponent(p.symbol)}`} className="font-semibold text-brand hover:underline">
                {p.symbol}
              </Link>
            </td>
            <td className="text-right tabular-nums">{formatShares(p.openSharesE4)}</td>
            <td className="text-right tabular-nums">{formatPrice(p.priceE4)}</td>
            <td className="text-right tabular-nums">{valueCents === null ? "—" : formatCents(valueCents)}</td>
            <td className="text-right tabular-nums">
              <Result cents={resultCents} />
            </td>
            {actions ? <td>{actions(p)}</td> : null}
          </tr>
        );
      })}
    </StackedTable>
  );
}
