/**
 * Orders to close positions (docs/product.md, "Orders and positions"): a sale of a client's shares of one stock at
 * the bid of the server's quote closes their open positions oldest first (FIFO), all or part of each, releases the
 * cost they reserved, and writes the result to the ledger as a profit or loss entry with the stock as its trading
 * pair: all in one batch, each statement keyed to the sale the batch wrote, so a retried form changes nothing.
 */
import { sql } from "drizzle-orm";
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

/** The client's open shares of one stock, as SQL. */
const heldSql = (userId: string, symbol: string) =>
  sql`(SELECT coalesce(sum(open_shares_e4), 0) FROM positions
       WHERE user_id = ${userId} AND symbol = ${symbol} AND status = 'open')`;

export async function heldSharesE4(db: Db, userId: string, symbol: string): Promise<number> {
  const row = await db.get<{ held: number }>(sql`SELECT ${heldSql(userId, symbol)} AS held`);
  return Number(row?.held ?? 0);
}

/**
 * Sells `sharesE4` of the client's `symbol` at the quote's bid for `proceedsCents` (the caller's fill of the same
 * quote). The client sells only while their profile is active; `seller` is who acts (the client, or an admin
 * closing for them), named on the sale and its audit row.
 */
export async function sellShares(
  db: Db,
  client: Requester,
  seller: Required<Actor>,
  order: { symbol: string; sharesE4: number; proceedsCents: number; idempotencyKey: string },
  quote: TradedQuote,
  now = Date.now(),
): Promise<SaleOutcome> {
  const { id: userId } = client;
  const { symbol, idempotencyKey } = order;
  const thisSale = sql`stock_sales WHERE user_id = ${userId} AND idempotency_key = ${idempotencyKey}`;
  const unsettled = sql`${thisSale} AND settled_at IS NULL`;
  const mayAct = seller.id === userId ? activeProfile(userId) : sql`1 = 1`;
  const { written, entry, notice } = await writeTogether(db, {
    written: returning<{ id: number }>(sql`
      INSERT INTO stock_sales (user_id, symbol, shares_e4, price_e4, quote_at, proceeds_cents, sold_by,
                               idempotency_key, sold_at)
      SELECT ${userId}, ${symbol}, ${order.sharesE4}, ${quote.bidE4}, ${quote.at}, ${order.proceedsCents},
             ${seller.id}, ${idempotencyKey}, ${now}
      WHERE ${mayAct} AND ${heldSql(userId, symbol)} >= ${order.sharesE4}
      ON CONFLICT (user_id, idempotency_key) DO NOTHING
      RETURNING id`),
    // The lots, oldest first: each gives what the sale still needs after the lots before it, up to all it holds.
    closes: sql`
      WITH sale AS (SELECT id, shares_e4 FROM ${unsettled}),
           lots AS (SELECT id, open_shares_e4 AS open, open_cost_cents AS cost,
                           coalesce(sum(open_shares_e4) OVER (ORDER BY opened_at, id
                                    ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
                    FROM positions WHERE user_id = ${userId} AND symbol = ${symbol} AND status = 'open'),
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
    entry: returning<FeedTransaction>(sql`
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
    notice: orderNotice(client, "sell", thisSale, {
      sharesE4: sql`shares_e4`,
      priceE4: sql`price_e4`,
      cents: sql`proceeds_cents`,
      resultCents: sql`result_cents`,
      at: sql`sold_at`,
    }),
    audit: auditInsert({
      actor: seller,
      action: "order.sell",
      target: sql`'sale:' || id`,
      detail: sql`'client', user_id, 'symbol', symbol, 'sharesE4', shares_e4, 'priceE4', price_e4,
                  'proceedsCents', proceeds_cents, 'costCents', cost_cents, 'resultCents', result_cents,
                  'quoteAt', quote_at`,
      from: sql`${thisSale} AND NOT EXISTS (SELECT 1 FROM audit_log WHERE action = 'order.sell'
                                            AND target = 'sale:' || stock_sales.id)`,
      at: now,
    }),
  });
  const sale = await db.get<Omit<Sale, "serial">>(
    sql`SELECT id, symbol, shares_e4 AS sharesE4, price_e4 AS priceE4, proceeds_cents AS proceedsCents,
               cost_cents AS costCents, result_cents AS resultCents
        FROM ${thisSale}`,
  );
  if (sale) {
    const replayed = written.length === 0;
    const emailIds = notice.map((n) => n.id);
    return { ok: true, sale: { ...sale, serial: saleSerial(sale.id) }, replayed, entry: entry[0] ?? null, emailIds };
  }
  if (seller.id === userId) {
    const profile = await db.get<{ status: string }>(sql`SELECT status FROM profiles WHERE user_id = ${userId}`);
    if (profile?.status !== "active") return { ok: false, status: 403, error: SUSPENDED_MESSAGE };
  }
  return {
    ok: false,
    status: 409,
    error: ORDER_MESSAGES.notEnoughShares(symbol, await heldSharesE4(db, userId, symbol)),
  };
}
