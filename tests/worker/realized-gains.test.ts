import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { realizedTotal } from "~/lib/realized-gains";
import { parseSummaryYear, type SummaryYear, yearlySummary } from "~/server/ledger/yearly-summary.server";
import { type OrderKey, ordersQuery } from "~/server/positions/reads.server";
import { heldSharesE4 } from "~/server/positions/sales.server";
import { POSITION_RESULT_WALLET } from "../../db/enums";
import { db, fundedClient } from "../support/fixtures";
import { buyAt, sellAt } from "../support/orders";

/**
 * The yearly summary's Realized gains against the ledger: the table's total result is the year's approved profit
 * less loss written by sales (wallet 'position-close'), to the cent, on random buys and sells around the year; and
 * the order lists' keyset pages add up to the whole list in either order, ties at one moment included.
 */

const DAY = 86_400_000;
const YEAR = parseSummaryYear("2025") as SummaryYear;
/** A property run places a few dozen orders, each a batch: seconds, more on a busy machine. */
const PROPERTY_TIMEOUT = 60_000;

/** Orders from mid-December 2024 to mid-January 2026, several on one day (and so at one moment). */
const orders = fc.array(
  fc.record({
    side: fc.constantFrom("buy", "sell"),
    symbol: fc.constantFrom("AAPL", "MSFT"),
    sharesE4: fc.integer({ min: 100, max: 60_000 }),
    priceE4: fc.integer({ min: 10_000, max: 5_000_000 }),
    day: fc.integer({ min: -15, max: 380 }),
  }),
  { minLength: 1, maxLength: 14 },
);

/** The year's approved profit (+) and loss (−) that sales wrote to the ledger, by when the money moved. */
async function ledgerSaleResults(userId: string): Promise<number> {
  const row = await db.get<{ cents: number }>(
    sql`SELECT coalesce(sum(CASE transaction_type WHEN 'profit' THEN amount_cents ELSE -amount_cents END), 0) AS cents
        FROM transactions
        WHERE user_id = ${userId} AND status = 'approved' AND wallet_address = ${POSITION_RESULT_WALLET}
          AND transaction_type IN ('profit', 'loss')
          AND coalesce(decided_at, created_at) >= ${YEAR.start} AND coalesce(decided_at, created_at) < ${YEAR.end}`,
  );
  return Number(row?.cents ?? 0);
}

/** Every order of a client read `size` at a time by keyset, in `order`. */
async function pagedOrders(userId: string, order: "newest" | "oldest", size: number) {
  const all: string[] = [];
  let after: OrderKey | undefined;
  for (;;) {
    const page = await ordersQuery(db, userId, { order, after, limit: size });
    all.push(...page.map((row) => `${row.side}:${row.id}`));
    const last = page.at(-1);
    if (page.length < size || !last) return all;
    after = { at: last.at, side: last.side, id: last.id };
  }
}

describe("realized gains", () => {
  it(
    "total the year's sale entries in the ledger, to the cent, on random buys and sells",
    async () => {
      await fc.assert(
        fc.asyncProperty(orders, async (operations) => {
          const client = await fundedClient(100_000_000);
          const sorted = [...operations].sort((a, b) => a.day - b.day);
          for (const op of sorted) {
            const at = YEAR.start + op.day * DAY;
            const price = op.priceE4 / 10_000;
            if (op.side === "buy") await buyAt(client, op.symbol, op.sharesE4, price, at);
            else {
              const shares = Math.min(op.sharesE4, await heldSharesE4(db, client.id, op.symbol));
              if (shares > 0) await sellAt(client, op.symbol, shares, price, at);
            }
          }
          const summary = await yearlySummary(db, client, YEAR, Date.UTC(2026, 5, 1));
          for (const row of summary.realizedGains) expect(row.proceedsCents - row.costCents).toBe(row.resultCents);
          expect(summary.realizedTotal).toEqual(realizedTotal(summary.realizedGains));
          const ledger = await ledgerSaleResults(client.id);
          expect(summary.realizedTotal.resultCents).toBe(ledger);
          // The client has no other profit or loss: the summary's own column says the same.
          expect(summary.total.profitAndLossCents).toBe(ledger);

          for (const order of ["newest", "oldest"] as const) {
            const whole = (await ordersQuery(db, client.id, { order })).map((row) => `${row.side}:${row.id}`);
            expect(await pagedOrders(client.id, order, 2)).toEqual(whole);
          }
        }),
        { numRuns: 15 },
      );
    },
    PROPERTY_TIMEOUT,
  );
});
