/**
 * Orders made as the order commands make them, at a given moment: a buy at the ask of a quote, a sale at its bid,
 * each filled as the server fills it (`costOf`, `proceedsOf`). The quote's other side is 4 cents off, as a spread.
 */
import { costOf, proceedsOf } from "~/lib/money/orders";
import { openPosition } from "~/server/positions/orders.server";
import { clientSelling, sellShares } from "~/server/positions/sales.server";
import { db } from "./fixtures";

type Client = { id: string; email: string };

/** A price in dollars as ten-thousandths. */
const e4 = (dollars: number) => Math.round(dollars * 10_000);

export async function buyAt(client: Client, symbol: string, sharesE4: number, ask: number, at: number) {
  const quote = { bidE4: e4(ask) - 400, askE4: e4(ask), at };
  const order = { symbol, sharesE4, costCents: costOf(sharesE4, quote.askE4), idempotencyKey: crypto.randomUUID() };
  const bought = await openPosition(db, { ...client, firstName: "Pat", lastName: "Lee" }, order, quote, at);
  if (!bought.ok) throw new Error(bought.error);
  return bought.position;
}

export async function sellAt(client: Client, symbol: string, sharesE4: number, bid: number, at: number) {
  const quote = { bidE4: e4(bid), askE4: e4(bid) + 400, at };
  const order = {
    symbol,
    sharesE4,
    proceedsCents: proceedsOf(sharesE4, quote.bidE4),
    idempotencyKey: crypto.randomUUID(),
  };
  const requester = { ...client, firstName: "Pat", lastName: "Lee" };
  const sold = await sellShares(db, requester, clientSelling(client), order, quote, at);
  if (!sold.ok) throw new Error(sold.error);
  return sold;
}
