/**
 * The order ticket's commands (docs/product.md, "Orders and positions"): the form read in the ticket's order, the
 * server's quote read at that moment (never a price from the page), the fill, then the buy's or the sale's own
 * statement. The client's open pages and their desk page hear of it after the commit.
 */

import { formatCents } from "~/lib/format";
import { refusalOf } from "~/lib/forms";
import { type Fill, fillOf, formatPrice, formatShares, positionSerial } from "~/lib/money/orders";
import { idempotencyKeyOf, MONEY_MESSAGES } from "~/lib/schemas/money";
import { ORDER_MESSAGES, type OrderRequest, parseOrderForm } from "~/lib/schemas/orders";
import { findStock } from "~/lib/stocks";
import { runAct } from "../acts.server";
import { afterCommit, type CommandContext } from "../commands.server";
import type { Refusal } from "../intents.server";
import { moneyRequester } from "../ledger/requests.server";
import { readQuote } from "../quotes/quotes.server";
import type { SessionUser } from "../session.server";
import { readClientLevel } from "../verification/levels.server";
import { cancelPosition, openPosition } from "./orders.server";
import { clientSelling, sellShares } from "./sales.server";

export type OrderOutcome =
  | { ok: true; message: string; positionId?: number; placedAt?: number }
  | ({ ok: false } & Refusal);

const signed = (cents: number) => `${cents >= 0 ? "+" : "−"}${formatCents(Math.abs(cents))}`;

/** What the ticket says once the order is done. */
export const ORDER_DONE = {
  bought: (symbol: string, fill: Fill, serial: string) =>
    `Bought ${formatShares(fill.sharesE4)} ${symbol} at ${formatPrice(fill.priceE4)} for ${formatCents(fill.cents)}: position ${serial}`,
  sold: (symbol: string, fill: Fill, resultCents: number) =>
    `Sold ${formatShares(fill.sharesE4)} ${symbol} at ${formatPrice(fill.priceE4)} for ${formatCents(fill.cents)}: result ${signed(resultCents)}`,
  cancelled: (serial: string) => `Order ${serial} cancelled: nothing was bought`,
};

function tellPages(context: CommandContext, userId: string, emailIds: number[]) {
  const event = { type: "positions.changed", userId } as const;
  afterCommit(context, { emailIds, events: [{ userId, event }], deskEvents: [event] });
}

/**
 * Reads the ticket and places the order for the signed-in client on `symbol`: one of the watchlist, a side and a
 * size, a Restricted client only selling, a fresh quote, a fill within the order limits; then the statement.
 */
export async function placeOrder(
  context: CommandContext,
  user: SessionUser | null,
  symbol: string,
  form: FormData,
  now = Date.now(),
): Promise<OrderOutcome> {
  const requester = moneyRequester(user);
  if (!requester.ok) return requester;
  const { client } = requester;
  // The acts table's row: who may order and whether a code is asked (none; docs/product.md).
  const ran = await runAct(context, client, "order", { form, run: () => fill(context, client, symbol, form, now) });
  return "answer" in ran ? ran.answer : ran.refused;
}

async function fill(
  context: CommandContext,
  client: SessionUser,
  symbol: string,
  form: FormData,
  now: number,
): Promise<OrderOutcome> {
  const stock = findStock(symbol);
  if (!stock) return { ok: false, error: ORDER_MESSAGES.unknownStock, status: 404 };
  const parsed = parseOrderForm(form);
  if (!parsed.ok) return { ok: false, ...refusalOf(parsed), status: 400 };
  const idempotencyKey = idempotencyKeyOf(form);
  if (!idempotencyKey) return { ok: false, error: MONEY_MESSAGES.formExpired, status: 400 };
  const order: OrderRequest = parsed.data;
  if (order.side === "buy" && (await readClientLevel(context.db, context.env, client.id, now)).level === "restricted")
    return { ok: false, error: ORDER_MESSAGES.restricted, status: 403 };
  const read = await readQuote(context.bindings, stock.symbol, now);
  if (!read.ok) return { ok: false, error: ORDER_MESSAGES.priceUnavailable, status: 503 };
  const fill = fillOf(order, read.quote);
  if (fill === "small") {
    const error = order.sizing === "amount" ? ORDER_MESSAGES.tooSmallForPrice : ORDER_MESSAGES.belowMinimum;
    return { ok: false, error, field: "quantity", status: 400 };
  }
  if (fill === "large") return { ok: false, error: ORDER_MESSAGES.aboveMaximum, field: "quantity", status: 400 };

  if (order.side === "buy") {
    const position = { symbol: stock.symbol, sharesE4: fill.sharesE4, costCents: fill.cents, idempotencyKey };
    const opened = await openPosition(context.db, client, position, read.quote, now);
    if (!opened.ok) return opened;
    if (!opened.replayed) tellPages(context, client.id, opened.emailIds);
    // What was written, not what this request asked: a retried form's key names the order it placed first.
    const { id, openedAt, symbol: bought, sharesE4, priceE4, costCents } = opened.position;
    const filled = { sharesE4, priceE4, cents: costCents };
    return {
      ok: true,
      message: ORDER_DONE.bought(bought, filled, positionSerial(id)),
      positionId: id,
      placedAt: openedAt,
    };
  }
  const sale = { symbol: stock.symbol, sharesE4: fill.sharesE4, proceedsCents: fill.cents, idempotencyKey };
  const sold = await sellShares(context.db, client, clientSelling(client), sale, read.quote, now);
  if (!sold.ok) return sold;
  if (!sold.replayed) {
    tellPages(context, client.id, sold.emailIds);
    if (sold.entry)
      afterCommit(context, {
        events: [{ userId: client.id, event: { type: "transaction.created", transaction: sold.entry } }],
      });
  }
  const { symbol: soldSymbol, sharesE4, priceE4, proceedsCents, resultCents } = sold.sale;
  return { ok: true, message: ORDER_DONE.sold(soldSymbol, { sharesE4, priceE4, cents: proceedsCents }, resultCents) };
}

/** Cancels the client's own position, within the window of its order. */
export async function cancelOrder(context: CommandContext, user: SessionUser | null, form: FormData, now = Date.now()) {
  const requester = moneyRequester(user);
  if (!requester.ok) return requester;
  const { client } = requester;
  const ran = await runAct(context, client, "orderCancel", {
    form,
    run: async (): Promise<OrderOutcome> => {
      const id = Number(form.get("positionId"));
      if (!Number.isSafeInteger(id) || id <= 0) return { ok: false, error: ORDER_MESSAGES.cancelNotFound, status: 404 };
      const cancelled = await cancelPosition(context.db, client, id, now);
      if (!cancelled.ok) return cancelled;
      tellPages(context, client.id, cancelled.emailIds);
      return { ok: true, message: ORDER_DONE.cancelled(cancelled.serial) };
    },
  });
  return "answer" in ran ? ran.answer : ran.refused;
}
