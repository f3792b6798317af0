import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { costOf, costPart, ORDER_RULES, proceedsOf } from "~/lib/money/orders";
import { summarize } from "~/lib/money/rules";
import { ORDER_MESSAGES } from "~/lib/schemas/orders";
import { DELETION_MESSAGES, deleteClientData } from "~/server/admin/deletion.server";
import { ledgerTotals, openPositionsCostCents, withdrawableCents } from "~/server/ledger/figures.server";
import { cancelPosition, openPosition, spendableCents } from "~/server/positions/orders.server";
import { clientSelling, heldSharesE4, sellShares } from "~/server/positions/sales.server";
import { createUser, db, dbRefusal, fundedClient, insertTransaction } from "../support/fixtures";

/** A quote as the server reads it: prices in ten-thousandths of a dollar. */
const quote = (bid: number, ask: number, at = Date.now()) => ({
  bidE4: Math.round(bid * 10_000),
  askE4: Math.round(ask * 10_000),
  at,
});

async function buy(client: { id: string; email: string }, symbol: string, sharesE4: number, ask: number, now?: number) {
  const q = quote(ask - 0.04, ask);
  const costCents = costOf(sharesE4, q.askE4);
  const requester = { ...client, firstName: "Pat", lastName: "Lee" };
  return openPosition(db, requester, { symbol, sharesE4, costCents, idempotencyKey: crypto.randomUUID() }, q, now);
}

async function sell(
  client: { id: string; email: string },
  symbol: string,
  sharesE4: number,
  bid: number,
  key?: string,
) {
  const q = quote(bid, bid + 0.04);
  const requester = { ...client, firstName: "Pat", lastName: "Lee" };
  const order = {
    symbol,
    sharesE4,
    proceedsCents: proceedsOf(sharesE4, q.bidE4),
    idempotencyKey: key ?? crypto.randomUUID(),
  };
  return sellShares(db, requester, clientSelling(client), order, q);
}

const positionsOf = (userId: string) =>
  db.all<{ id: number; status: string; open_shares_e4: number; open_cost_cents: number }>(
    sql`SELECT id, status, open_shares_e4, open_cost_cents FROM positions WHERE user_id = ${userId} ORDER BY id`,
  );

describe("buying", () => {
  it("opens a position at the ask, reserving its cost without touching the balance", async () => {
    const client = await fundedClient(100_000);
    const bought = await buy(client, "AAPL", 35_000, 190.02);
    expect(bought.ok && bought.position).toMatchObject({ symbol: "AAPL", sharesE4: 35_000, costCents: 66_507 });
    const figures = summarize(await ledgerTotals(db, client.id));
    expect(figures.ledgerBalance).toBe(100_000);
    expect(figures.available).toBe(100_000);
    expect(await openPositionsCostCents(db, client.id)).toBe(66_507);
    expect(await spendableCents(db, client.id)).toBe(100_000 - 66_507);
    expect(await withdrawableCents(db, client.id)).toBe(100_000 - 66_507);
  });

  it("refuses a buy the available funds do not cover, pending withdrawals reserved, and writes nothing", async () => {
    const client = await fundedClient(50_000);
    await insertTransaction(client.id, { transactionType: "withdraw", status: "pending", amountCents: 20_000 });
    const refused = await buy(client, "TSLA", 20_000, 160);
    expect(refused).toEqual({ ok: false, status: 409, error: ORDER_MESSAGES.notEnoughFunds(30_000) });
    expect(await positionsOf(client.id)).toEqual([]);
    const fits = await buy(client, "TSLA", 18_750, 160);
    expect(fits.ok).toBe(true);
    expect(await spendableCents(db, client.id)).toBe(0);
  });

  it("lets 20 parallel orders spend the available funds once, never more", async () => {
    const client = await fundedClient(1_000_000);
    // Each buys 3 shares at $200.00: $600, so 16 fit in $10,000 and 4 must be refused.
    const results = await Promise.all(Array.from({ length: 20 }, () => buy(client, "MSFT", 30_000, 200)));
    expect(results.filter((r) => r.ok)).toHaveLength(16);
    expect(results.filter((r) => !r.ok)).toHaveLength(4);
    expect(await openPositionsCostCents(db, client.id)).toBe(960_000);
    expect(await spendableCents(db, client.id)).toBe(40_000);
  });

  it("makes a double-clicked order one position", async () => {
    const client = await fundedClient(100_000);
    const q = quote(99.98, 100.02);
    const order = { symbol: "AMD", sharesE4: 10_000, costCents: 10_002, idempotencyKey: crypto.randomUUID() };
    const requester = { ...client, firstName: "Pat", lastName: "Lee" };
    const [first, second] = await Promise.all([
      openPosition(db, requester, order, q),
      openPosition(db, requester, order, q),
    ]);
    expect(first.ok && second.ok && first.position.id === second.position.id).toBe(true);
    expect(await positionsOf(client.id)).toHaveLength(1);
  });

  it("refuses a suspended client's order", async () => {
    const client = await fundedClient(100_000);
    await env.DB.prepare("UPDATE profiles SET status = 'suspended' WHERE user_id = ?").bind(client.id).run();
    const refused = await buy(client, "AAPL", 10_000, 190);
    expect(refused.ok).toBe(false);
    expect(await positionsOf(client.id)).toEqual([]);
  });
});

