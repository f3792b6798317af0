/**
 * What the client page of the back office shows of a client's trading (docs/product.md, "Client page"): their open
 * positions marked at the quote's mid when the page was loaded (the desk's pages do not poll prices), and a page of
 * their orders, as the client's History lists them.
 */
import { marksOf } from "~/lib/holdings";
import type { Db } from "../db.server";
import type { WorkerBindings } from "../env.server";
import { quoteViews } from "../quotes/views.server";
import { clientOrders } from "./order-history.server";
import { openPositionsQuery } from "./reads.server";

export async function deskTrading(db: Db, bindings: WorkerBindings, userId: string, url: URL) {
  const [openPositions, orders] = await Promise.all([
    openPositionsQuery(db, userId, 50),
    clientOrders(db, userId, url),
  ]);
  const views = await quoteViews(bindings, [...new Set(openPositions.map((p) => p.symbol))]);
  return { openPositions, marks: marksOf(new Map(views.map((view) => [view.symbol, view]))), ...orders };
}

export type DeskTrading = Awaited<ReturnType<typeof deskTrading>>;
