/**
 * What the pages read of a client's positions and orders (docs/product.md, "Orders and positions"): holdings by
 * stock, the open positions, the orders newest first, and the realized results of the sales in a time range.
 * Each read is one client's rows through an index of its own (positions_open_idx, positions_user_recent_idx,
 * stock_sales_user_recent_idx).
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { HoldingRow } from "~/lib/holdings";
import type { PositionStatus } from "../../../db/enums";
import { type Db, schema } from "../db.server";

const { positions } = schema;

export function holdingRowsQuery(db: Db, userId: string) {
  return db.all<HoldingRow>(
    sql`SELECT symbol, sum(open_shares_e4) AS sharesE4, sum(open_cost_cents) AS costCents, count(*) AS positions
        FROM positions WHERE user_id = ${userId} AND status = 'open'
        GROUP BY symbol ORDER BY symbol`,
  );
}

export interface OpenPositionRow {
  id: number;
  symbol: string;
  sharesE4: number;
  openSharesE4: number;
  priceE4: number;
  openCostCents: number;
  openedAt: number;
}

/** The open positions, newest first (the dashboard's panel, the admin's client page): a batch item. */
export function openPositionsQuery(db: Db, userId: string, limit = 50) {
  return db
    .select({
      id: positions.id,
      symbol: positions.symbol,
      sharesE4: positions.sharesE4,
      openSharesE4: positions.openSharesE4,
      priceE4: positions.priceE4,
      openCostCents: positions.openCostCents,
      openedAt: positions.openedAt,
    })
    .from(positions)
    .where(and(eq(positions.userId, userId), eq(positions.status, "open")))
    .orderBy(desc(positions.openedAt), desc(positions.id))
    .limit(limit);
}

/** One order as the lists show it: a buy (its position) or a sale. */
export interface OrderRow {
  side: "buy" | "sell";
  id: number;
  symbol: string;
  sharesE4: number;
  priceE4: number;
  /** A buy's cost, a sale's proceeds. */
  cents: number;
  /** A sale's result; null for a buy. */
  resultCents: number | null;
  /** A buy's position status; a sale is always 'closed'. */
  status: PositionStatus;
  at: number;
}

/** A client's orders in [from, to), newest first, at most `limit`. */
export function ordersQuery(db: Db, userId: string, range: { from?: number; to?: number; limit?: number } = {}) {
  const from = range.from ?? 0;
  const to = range.to ?? Number.MAX_SAFE_INTEGER;
  return db.all<OrderRow>(
    sql`SELECT * FROM (
          SELECT 'buy' AS side, id, symbol, shares_e4 AS sharesE4, price_e4 AS priceE4, cost_cents AS cents,
                 NULL AS resultCents, status, opened_at AS at
          FROM positions WHERE user_id = ${userId} AND opened_at >= ${from} AND opened_at < ${to}
          UNION ALL
          SELECT 'sell', id, symbol, shares_e4, price_e4, proceeds_cents, result_cents, 'closed', sold_at
          FROM stock_sales
          WHERE user_id = ${userId} AND settled_at IS NOT NULL AND sold_at >= ${from} AND sold_at < ${to})
        ORDER BY at DESC, side, id DESC LIMIT ${range.limit ?? 200}`,
  );
}

/** The realized results of one stock's sales in a range: what the yearly summary's table shows. */
export interface RealizedGainRow {
  symbol: string;
  sales: number;
  /** The positions (lots) the sales closed all or part of. */
  lots: number;
  sharesE4: number;
  proceedsCents: number;
  costCents: number;
  resultCents: number;
}

export function realizedGainsQuery(db: Db, userId: string, from: number, to: number) {
  return db.all<RealizedGainRow>(
    sql`SELECT s.symbol, count(*) AS sales,
               (SELECT count(DISTINCT c.position_id) FROM position_closes c JOIN stock_sales s2 ON s2.id = c.sale_id
                WHERE s2.user_id = ${userId} AND s2.symbol = s.symbol AND s2.sold_at >= ${from} AND s2.sold_at < ${to}
                  AND s2.settled_at IS NOT NULL) AS lots,
               sum(s.shares_e4) AS sharesE4, sum(s.proceeds_cents) AS proceedsCents, sum(s.cost_cents) AS costCents,
               sum(s.result_cents) AS resultCents
        FROM stock_sales s
        WHERE s.user_id = ${userId} AND s.settled_at IS NOT NULL AND s.sold_at >= ${from} AND s.sold_at < ${to}
        GROUP BY s.symbol ORDER BY s.symbol`,
  );
}