describe("cancelling within 3 seconds", () => {
  it("cancels the client's own position inside the window and releases its reserve", async () => {
    const client = await fundedClient(100_000);
    const bought = await buy(client, "AAPL", 10_000, 190);
    if (!bought.ok) throw new Error(bought.error);
    const requester = { ...client, firstName: "Pat", lastName: "Lee" };
    expect(await cancelPosition(db, requester, bought.position.id)).toMatchObject({ ok: true });
    expect((await positionsOf(client.id))[0]).toMatchObject({ status: "cancelled", open_cost_cents: 0 });
    expect(await spendableCents(db, client.id)).toBe(100_000);
    expect(summarize(await ledgerTotals(db, client.id)).totalTrades).toBe(0);
  });

  it("refuses a cancel after the window, another client's cancel, and a cancel after a sale", async () => {
    const client = await fundedClient(100_000);
    const other = await fundedClient(100_000);
    const placedAt = Date.now();
    const bought = await buy(client, "AAPL", 20_000, 190, placedAt);
    if (!bought.ok) throw new Error(bought.error);
    const requester = { ...client, firstName: "Pat", lastName: "Lee" };
    const late = await cancelPosition(db, requester, bought.position.id, placedAt + ORDER_RULES.cancelWindowMs);
    expect(late).toEqual({ ok: false, status: 409, error: ORDER_MESSAGES.cancelTooLate });
    const stranger = { ...other, firstName: "Sam", lastName: "Roe" };
    expect(await cancelPosition(db, stranger, bought.position.id, placedAt + 10)).toMatchObject({ status: 404 });
    expect((await sell(client, "AAPL", 5_000, 191)).ok).toBe(true);
    const afterSale = await cancelPosition(db, requester, bought.position.id, placedAt + 20);
    expect(afterSale).toEqual({ ok: false, status: 409, error: ORDER_MESSAGES.cancelAfterSale });
    expect((await positionsOf(client.id))[0]).toMatchObject({ status: "open", open_shares_e4: 15_000 });
  });

  it("is refused by the database after the window, whatever the code does", async () => {
    const client = await fundedClient(100_000);
    const bought = await buy(client, "AAPL", 10_000, 190, Date.now() - 6_000);
    if (!bought.ok) throw new Error(bought.error);
    const refusal = await dbRefusal(
      db.run(sql`UPDATE positions SET status = 'cancelled', open_shares_e4 = 0, open_cost_cents = 0
                 WHERE id = ${bought.position.id}`),
    );
    expect(refusal).toMatch(/cancelled only within seconds/);
  });
});

