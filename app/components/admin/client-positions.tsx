import { PositionsTable } from "~/components/portfolio/positions-table";
import type { Position } from "~/server/ledger/portfolio.server";

/** The client page's Positions: the table the client reads on /portfolio, with the same figures. */
export function ClientPositions({ positions }: { positions: Position[] }) {
  return (
    <article className="rounded-xl border border-border bg-surface p-5">
      <h2 className="text-lg font-semibold">Positions</h2>
      <div className="mt-3">
        <PositionsTable positions={positions} />
      </div>
    </article>
  );
}
