import { formatCents } from "~/lib/format";
import type { LedgerSummary } from "~/lib/ledger";
import { Card, Empty, Panel, ViewAll } from "./panels";

type Summary = Pick<LedgerSummary, "available" | "gross" | "totalTrades" | "totalProfit" | "winRate">;

/** Balance (Available and Gross), Total Trades, Total Profit and Win Rate, from the rules table's figures. */
export function FigureCards({ summary }: { summary: Summary }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <Card title="Balance">
        <p className="text-2xl font-semibold tabular-nums" data-testid="balance-available">
          {formatCents(summary.available)}
        </p>
        <p className="text-xs text-ink-muted">Available</p>
        <p className="mt-2 font-medium tabular-nums" data-testid="balance-gross">
          {formatCents(summary.gross)}
        </p>
        <p className="text-xs text-ink-muted">Gross</p>
      </Card>
      <Card title="Total Trades">
        <p className="text-2xl font-semibold tabular-nums">{summary.totalTrades}</p>
      </Card>
      <Card title="Total Profit">
        <p className={`text-2xl font-semibold tabular-nums ${summary.totalProfit < 0 ? "text-danger" : ""}`}>
          {formatCents(summary.totalProfit)}
        </p>
      </Card>
      <Card title="Win Rate">
        <p className="text-2xl font-semibold tabular-nums">{summary.winRate.toFixed(1)}%</p>
      </Card>
    </div>
  );
}

/** Total Withdrawals & Deposits: approved money in and out. */
export function MoneyInAndOut({ deposits, withdrawals }: { deposits: number; withdrawals: number }) {
  return (
    <Panel title="Total Withdrawals & Deposits">
      {deposits === 0 && withdrawals === 0 ? (
        <Empty>No completed deposits or withdrawals</Empty>
      ) : (
        <dl className="grid grid-cols-2 gap-4">
          <div>
            <dt className="text-sm text-ink-muted">Total Deposits</dt>
            <dd className="text-xl font-semibold tabular-nums text-success">{formatCents(deposits)}</dd>
          </div>
          <div>
            <dt className="text-sm text-ink-muted">Total Withdrawals</dt>
            <dd className="text-xl font-semibold tabular-nums text-danger">{formatCents(withdrawals)}</dd>
          </div>
        </dl>
      )}
    </Panel>
  );
}

/** Stocks: approved stock deposits per stock, with their count. */
export function StocksPanel({ stocks }: { stocks: Array<{ stock: string | null; cents: number; count: number }> }) {
  return (
    <Panel
      title="Stocks"
      action={<ViewAll filters={{ type: "stock_deposit", status: "approved" }} what="stock deposits" />}
    >
      {stocks.length === 0 ? (
        <Empty>No recent stock deposits</Empty>
      ) : (
        <ul className="divide-y divide-border">
          {stocks.map((s) => (
            <li key={s.stock} className="flex items-center justify-between py-2 text-sm">
              <span className="font-medium">{s.stock}</span>
              <span className="tabular-nums">
                {formatCents(s.cents)} <span className="text-ink-muted">({s.count})</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
