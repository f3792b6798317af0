/**
 * Orders to open positions (docs/product.md, "Orders and positions"): a buy at the ask of the server's quote opens
 * a position only while the client's spendable money, less the cost of the positions already open, covers it: the
 * check and the insert are one statement, so parallel orders cannot overspend. The position may be cancelled in
 * the first 3 seconds after its order, by its client, while nothing of it was sold.
 */
import { sql } from "drizzle-orm";
import { coverFigure } from "~/lib/money/constraints";
import { ORDER_RULES, positionSerial, type TradedQuote, withinCancelWindow } from "~/lib/money/orders";
import { ORDER_MESSAGES } from "~/lib/schemas/orders";
import { auditInsert } from "../audit.server";
import type { Db } from "../db.server";
import { returning, schema, writeTogether } from "../db.server";
import { coverFigureSql, ledgerTotals, openPositionsCostCents, spendCoveredSql } from "../ledger/figures.server";
import { activeProfile, type Requester, SUSPENDED_MESSAGE } from "../ledger/requests.server";
import { orderNotice } from "./notices.server";

export interface OpenedPosition {
  id: number;
  symbol: string;
  sharesE4: number;
  priceE4: number;
  costCents: number;
  openedAt: number;
}

export type BuyOutcome =
  | { ok: true; position: OpenedPosition; replayed: boolean; emailIds: number[] }
  | { ok: false; error: string; status: number };

const POSITION_RETURNING = sql`id, symbol, shares_e4 AS sharesE4, price_e4 AS priceE4, cost_cents AS costCents,
  opened_at AS openedAt`;

/** What a buy may still spend: spendable less the open positions' cost (the `order` cover rule's figure). */
export async function spendableCents(db: Db, userId: string): Promise<number> {
  const row = await db.get<{ value: number }>(sql`SELECT ${coverFigureSql("order", userId)} AS value`);
  return Number(row?.value ?? 0);
}

/**
 * Opens a position of `sharesE4` shares at the quote's ask (the caller computed the fill from the same quote):
 * ONE insert, accepted only while the client's profile is active and the cost is covered, with its audit row in
 * the same batch. The form's key makes a double click one position.
 */
export async function openPosition(
  db: Db,
  client: Requester,
  order: { symbol: string; sharesE4: number; costCents: number; idempotencyKey: string },
  quote: TradedQuote,
  now = Date.now(),
): Promise<BuyOutcome> {
  const thisPosition = sql`positions WHERE user_id = ${client.id} AND idempotency_key = ${order.idempotencyKey}`;
  const { inserted, notice } = await writeTogether(db, {
    inserted: returning<OpenedPosition>(
      sql`INSERT INTO positions (user_id, symbol, shares_e4, price_e4, quote_at, cost_cents, open_shares_e4,
                                 open_cost_cents, status, idempotency_key, opened_at)
          SELECT ${client.id}, ${order.symbol}, ${order.sharesE4}, ${quote.askE4}, ${quote.at}, ${order.costCents},
                 ${order.sharesE4}, ${order.costCents}, 'open', ${order.idempotencyKey}, ${now}
          WHERE ${activeProfile(client.id)} AND ${spendCoveredSql("order", client.id, order.costCents)}
          ON CONFLICT (user_id, idempotency_key) DO NOTHING
          RETURNING ${POSITION_RETURNING}`,
    ),
    audit: auditInsert({
      actor: { id: client.id, email: client.email },
      action: "order.buy",
      target: sql`'position:' || id`,
      detail: sql`'symbol', symbol, 'sharesE4', shares_e4, 'priceE4', price_e4, 'costCents', cost_cents,
                  'quoteAt', quote_at`,
      from: sql`positions WHERE user_id = ${client.id} AND idempotency_key = ${order.idempotencyKey}
                AND NOT EXISTS (SELECT 1 FROM audit_log WHERE action = 'order.buy'
                                AND target = 'position:' || positions.id)`,
      at: now,
    }),
    notice: orderNotice(client, "buy", thisPosition, {
      sharesE4: sql`shares_e4`,
      priceE4: sql`price_e4`,
      cents: sql`cost_cents`,
      at: sql`opened_at`,
    }),
  });
  const created = inserted[0];
  if (created) return { ok: true, position: created, replayed: false, emailIds: notice.map((n) => n.id) };
  const earlier = await db.get<OpenedPosition>(
    sql`SELECT ${POSITION_RETURNING} FROM positions WHERE user_id = ${client.id} AND idempotency_key = ${order.idempotencyKey}`,
  );
  if (earlier) return { ok: true, position: earlier, replayed: true, emailIds: [] };
  return { ok: false, status: 409, error: await buyRefusal(db, client.id) };
}

