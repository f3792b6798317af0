/**
 * What the pages read of a client's positions and orders (docs/product.md, "Orders and positions"): holdings by
 * stock, the open positions, the orders newest first, and the realized results of the sales in a time range.
 * Each read is one client's rows through an index of its own (positions_open_idx, positions_user_recent_idx,
 * stock_sales_user_recent_idx).
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { HoldingRow } from "~/lib/holdings";
import type { OrderLine } from "~/lib/order-lines";
import type { RealizedGain } from "~/lib/realized-gains";
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
export type OrderRow = OrderLine;

/** Where a list of orders stands: an order's time, side and id (the lists' order, so a cursor is exact). */
export interface OrderKey {
  at: number;
  side: "buy" | "sell";
  id: number;
}

export interface OrdersRange {
  from?: number;
  to?: number;
  limit?: number;
  /** "newest" (History) or "oldest" (a statement, its CSV). */
  order?: "newest" | "oldest";
  /** Only the orders after this one in the list's order: the next page of a keyset list. */
  after?: OrderKey;
}

/** The cursor of an order in an address: "<at>.<side>.<id>". */
export const orderCursor = (key: OrderKey) => `${key.at}.${key.side}.${key.id}`;

export function parseOrderCursor(value: string | null): OrderKey | undefined {
  const match = /^(\d{1,15})\.(buy|sell)\.(\d{1,15})$/.exec(value ?? "");
  return match ? { at: Number(match[1]), side: match[2] as OrderKey["side"], id: Number(match[3]) } : undefined;
}

/**
 * A client's orders in [from, to), newest first (or oldest first), at most `limit`, after `after` when given. At
 * one moment a buy comes before a sale, then by id. Each side is read in the list's order and cut at `limit` on
 * its own index range before the two are merged, so a page never reads the whole history.
 */
export function ordersQuery(db: Db, userId: string, range: OrdersRange = {}) {
  const newest = (range.order ?? "newest") === "newest";
  const limit = range.limit ?? 200;
  const after = range.after;
  // The cursor's time bounds each side's index range; `past` below breaks the tie at that time exactly.
  const from = Math.max(range.from ?? 0, !newest && after ? after.at : 0);
  const to = Math.min(range.to ?? Number.MAX_SAFE_INTEGER, newest && after ? after.at + 1 : Number.MAX_SAFE_INTEGER);
  const direction = sql.raw(newest ? "DESC" : "ASC");
  const beyond = sql.raw(newest ? "<" : ">");
  // Past the cursor, as each side's own condition: a side's limit is taken after it, never before.
  const past = (at: string, side: OrderKey["side"]) =>
    after
      ? sql`AND (${sql.raw(at)} ${beyond} ${after.at} OR (${sql.raw(at)} = ${after.at} AND (${side} > ${after.side}
               OR (${side} = ${after.side} AND id ${beyond} ${after.id}))))`
      : sql``;
  return db.all<OrderRow>(
    sql`SELECT * FROM (
          SELECT * FROM (
            SELECT 'buy' AS side, id, symbol, shares_e4 AS sharesE4, price_e4 AS priceE4, cost_cents AS cents,
                   NULL AS resultCents, status, opened_at AS at
            FROM positions
            WHERE user_id = ${userId} AND opened_at >= ${from} AND opened_at < ${to} ${past("opened_at", "buy")}
            ORDER BY opened_at ${direction}, id ${direction} LIMIT ${limit})
          UNION ALL
          SELECT * FROM (
            SELECT 'sell' AS side, id, symbol, shares_e4, price_e4, proceeds_cents, result_cents, 'closed', sold_at
            FROM stock_sales
            WHERE user_id = ${userId} AND settled_at IS NOT NULL AND sold_at >= ${from} AND sold_at < ${to}
              ${past("sold_at", "sell")}
            ORDER BY sold_at ${direction}, id ${direction} LIMIT ${limit}))
        ORDER BY at ${direction}, side, id ${direction} LIMIT ${limit}`,
  );
}

/** The realized results of one stock's sales in a range: what the yearly summary's table shows. */
export type RealizedGainRow = RealizedGain;

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
