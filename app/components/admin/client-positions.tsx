import { OpenPositionsTable } from "~/components/orders/open-positions";
import { OrderHistory } from "~/components/orders/order-history";
import { PositionsTable } from "~/components/portfolio/positions-table";
import type { Position } from "~/server/ledger/portfolio.server";
import type { DeskTrading } from "~/server/positions/desk.server";
import { type ClosingPositions, useClosePosition } from "./close-position";

const NO_CLOSING: ClosingPositions = { idempotencyKey: "", secondApprovalFromCents: 0, proposals: [] };

/**
 * The client page's trading: the open positions (marked at the mid when the page loaded), each with Close for an
 * admin who may close it, the orders as the client's History lists them, and the stock deposits, the table the
 * client reads on /portfolio.
 */
export function ClientPositions({
  positions,
  trading,
  closing,
}: {
  positions: Position[];
  trading: DeskTrading;
  /** When the admin may close the client's positions. */
  closing: ClosingPositions | null;
}) {
  const close = useClosePosition(closing ?? NO_CLOSING, trading.openPositions, trading.marks);
  return (
    <>
      <article className="rounded-xl border border-border bg-surface p-5">
        <h2 className="text-lg font-semibold">Open positions</h2>
        <div className="mt-3">
          {trading.openPositions.length === 0 ? (
            <p className="text-sm text-ink-muted">No open positions.</p>
          ) : (
            <OpenPositionsTable
              positions={trading.openPositions}
              marks={trading.marks}
              caption="The client's open positions"
              actions={closing ? close.actions : undefined}
            />
          )}
        </div>
        {closing ? close.dialog : null}
      </article>
      <OrderHistory
        orders={trading.orders}
        olderOrders={trading.olderOrders}
        olderPage={trading.olderPage}
        caption="The client's orders, newest first"
      />
      <article className="rounded-xl border border-border bg-surface p-5">
        <h2 className="text-lg font-semibold">Stock deposits</h2>
        <div className="mt-3">
          <PositionsTable positions={positions} />
        </div>
      </article>
    </>
  );
}
