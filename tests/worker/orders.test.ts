import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { ORDER_MESSAGES } from "~/lib/schemas/orders";
import worker from "../../workers/app";
import { db, formRequest, fundedClient, ORIGIN, signedInAdmin } from "../support/fixtures";
import { quotesControl } from "../support/quotes";

/**
 * The order ticket through the whole Worker, priced by a world of the run's quotes simulator: what a client sees
 * and what is written when they buy by shares or by amount, sell, cancel within 3 seconds, or try on a stale price.
 */
function market() {
  const quotes = quotesControl(inject("chainSimulatorUrl"), `orders-${crypto.randomUUID().slice(0, 8)}`);
  return { quotes, bindings: { ...env, ...quotes.vars } as typeof env };
}

const text = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");

async function order(
  bindings: typeof env,
  cookie: string,
  symbol: string,
  fields: Record<string, string>,
): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    formRequest(`/stocks/${symbol}`, { intent: "order", idempotencyKey: crypto.randomUUID(), ...fields }, { cookie }),
    bindings,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

async function cancel(bindings: typeof env, cookie: string, positionId: number) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    formRequest("/stocks/AAPL", { intent: "cancelOrder", positionId: String(positionId) }, { cookie }),
    bindings,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

const positionsOf = (userId: string) =>
  db.all<{ id: number; symbol: string; shares_e4: number; price_e4: number; cost_cents: number; status: string }>(
    sql`SELECT id, symbol, shares_e4, price_e4, cost_cents, status FROM positions WHERE user_id = ${userId} ORDER BY id`,
  );

