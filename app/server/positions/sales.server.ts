/**
 * Orders to close positions (docs/product.md, "Orders and positions"): a sale of a client's shares of one stock at
 * the bid of the server's quote closes their open positions oldest first (FIFO), all or part of each, releases the
 * cost they reserved, and writes the result to the ledger as a profit or loss entry with the stock as its trading
 * pair: all in one batch, each statement keyed to the sale the batch wrote, so a retried form changes nothing.
 */
import { type SQL, sql } from "drizzle-orm";
import { costPartSql, saleSerial, type TradedQuote } from "~/lib/money/orders";
import type { FeedTransaction } from "~/lib/realtime";
import { ORDER_MESSAGES } from "~/lib/schemas/orders";
import { POSITION_RESULT_WALLET } from "../../../db/enums";
import { type Actor, auditInsert } from "../audit.server";
import type { Db } from "../db.server";
import { returning, writeTogether } from "../db.server";
import { figureSql, refreshProfileProjection } from "../ledger/figures.server";
import { FEED_RETURNING } from "../ledger/reads.server";
import { activeProfile, type Requester, SUSPENDED_MESSAGE } from "../ledger/requests.server";
import { orderNotice } from "./notices.server";

export interface Sale {
  id: number;
  serial: string;
  symbol: string;
  sharesE4: number;
  priceE4: number;
  proceedsCents: number;
  costCents: number;
  resultCents: number;
}

export type SaleOutcome =
  | { ok: true; sale: Sale; replayed: boolean; entry: FeedTransaction | null; emailIds: number[] }
  | { ok: false; error: string; status: number };

/** What is sold: shares of one stock, for the proceeds of the caller's fill; by the form's (or proposal's) key. */
export interface SaleOrder {
  symbol: string;
  sharesE4: number;
  proceedsCents: number;
  idempotencyKey: string;
  /** The desk's close of one position: only its shares. Otherwise the stock's lots, oldest first. */
  positionId?: number;
  /** The desk's reason for a close, kept on its audit row. */
  reason?: string;
}

/**
 * Who sells: `soldBy` is named on the sale and on its ledger entry (the client, or the admin who closes their
 * position, whose roles a trigger checks); `actor` signs its audit row (for a close a second admin approved, the
 * approver).
 */
export interface Sellers {
  soldBy: string;
  actor: Required<Actor>;
}

/** The client selling their own shares. */
export const clientSelling = (client: { id: string; email: string }): Sellers => ({
  soldBy: client.id,
  actor: { id: client.id, email: client.email },
});

/** The client's open shares of one stock (or of one position of it), as SQL. */
const heldSql = (userId: string, symbol: string, positionId?: number) =>
  sql`(SELECT coalesce(sum(open_shares_e4), 0) FROM positions
       WHERE user_id = ${userId} AND symbol = ${symbol} AND status = 'open'
         ${positionId === undefined ? sql`` : sql`AND id = ${positionId}`})`;

export async function heldSharesE4(db: Db, userId: string, symbol: string): Promise<number> {
  const row = await db.get<{ held: number }>(sql`SELECT ${heldSql(userId, symbol)} AS held`);
  return Number(row?.held ?? 0);
}

/** The sale with this key, as SQL (FROM … WHERE …). */
export const saleKeyed = (userId: string, idempotencyKey: string) =>
  sql`stock_sales WHERE user_id = ${userId} AND idempotency_key = ${idempotencyKey}`;

/**
 * The statements of one sale, for a batch: the sale (while the client holds the shares, their profile is active
 * when they sell themselves, and `onlyIf` holds), the lots it closes, the result entry (`effect`), the client's
 * notice (`clientNotice`) and the audit row. Both a sale and the approval of a desk's close write exactly these.
 */
