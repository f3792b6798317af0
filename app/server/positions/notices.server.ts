/**
 * The client's notice of an order (the `order_filled` mail, which writes the notification): one per buy, cancel,
 * sale or desk's close, built in the statement from the row the same batch wrote, so it follows the row or nothing.
 */
import { type SQL, sql } from "drizzle-orm";
import { returning } from "../db.server";
import type { Requester } from "../ledger/requests.server";

/** A client's buy, its cancel, their sale, or the desk's close of one of their positions (a sale too). */
type OrderKind = "buy" | "cancel" | "sell" | "close";

const SERIAL: Record<OrderKind, string> = { buy: "P-%06d", cancel: "P-%06d", sell: "S-%06d", close: "S-%06d" };

/**
 * `from` names the row (FROM … WHERE …), whose columns give the figures: `sharesE4`, `priceE4`, `cents`, `at`
 * and, for a sale, `resultCents` are SQL over that row.
 */
export function orderNotice(
  client: Requester,
  order: OrderKind,
  from: SQL,
  columns: { sharesE4: SQL; priceE4: SQL; cents: SQL; at: SQL; resultCents?: SQL },
) {
  const payload = sql`json_object('name', ${client.firstName || ""}, 'order', ${order}, 'symbol', symbol,
    'serial', printf(${SERIAL[order]}, id), 'sharesE4', ${columns.sharesE4}, 'priceE4', ${columns.priceE4},
    'cents', ${columns.cents}, 'resultCents', ${columns.resultCents ?? sql`NULL`}, 'at', ${columns.at})`;
  return returning<{ id: number }>(
    sql`INSERT INTO email_outbox (to_address, template, payload, dedupe_key)
        SELECT ${client.email.trim().toLowerCase()}, 'order_filled', ${payload}, ${`order_filled:${order}:`} || id
        FROM ${from}
        ON CONFLICT (dedupe_key) DO NOTHING
        RETURNING id`,
  );
}
