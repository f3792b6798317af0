import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from "~/lib/ledger";
import {
  FIGURES,
  type FigureName,
  figure,
  LEDGER_SIGN,
  type LedgerRow,
  totalsFromRows,
  winRateExpression,
  winRateOf,
} from "~/lib/money/rules";
import { figureSql, refreshProfileProjection } from "~/server/ledger/figures.server";
import { createUser, db, insertLedger } from "../support/fixtures";

const FIGURE_NAMES = Object.keys(FIGURES) as FigureName[];

/** Every figure of the rules table, computed by SQL over `ledger_totals` in one statement. */
async function sqlFigures(userId: string): Promise<Record<FigureName, number>> {
  const columns = FIGURE_NAMES.map((name) => sql`${figureSql(name, userId)} AS ${sql.identifier(name)}`);
  const row = await db.get<Record<FigureName, number>>(sql`SELECT ${sql.join(columns, sql`, `)}`);
  return Object.fromEntries(FIGURE_NAMES.map((name) => [name, Number(row[name])])) as Record<FigureName, number>;
}

async function storedProjection(userId: string) {
  return env.DB.prepare("SELECT balance_cents, total_trades, win_rate FROM profiles WHERE user_id = ?")
    .bind(userId)
    .first<{ balance_cents: number; total_trades: number; win_rate: number }>();
}

const ledgers = fc.array(
  fc.record({
    transactionType: fc.constantFrom(...TRANSACTION_TYPES),
    status: fc.constantFrom(...TRANSACTION_STATUSES),
    amountCents: fc.integer({ min: 1, max: 10_000_000 }),
  }),
  { maxLength: 50 },
);

describe("the money rules table", () => {
  it("gives the same figures in SQL as in TypeScript, for every figure, on random ledgers", async () => {
    await fc.assert(
      fc.asyncProperty(ledgers, async (rows: LedgerRow[]) => {
        const { id } = await createUser();
        await insertLedger(id, rows);
        const totals = totalsFromRows(rows);
        const expected = Object.fromEntries(FIGURE_NAMES.map((name) => [name, figure(totals, name)]));
        expect(await sqlFigures(id)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it("keeps the profile's stored balance, trades and win rate equal to the TypeScript figures", async () => {
    await fc.assert(
      fc.asyncProperty(ledgers, async (rows: LedgerRow[]) => {
        const { id } = await createUser();
        await insertLedger(id, rows);
        await db.run(refreshProfileProjection(id, Date.now()));
        const totals = totalsFromRows(rows);
        expect(await storedProjection(id)).toEqual({
          balance_cents: figure(totals, "ledgerBalance"),
          total_trades: figure(totals, "totalTrades"),
          win_rate: winRateOf(figure(totals, "wins"), figure(totals, "totalTrades")),
        });
      }),
      { numRuns: 40 },
    );
  });

  it("rounds the win rate the same way in SQL and TypeScript for every split of up to 200 trades", async () => {
    const cases: Array<[number, number]> = [];
    for (let trades = 1; trades <= 200; trades++)
      for (let wins = 0; wins <= trades; wins += 7) cases.push([wins, trades]);
    const values = cases.map(([wins, trades]) => `(${wins}, ${trades})`).join(", ");
    const { results } = await env.DB.prepare(
      `WITH cases(wins, trades) AS (VALUES ${values}) SELECT ${winRateExpression("wins", "trades")} AS rate FROM cases`,
    ).all<{ rate: number }>();
    expect(results.map((row) => row.rate)).toEqual(cases.map(([wins, trades]) => winRateOf(wins, trades)));
  });

  it("credits deposits, profits and fee deposits, and debits withdrawals and losses", () => {
    expect(LEDGER_SIGN).toEqual({
      deposit: 1,
      stock_deposit: 1,
      fee_deposit: 1,
      profit: 1,
      withdraw: -1,
      loss: -1,
    });
  });
});