describe("the order ticket", () => {
  it("buys 3.5 AAPL by shares and $500 of TSLA by amount at the server's ask, whatever the form says", async () => {
    const { quotes, bindings } = market();
    await quotes.set("AAPL", { bid: "189.98", ask: "190.02" });
    await quotes.set("TSLA", { bid: "248.46", ask: "248.50" });
    const client = await fundedClient(200_000);

    // A price in the form is not read: the fill is the server's.
    const bought = await order(bindings, client.cookie, "AAPL", {
      side: "buy",
      sizing: "shares",
      quantity: "3.5",
      price: "1.00",
    });
    expect(bought.status).toBe(200);
    const [aapl] = await positionsOf(client.id);
    expect(aapl).toMatchObject({ symbol: "AAPL", shares_e4: 35_000, price_e4: 1_900_200, cost_cents: 66_507 });
    expect(await text(bought)).toContain(
      `Bought 3.5 AAPL at $190.02 for $665.07: position P-${String(aapl?.id).padStart(6, "0")}`,
    );

    // $500 buys the most ten-thousandths of a share it pays for: 2.012 at $248.50 is $499.982, paid as $499.99.
    const byAmount = await order(bindings, client.cookie, "TSLA", { side: "buy", sizing: "amount", quantity: "500" });
    expect(await text(byAmount)).toContain("Bought 2.012 TSLA at $248.50 for $499.99");
    expect((await positionsOf(client.id))[1]).toMatchObject({ shares_e4: 20_120, cost_cents: 49_999 });
  });

  it("sells part of a position at the bid and shows the result", async () => {
    const { quotes, bindings } = market();
    await quotes.set("AAPL", { bid: "189.98", ask: "190.02" });
    const client = await fundedClient(200_000);
    await order(bindings, client.cookie, "AAPL", { side: "buy", sizing: "shares", quantity: "3.5" });
    const sold = await order(bindings, client.cookie, "AAPL", { side: "sell", sizing: "shares", quantity: "1.5" });
    expect(sold.status).toBe(200);
    // 1.5 of the 3.5 shares carry $285.03 of the $665.07 cost; they sell for $284.97.
    expect(await text(sold)).toContain("Sold 1.5 AAPL at $189.98 for $284.97: result −$0.06");
    const loss = await db.get<{ amount_cents: number; trading_pair: string }>(
      sql`SELECT amount_cents, trading_pair FROM transactions WHERE user_id = ${client.id} AND transaction_type = 'loss'`,
    );
    expect(loss).toEqual({ amount_cents: 6, trading_pair: "AAPL" });
    const tooMany = await order(bindings, client.cookie, "AAPL", { side: "sell", sizing: "shares", quantity: "2.5" });
    expect(tooMany.status).toBe(409);
    expect(await text(tooMany)).toContain("You hold 2 AAPL: you cannot sell more.");
  });

  it("never trades on a stale or missing price, and writes nothing", async () => {
    const { quotes, bindings } = market();
    const client = await fundedClient(200_000);
    await quotes.set("AAPL", 190);
    await quotes.age("AAPL", 60);
    const stale = await order(bindings, client.cookie, "AAPL", { side: "buy", sizing: "shares", quantity: "1" });
    expect(stale.status).toBe(503);
    expect(await text(stale)).toContain(ORDER_MESSAGES.priceUnavailable);
    await quotes.fail();
    const outage = await order(bindings, client.cookie, "AAPL", { side: "buy", sizing: "shares", quantity: "1" });
    expect(outage.status).toBe(503);
    expect(await positionsOf(client.id)).toEqual([]);
  });

  it("cancels a buy within 3 seconds, and only the client's own", async () => {
    const { quotes, bindings } = market();
    await quotes.set("AAPL", 190);
    const client = await fundedClient(200_000);
    const other = await fundedClient(200_000);
    await order(bindings, client.cookie, "AAPL", { side: "buy", sizing: "shares", quantity: "1" });
    const [position] = await positionsOf(client.id);
    if (!position) throw new Error("no position");
    const stranger = await cancel(bindings, other.cookie, position.id);
    expect(stranger.status).toBe(404);
    const cancelled = await cancel(bindings, client.cookie, position.id);
    expect(cancelled.status).toBe(200);
    expect(await text(cancelled)).toContain(
      `Order P-${String(position.id).padStart(6, "0")} cancelled: nothing was bought`,
    );
    expect((await positionsOf(client.id))[0]?.status).toBe("cancelled");
  });

  it("refuses bad sizes with the field named, an unknown stock, and a signed-out visitor", async () => {
    const { quotes, bindings } = market();
    await quotes.set("F", 10.87);
    const client = await fundedClient(200_000);
    const tooPrecise = await order(bindings, client.cookie, "F", {
      side: "buy",
      sizing: "shares",
      quantity: "1.00001",
    });
    expect(tooPrecise.status).toBe(400);
    expect(await text(tooPrecise)).toContain(ORDER_MESSAGES.invalidShares);
    const tiny = await order(bindings, client.cookie, "F", { side: "buy", sizing: "shares", quantity: "0.05" });
    expect(await text(tiny)).toContain(ORDER_MESSAGES.belowMinimum);
    const noSide = await order(bindings, client.cookie, "F", { side: "hold", sizing: "shares", quantity: "1" });
    expect(await text(noSide)).toContain(ORDER_MESSAGES.chooseSide);
    const unknown = await order(bindings, client.cookie, "NOPE", { side: "buy", sizing: "shares", quantity: "1" });
    expect(unknown.status).toBe(404);
    const ctx = createExecutionContext();
    const signedOut = await worker.fetch(
      formRequest("/stocks/F", { intent: "order", side: "buy", sizing: "shares", quantity: "1" }),
      bindings,
      ctx,
    );
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toContain("/login");
    expect(await positionsOf(client.id)).toEqual([]);
  });

  it("lets a Restricted client sell but not buy", async () => {
    const { quotes, bindings } = market();
    await quotes.set("AAPL", 190);
    const client = await fundedClient(200_000, "Pat", { verified: false });
    await order(bindings, client.cookie, "AAPL", { side: "buy", sizing: "shares", quantity: "1" });
    // Registered long before the deadline of an unverified account: now Restricted.
    await env.DB.prepare("UPDATE users SET created_at = ? WHERE id = ?")
      .bind(Date.parse("2025-01-01"), client.id)
      .run();
    const restricted = { ...bindings, VERIFICATION_INTRODUCED_AT: "2025-01-01" } as typeof env;
    const buy = await order(restricted, client.cookie, "AAPL", { side: "buy", sizing: "shares", quantity: "1" });
    expect(buy.status).toBe(403);
    expect(await text(buy)).toContain(ORDER_MESSAGES.restricted);
    const sell = await order(restricted, client.cookie, "AAPL", { side: "sell", sizing: "shares", quantity: "1" });
    expect(sell.status).toBe(200);
  });

  it("shows the ticket with the client's figures, and no ticket to a visitor", async () => {
    const { quotes, bindings } = market();
    await quotes.set("AAPL", { bid: "189.98", ask: "190.02" });
    const client = await fundedClient(100_000);
    const ctx = createExecutionContext();
    const page = await worker.fetch(
      new Request(`${ORIGIN}/stocks/AAPL`, { headers: { Cookie: client.cookie } }),
      bindings,
      ctx,
    );
    const html = await text(page);
    expect(html).toContain("Trade AAPL");
    expect(html).toContain("You can spend $1,000.00.");
    const visitor = await text(await worker.fetch(new Request(`${ORIGIN}/stocks/AAPL`), bindings, ctx));
    expect(visitor).not.toContain("Trade AAPL");
    await waitOnExecutionContext(ctx);
  });
});