export function saleWrites(
  client: Requester,
  sellers: Sellers,
  order: SaleOrder,
  quote: TradedQuote,
  now: number,
  onlyIf: SQL = sql`1 = 1`,
) {
  const { id: userId } = client;
  const { symbol, idempotencyKey, positionId } = order;
  const thisSale = saleKeyed(userId, idempotencyKey);
  const unsettled = sql`${thisSale} AND settled_at IS NULL`;
  const mayAct = sellers.soldBy === userId ? activeProfile(userId) : sql`1 = 1`;
  const onlyThisLot = positionId === undefined ? sql`` : sql`AND id = ${positionId}`;
  return {
    written: returning<{ id: number }>(sql`
      INSERT INTO stock_sales (user_id, symbol, shares_e4, price_e4, quote_at, proceeds_cents, sold_by,
                               idempotency_key, sold_at)
      SELECT ${userId}, ${symbol}, ${order.sharesE4}, ${quote.bidE4}, ${quote.at}, ${order.proceedsCents},
             ${sellers.soldBy}, ${idempotencyKey}, ${now}
      WHERE ${mayAct} AND ${heldSql(userId, symbol, positionId)} >= ${order.sharesE4} AND ${onlyIf}
      ON CONFLICT (user_id, idempotency_key) DO NOTHING
      RETURNING id`),
    // The lots, oldest first: each gives what the sale still needs after the lots before it, up to all it holds.
    closes: sql`
      WITH sale AS (SELECT id, shares_e4 FROM ${unsettled}),
           lots AS (SELECT id, open_shares_e4 AS open, open_cost_cents AS cost,
                           coalesce(sum(open_shares_e4) OVER (ORDER BY opened_at, id
                                    ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
                    FROM positions WHERE user_id = ${userId} AND symbol = ${symbol} AND status = 'open' ${onlyThisLot}),
           taken AS (SELECT sale.id AS sale_id, lots.id AS position_id, lots.open, lots.cost,
                            min(lots.open, sale.shares_e4 - lots.before) AS shares
                     FROM sale, lots WHERE lots.before < sale.shares_e4)
      INSERT INTO position_closes (sale_id, position_id, shares_e4, cost_cents)
      SELECT sale_id, position_id, shares, ${sql.raw(costPartSql("cost", "open", "shares"))} FROM taken`,
    lots: sql`
      UPDATE positions
      SET open_shares_e4 = open_shares_e4 - c.shares_e4, open_cost_cents = open_cost_cents - c.cost_cents,
          status = CASE WHEN open_shares_e4 = c.shares_e4 THEN 'closed' ELSE 'open' END,
          ended_at = CASE WHEN open_shares_e4 = c.shares_e4 THEN ${now} ELSE NULL END
      FROM position_closes c
      WHERE c.position_id = positions.id AND c.sale_id = (SELECT id FROM ${unsettled})`,
    figures: sql`
      UPDATE stock_sales
      SET cost_cents = (SELECT sum(cost_cents) FROM position_closes WHERE sale_id = stock_sales.id),
          result_cents = proceeds_cents - (SELECT sum(cost_cents) FROM position_closes WHERE sale_id = stock_sales.id)
      WHERE user_id = ${userId} AND idempotency_key = ${idempotencyKey} AND settled_at IS NULL`,
    effect: returning<FeedTransaction>(sql`
      INSERT INTO transactions (user_id, transaction_type, amount_cents, status, wallet_address, balance_after_cents,
                                trading_pair, idempotency_key, created_by, decided_at, created_at, memo)
      SELECT user_id, CASE WHEN result_cents > 0 THEN 'profit' ELSE 'loss' END, abs(result_cents), 'approved',
             ${POSITION_RESULT_WALLET}, ${figureSql("ledgerBalance", userId)} + result_cents, symbol,
             'sale:' || id, sold_by, ${now}, ${now}, printf('Sale S-%06d', id)
      FROM ${unsettled} AND result_cents <> 0
      ON CONFLICT (user_id, idempotency_key) DO NOTHING
      RETURNING ${FEED_RETURNING}`),
    settle: sql`
      UPDATE stock_sales
      SET transaction_id = (SELECT t.id FROM transactions t
                            WHERE t.user_id = stock_sales.user_id AND t.idempotency_key = 'sale:' || stock_sales.id),
          settled_at = ${now}
      WHERE user_id = ${userId} AND idempotency_key = ${idempotencyKey} AND settled_at IS NULL`,
    projection: refreshProfileProjection(userId, now),
    clientNotice: orderNotice(client, sellers.soldBy === userId ? "sell" : "close", thisSale, {
      sharesE4: sql`shares_e4`,
      priceE4: sql`price_e4`,
      cents: sql`proceeds_cents`,
      resultCents: sql`result_cents`,
      at: sql`sold_at`,
    }),
    saleAudit: auditInsert({
      actor: sellers.actor,
      action: "order.sell",
      target: sql`'sale:' || id`,
      detail: sql`'client', user_id, 'symbol', symbol, 'sharesE4', shares_e4, 'priceE4', price_e4,
                  'proceedsCents', proceeds_cents, 'costCents', cost_cents, 'resultCents', result_cents,
                  'quoteAt', quote_at, 'soldBy', sold_by, 'position', CAST(${positionId ?? null} AS INTEGER),
                  'reason', ${order.reason || null}`,
      from: sql`${thisSale} AND NOT EXISTS (SELECT 1 FROM audit_log WHERE action = 'order.sell'
                                            AND target = 'sale:' || stock_sales.id)`,
      at: now,
    }),
  };
}

/**
 * Sells `order.sharesE4` of the client's stock at the quote's bid for `order.proceedsCents` (the caller's fill of
 * the same quote). The client sells only while their profile is active; an admin closing a position is `sellers`.
 */
export async function sellShares(
  db: Db,
  client: Requester,
  sellers: Sellers,
  order: SaleOrder,
  quote: TradedQuote,
  now = Date.now(),
  onlyIf: SQL = sql`1 = 1`,
): Promise<SaleOutcome> {
  const { id: userId } = client;
  const { symbol, idempotencyKey } = order;
  const thisSale = saleKeyed(userId, idempotencyKey);
  const { written, effect, clientNotice } = await writeTogether(
    db,
    saleWrites(client, sellers, order, quote, now, onlyIf),
  );
  const sale = await db.get<Omit<Sale, "serial">>(
    sql`SELECT id, symbol, shares_e4 AS sharesE4, price_e4 AS priceE4, proceeds_cents AS proceedsCents,
               cost_cents AS costCents, result_cents AS resultCents
        FROM ${thisSale}`,
  );
  if (sale) {
    const replayed = written.length === 0;
    const emailIds = clientNotice.map((n) => n.id);
    return { ok: true, sale: { ...sale, serial: saleSerial(sale.id) }, replayed, entry: effect[0] ?? null, emailIds };
  }
  if (sellers.soldBy === userId) {
    const profile = await db.get<{ status: string }>(sql`SELECT status FROM profiles WHERE user_id = ${userId}`);
    if (profile?.status !== "active") return { ok: false, status: 403, error: SUSPENDED_MESSAGE };
  }
  return {
    ok: false,
    status: 409,
    error: ORDER_MESSAGES.notEnoughShares(symbol, await heldSharesE4(db, userId, symbol)),
  };
}
