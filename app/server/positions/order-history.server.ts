/**
 * The Orders section of a client's History (/transactions): their orders newest first, 50 a page by keyset, the
 * page after the cursor `ordersBefore` (the last order shown) when the address carries one. Always the signed-in
 * client's own: a cursor names only a place in their list.
 */
import type { Db } from "../db.server";
import { orderCursor, ordersQuery, parseOrderCursor } from "./reads.server";

export const ORDERS_PAGE_SIZE = 50;

export async function clientOrders(db: Db, userId: string, url: URL, pageSize = ORDERS_PAGE_SIZE) {
  const after = parseOrderCursor(url.searchParams.get("ordersBefore"));
  const rows = await ordersQuery(db, userId, { after, limit: pageSize + 1 });
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return {
    orders: page,
    /** The cursor of the page of older orders, or null when this page is the last. */
    olderOrders: rows.length > pageSize && last ? orderCursor(last) : null,
    /** Whether this is a later page, so the list offers the way back to the newest. */
    olderPage: after !== undefined,
  };
}