/** Which of the insert's conditions refused the buy. */
async function buyRefusal(db: Db, userId: string): Promise<string> {
  const profile = await db.get<{ status: string }>(sql`SELECT status FROM profiles WHERE user_id = ${userId}`);
  if (profile?.status !== "active") return SUSPENDED_MESSAGE;
  const reserved = await openPositionsCostCents(db, userId);
  return ORDER_MESSAGES.notEnoughFunds(coverFigure("order", await ledgerTotals(db, userId), reserved));
}

export type CancelOutcome =
  | { ok: true; serial: string; emailIds: number[] }
  | { ok: false; error: string; status: number };

/**
 * Cancels the client's own position within the cancel window of its order and before any of it was sold: one
 * conditional update, so another client's id, a late cancel or a position already sold from changes nothing.
 * The reserve is released with it (an ended position reserves nothing); no ledger row is written.
 */
export async function cancelPosition(
  db: Db,
  client: Requester,
  positionId: number,
  now = Date.now(),
): Promise<CancelOutcome> {
  const { cancelled, notice } = await writeTogether(db, {
    cancelled: returning<{ id: number }>(
      sql`UPDATE positions SET status = 'cancelled', open_shares_e4 = 0, open_cost_cents = 0, ended_at = ${now}
          WHERE id = ${positionId} AND user_id = ${client.id} AND status = 'open'
            AND open_shares_e4 = shares_e4 AND opened_at > ${now - ORDER_RULES.cancelWindowMs}
          RETURNING id`,
    ),
    audit: auditInsert({
      actor: { id: client.id, email: client.email },
      action: "order.cancel",
      target: `position:${positionId}`,
      detail: sql`'symbol', symbol, 'sharesE4', shares_e4, 'costCents', cost_cents`,
      from: sql`positions WHERE id = ${positionId} AND user_id = ${client.id} AND status = 'cancelled'
                AND ended_at = ${now}`,
      at: now,
    }),
    notice: orderNotice(
      client,
      "cancel",
      sql`positions WHERE id = ${positionId} AND user_id = ${client.id} AND status = 'cancelled' AND ended_at = ${now}`,
      { sharesE4: sql`shares_e4`, priceE4: sql`price_e4`, cents: sql`cost_cents`, at: sql`ended_at` },
    ),
  });
  if (cancelled.length === 1)
    return { ok: true, serial: positionSerial(positionId), emailIds: notice.map((n) => n.id) };
  const row = await db
    .select({ openedAt: schema.positions.openedAt, userId: schema.positions.userId, status: schema.positions.status })
    .from(schema.positions)
    .where(sql`id = ${positionId}`)
    .get();
  if (!row || row.userId !== client.id) return { ok: false, status: 404, error: ORDER_MESSAGES.cancelNotFound };
  if (row.status === "cancelled") return { ok: true, serial: positionSerial(positionId), emailIds: [] };
  return {
    ok: false,
    status: 409,
    error: withinCancelWindow(row.openedAt, now) ? ORDER_MESSAGES.cancelAfterSale : ORDER_MESSAGES.cancelTooLate,
  };
}