describe("selling, oldest lot first", () => {
  it("closes lots FIFO at the bid and posts the result as the stock's profit or loss entry", async () => {
    const client = await fundedClient(200_000);
    const first = await buy(client, "AAPL", 35_000, 190.02); // 3.5 at 190.02: $665.07
    const second = await buy(client, "AAPL", 20_000, 200.02); // 2 at 200.02: $400.04
    if (!first.ok || !second.ok) throw new Error("buys refused");

    // 4 shares at 210.00: the whole first lot ($665.07) and 0.5 of the second ($100.01), for $840.00.
    const sold = await sell(client, "AAPL", 40_000, 210);
    expect(sold.ok && sold.sale).toMatchObject({ proceedsCents: 84_000, costCents: 76_508, resultCents: 7_492 });
    expect(sold.ok && sold.entry).toMatchObject({ transactionType: "profit", amountCents: 7_492, status: "approved" });
    expect(await positionsOf(client.id)).toEqual([
      { id: first.position.id, status: "closed", open_shares_e4: 0, open_cost_cents: 0 },
      { id: second.position.id, status: "open", open_shares_e4: 15_000, open_cost_cents: 30_003 },
    ]);
    const entry = await db.get<{ trading_pair: string; balance_after_cents: number }>(
      sql`SELECT trading_pair, balance_after_cents FROM transactions WHERE user_id = ${client.id} AND transaction_type = 'profit'`,
    );
    expect(entry).toEqual({ trading_pair: "AAPL", balance_after_cents: 207_492 });

    // The last 1.5 at 190.00: $285.00 for a cost of $300.03, a loss of $15.03.
    const rest = await sell(client, "AAPL", 15_000, 190);
    expect(rest.ok && rest.sale).toMatchObject({ proceedsCents: 28_500, costCents: 30_003, resultCents: -1_503 });
    expect(rest.ok && rest.entry).toMatchObject({ transactionType: "loss", amountCents: 1_503 });
    const figures = summarize(await ledgerTotals(db, client.id));
    expect(figures).toMatchObject({ ledgerBalance: 205_989, totalProfit: 5_989, totalTrades: 2, winRate: 50 });
    expect(await openPositionsCostCents(db, client.id)).toBe(0);
    const profile = await db.get<{ balance_cents: number; total_trades: number }>(
      sql`SELECT balance_cents, total_trades FROM profiles WHERE user_id = ${client.id}`,
    );
    expect(profile).toEqual({ balance_cents: 205_989, total_trades: 2 });
  });

  it("refuses to sell more than is held, or another stock, and writes nothing", async () => {
    const client = await fundedClient(100_000);
    await buy(client, "NVDA", 10_000, 135);
    const tooMany = await sell(client, "NVDA", 10_001, 136);
    expect(tooMany).toEqual({ ok: false, status: 409, error: ORDER_MESSAGES.notEnoughShares("NVDA", 10_000) });
    const none = await sell(client, "AAPL", 10_000, 190);
    expect(none).toEqual({ ok: false, status: 409, error: ORDER_MESSAGES.notEnoughShares("AAPL", 0) });
    expect(await db.get(sql`SELECT count(*) AS n FROM stock_sales WHERE user_id = ${client.id}`)).toEqual({ n: 0 });
    expect(await heldSharesE4(db, client.id, "NVDA")).toBe(10_000);
  });

  it("sells once for a retried form: no second close, no second entry", async () => {
    const client = await fundedClient(100_000);
    await buy(client, "AMZN", 20_000, 197);
    const key = crypto.randomUUID();
    const [a, b] = await Promise.all([sell(client, "AMZN", 10_000, 198, key), sell(client, "AMZN", 10_000, 198, key)]);
    expect(a.ok && b.ok).toBe(true);
    expect([a, b].filter((r) => r.ok && r.replayed)).toHaveLength(1);
    expect(await heldSharesE4(db, client.id, "AMZN")).toBe(10_000);
    const entries = await db.get<{ n: number }>(
      sql`SELECT count(*) AS n FROM transactions WHERE user_id = ${client.id} AND transaction_type = 'profit'`,
    );
    expect(entries).toEqual({ n: 1 });
  });

  it("writes no ledger row for a sale at exactly its cost", async () => {
    const client = await fundedClient(100_000);
    await buy(client, "F", 100_000, 10.87);
    const even = await sell(client, "F", 100_000, 10.87);
    expect(even.ok && even.sale.resultCents).toBe(0);
    expect(even.ok && even.entry).toBeNull();
    expect(summarize(await ledgerTotals(db, client.id)).totalTrades).toBe(0);
  });
});

describe("the database's guards", () => {
  it("keeps a position's terms, its rows and its closes", async () => {
    const client = await fundedClient(100_000);
    const bought = await buy(client, "AAPL", 10_000, 190);
    if (!bought.ok) throw new Error(bought.error);
    const id = bought.position.id;
    expect(await dbRefusal(db.run(sql`UPDATE positions SET price_e4 = 1 WHERE id = ${id}`))).toMatch(/final/);
    expect(
      await dbRefusal(db.run(sql`UPDATE positions SET open_cost_cents = open_cost_cents + 1 WHERE id = ${id}`)),
    ).toMatch(/shrinks/);
    expect(await dbRefusal(db.run(sql`DELETE FROM positions WHERE id = ${id}`))).toMatch(/kept/);
    await sell(client, "AAPL", 10_000, 191);
    expect(await dbRefusal(db.run(sql`UPDATE stock_sales SET result_cents = 0 WHERE user_id = ${client.id}`))).toMatch(
      /final/,
    );
    expect(await dbRefusal(db.run(sql`DELETE FROM position_closes WHERE position_id = ${id}`))).toMatch(/kept/);
  });

  it("refuses a close of another client's lot", async () => {
    const client = await fundedClient(100_000);
    const other = await createUser();
    await env.DB.prepare(
      `INSERT INTO stock_sales (user_id, symbol, shares_e4, price_e4, quote_at, proceeds_cents, sold_by, idempotency_key, sold_at)
       VALUES (?, 'AAPL', 10000, 1900000, 1, 19000, ?, 'k', 1)`,
    )
      .bind(other.id, other.id)
      .run();
    const bought = await buy(client, "AAPL", 10_000, 190);
    if (!bought.ok) throw new Error(bought.error);
    const refusal = await dbRefusal(
      db.run(sql`INSERT INTO position_closes (sale_id, position_id, shares_e4, cost_cents)
                 SELECT id, ${bought.position.id}, 10000, 19000 FROM stock_sales WHERE user_id = ${other.id}`),
    );
    expect(refusal).toMatch(/own client/);
  });
});