describe("the client's notice of an order", () => {
  it("writes a notification for each buy, cancel and sale, and the mail unless the client turned orders off", async () => {
    const { quotes, bindings } = market();
    await quotes.set("AAPL", { bid: "189.98", ask: "190.02" });
    const client = await fundedClient(200_000);
    await order(bindings, client.cookie, "AAPL", { side: "buy", sizing: "shares", quantity: "2" });
    const [position] = await positionsOf(client.id);
    if (!position) throw new Error("no position");
    const serial = `P-${String(position.id).padStart(6, "0")}`;
    await cancel(bindings, client.cookie, position.id);
    await env.DB.prepare("INSERT INTO mail_preferences (user_id, category, wanted) VALUES (?, 'orders', 0)")
      .bind(client.id)
      .run();
    await order(bindings, client.cookie, "AAPL", { side: "buy", sizing: "shares", quantity: "1" });
    await order(bindings, client.cookie, "AAPL", { side: "sell", sizing: "shares", quantity: "1" });
    const notices = await db.all<{ subject: string; kind: string }>(
      sql`SELECT subject, kind FROM notifications WHERE user_id = ${client.id} AND kind = 'order_filled' ORDER BY id`,
    );
    expect(notices.map((n) => n.subject)).toEqual([
      `order:${serial}`,
      `order:${serial}`,
      expect.stringMatching(/^order:P-\d{6}$/),
      expect.stringMatching(/^order:S-\d{6}$/),
    ]);
    const mails = await db.all<{ payload: string }>(
      sql`SELECT payload FROM email_outbox WHERE to_address = ${client.email} AND template = 'order_filled' ORDER BY id`,
    );
    // The first buy and its cancel were mailed; once the client turned order mails off, nothing more.
    expect(mails.map((m) => JSON.parse(m.payload).order)).toEqual(["buy", "cancel"]);
    const html = await text(
      await worker.fetch(
        new Request(`${ORIGIN}/notifications`, { headers: { Cookie: client.cookie } }),
        bindings,
        createExecutionContext(),
      ),
    );
    expect(html).toContain(`Bought 2 AAPL: position ${serial}`);
    expect(html).toContain(`Order ${serial} cancelled: nothing was bought`);
  });
});

describe("the desk's view of a client's trading", () => {
  it("shows the client's open positions at the mid and their orders, read-only", async () => {
    const { quotes, bindings } = market();
    await quotes.set("AAPL", { bid: "189.98", ask: "190.02" });
    const client = await fundedClient(200_000);
    await order(bindings, client.cookie, "AAPL", { side: "buy", sizing: "shares", quantity: "2" });
    await order(bindings, client.cookie, "AAPL", { side: "sell", sizing: "shares", quantity: "0.5" });
    const [position] = await positionsOf(client.id);
    const admin = await signedInAdmin();
    const html = await text(
      await worker.fetch(
        new Request(`${ORIGIN}/user/${client.id}`, { headers: { Cookie: admin.cookie } }),
        bindings,
        createExecutionContext(),
      ),
    );
    expect(html).toContain("The client&#x27;s open positions");
    expect(html).toContain(`P-${String(position?.id).padStart(6, "0")}`);
    // 1.5 shares left at the mid, $190.00: $285.00.
    expect(html).toContain("$285.00");
    expect(html).toContain("The client&#x27;s orders, newest first");
    expect(html).toMatch(/S-\d{6}/);
  });
});

describe("what an attacker tried on the ticket", () => {
  it("gains nothing from the rounding by buying once and selling in $1 pieces", async () => {
    const { quotes, bindings } = market();
    await quotes.set("AAPL", { bid: "189.98", ask: "190.02" });
    const client = await fundedClient(200_000);
    // 0.106 at $190.02 is $20.14212: the buy pays $20.15.
    const bought = await order(bindings, client.cookie, "AAPL", { side: "buy", sizing: "shares", quantity: "0.106" });
    expect(await text(bought)).toContain("for $20.15");
    // Each 0.0053 at $189.98 is $1.006894: each sale is paid $1.00.
    for (let i = 0; i < 20; i++) {
      await order(bindings, client.cookie, "AAPL", { side: "sell", sizing: "shares", quantity: "0.0053" });
    }
    const sales = await db.get<{ n: number; proceeds: number; result: number }>(
      sql`SELECT count(*) AS n, sum(proceeds_cents) AS proceeds, sum(result_cents) AS result
          FROM stock_sales WHERE user_id = ${client.id}`,
    );
    expect(sales).toEqual({ n: 20, proceeds: 2_000, result: -15 });
  });

  it("answers a form sent again with the order it placed first, whatever the new fields say", async () => {
    const { quotes, bindings } = market();
    await quotes.set("AAPL", { bid: "189.98", ask: "190.02" });
    await quotes.set("MSFT", 415);
    const client = await fundedClient(200_000);
    const idempotencyKey = crypto.randomUUID();
    await order(bindings, client.cookie, "AAPL", { side: "buy", sizing: "shares", quantity: "0.01", idempotencyKey });
    const again = await order(bindings, client.cookie, "MSFT", {
      side: "buy",
      sizing: "shares",
      quantity: "5",
      idempotencyKey,
    });
    expect(await text(again)).toContain("Bought 0.01 AAPL at $190.02 for $1.91");
    expect(await positionsOf(client.id)).toHaveLength(1);
  });
});