describe("deleting a client's data", () => {
  it("is refused while they hold open positions, and changes nothing", async () => {
    const client = await fundedClient(100_000);
    const admin = await createUser({ role: "admin" });
    await buy(client, "AAPL", 10_000, 190);
    const refused = await deleteClientData(db, { id: admin.id, email: admin.email }, client.id);
    expect(refused).toEqual({ ok: false, error: DELETION_MESSAGES.openPositions });
    expect(await db.get(sql`SELECT count(*) AS n FROM transactions WHERE user_id = ${client.id}`)).toEqual({ n: 1 });
    await sell(client, "AAPL", 10_000, 191);
    expect(await deleteClientData(db, { id: admin.id, email: admin.email }, client.id)).toEqual({ ok: true });
  });
});

/** The FIFO rules in plain TypeScript: the reference the database's statements are held to. */
function fifoModel(steps: Array<{ side: "buy" | "sell"; sharesE4: number; priceE4: number }>) {
  const lots: Array<{ open: number; cost: number }> = [];
  const results: number[] = [];
  for (const step of steps) {
    if (step.side === "buy") {
      const cost = costOf(step.sharesE4, step.priceE4);
      lots.push({ open: step.sharesE4, cost });
      continue;
    }
    const held = lots.reduce((sum, lot) => sum + lot.open, 0);
    if (step.sharesE4 > held) continue;
    let left = step.sharesE4;
    let cost = 0;
    for (const lot of lots) {
      if (left === 0 || lot.open === 0) continue;
      const take = Math.min(lot.open, left);
      const part = costPart(lot.cost, lot.open, take);
      lot.open -= take;
      lot.cost -= part;
      cost += part;
      left -= take;
    }
    results.push(proceedsOf(step.sharesE4, step.priceE4) - cost);
  }
  return { lots: lots.filter((lot) => lot.open > 0), results };
}

describe("FIFO against its model", () => {
  it("closes lots, carries cost and writes results as the model does, on random orders", async () => {
    const steps = fc.array(
      fc.record({
        side: fc.constantFrom("buy" as const, "sell" as const),
        sharesE4: fc.integer({ min: 1, max: 60_000 }),
        priceE4: fc.integer({ min: 10_000, max: 3_000_000 }),
      }),
      { minLength: 1, maxLength: 12 },
    );
    await fc.assert(
      fc.asyncProperty(steps, async (list) => {
        const client = await fundedClient(100_000_000);
        const requester = { ...client, firstName: "Pat", lastName: "Lee" };
        const played: typeof list = [];
        for (const step of list) {
          const cents =
            step.side === "buy" ? costOf(step.sharesE4, step.priceE4) : proceedsOf(step.sharesE4, step.priceE4);
          if (cents <= 0) continue;
          const q = { bidE4: step.priceE4, askE4: step.priceE4, at: Date.now() };
          const key = crypto.randomUUID();
          if (step.side === "buy") {
            await openPosition(
              db,
              requester,
              { symbol: "AAPL", sharesE4: step.sharesE4, costCents: cents, idempotencyKey: key },
              q,
            );
          } else {
            const seller = clientSelling(client);
            await sellShares(
              db,
              requester,
              seller,
              { symbol: "AAPL", sharesE4: step.sharesE4, proceedsCents: cents, idempotencyKey: key },
              q,
            );
          }
          played.push(step);
        }
        const model = fifoModel(played);
        const open = await db.all<{ open_shares_e4: number; open_cost_cents: number }>(
          sql`SELECT open_shares_e4, open_cost_cents FROM positions WHERE user_id = ${client.id} AND status = 'open' ORDER BY id`,
        );
        expect(open.map((p) => ({ open: p.open_shares_e4, cost: p.open_cost_cents }))).toEqual(model.lots);
        const sales = await db.all<{ result_cents: number }>(
          sql`SELECT result_cents FROM stock_sales WHERE user_id = ${client.id} ORDER BY id`,
        );
        expect(sales.map((s) => s.result_cents)).toEqual(model.results);
        const figures = summarize(await ledgerTotals(db, client.id));
        const realized = model.results.reduce((sum, r) => sum + r, 0);
        expect(figures.totalProfit).toBe(realized);
        expect(figures.ledgerBalance).toBe(100_000_000 + realized);
        expect(figures.totalTrades).toBe(model.results.filter((r) => r !== 0).length);
        expect(await openPositionsCostCents(db, client.id)).toBe(model.lots.reduce((sum, lot) => sum + lot.cost, 0));
      }),
      { numRuns: 25 },
    );
  });
});
