import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from "~/lib/ledger";
import {
  CANCELLABLE,
  COVER_RULES,
  type CoverRuleName,
  cancellableSql,
  coverFigure,
  coverHolds,
  depositWithinLevel,
  LEVEL_LIMITS,
  mayCancel,
  spendCovered,
} from "~/lib/money/constraints";
import { type LedgerRow, totalsFromRows } from "~/lib/money/rules";
import { coverSql, spendCoveredSql } from "~/server/ledger/figures.server";
import { depositWithinLevelSql, withdrawalWithinLevelSql } from "~/server/verification/levels.server";
import { appEnv, createUser, db, insertLedger } from "../support/fixtures";
import { insertCase } from "../support/verification-fixtures";

const ledgers = fc.array(
  fc.record({
    transactionType: fc.constantFrom(...TRANSACTION_TYPES),
    status: fc.constantFrom(...TRANSACTION_STATUSES),
    amountCents: fc.integer({ min: 1, max: 1_000_000 }),
  }),
  { maxLength: 40 },
);
const moves = fc.record({
  type: fc.constantFrom(...TRANSACTION_TYPES),
  amountCents: fc.integer({ min: 1, max: 2_000_000 }),
});

/** Positions of a client: open ones reserve their open cost; ended ones reserve nothing. */
const positionSets = fc.array(
  fc.record({
    status: fc.constantFrom("open", "closed", "cancelled"),
    costCents: fc.integer({ min: 2, max: 500_000 }),
  }),
  { maxLength: 5 },
);

async function insertPositions(userId: string, list: Array<{ status: string; costCents: number }>) {
  for (const [i, position] of list.entries()) {
    const open = position.status === "open";
    await env.DB.prepare(
      `INSERT INTO positions (user_id, symbol, shares_e4, price_e4, quote_at, cost_cents, open_shares_e4,
                              open_cost_cents, status, idempotency_key, opened_at)
       VALUES (?, 'AAPL', 20000, 1000000, 1, ?, ?, ?, ?, ?, 1)`,
    )
      .bind(
        userId,
        position.costCents,
        open ? 10000 : 0,
        open ? Math.floor(position.costCents / 2) : 0,
        position.status,
        `k-${i}`,
      )
      .run();
  }
  return list.reduce((sum, p) => sum + (p.status === "open" ? Math.floor(p.costCents / 2) : 0), 0);
}

/** A condition of the server's, decided by D1 alone. */
async function sqlDecides(condition: ReturnType<typeof sql>): Promise<boolean> {
  const row = await db.get<{ holds: number }>(sql`SELECT CASE WHEN ${condition} THEN 1 ELSE 0 END AS holds`);
  return row.holds === 1;
}

/** A client on a random ledger, verified or not. */
async function clientWith(rows: LedgerRow[], verified = false) {
  const { id } = await createUser();
  await insertLedger(id, rows);
  if (verified) await insertCase(id, { status: "approved" });
  return id;
}

describe("the money constraints table", () => {
  for (const name of Object.keys(COVER_RULES) as CoverRuleName[]) {
    it(`decides the ${name} cover rule the same in SQL (on D1) as in TypeScript, on random ledgers`, async () => {
      await fc.assert(
        fc.asyncProperty(
          ledgers,
          fc.array(moves, { minLength: 1, maxLength: 6 }),
          positionSets,
          async (rows, tries, held) => {
            const id = await clientWith(rows);
            const reserved = await insertPositions(id, held);
            const totals = totalsFromRows(rows);
            // The edge too: a withdrawal of exactly the figure (passes) and of a cent more (does not).
            const edge = Math.max(1, coverFigure(name, totals, reserved));
            const withdrawals = [edge, edge + 1].map((amountCents) => ({ type: "withdraw" as const, amountCents }));
            for (const move of [...tries, ...withdrawals]) {
              expect(await sqlDecides(coverSql(name, id, move)), JSON.stringify(move)).toBe(
                coverHolds(name, totals, move, reserved),
              );
            }
          },
        ),
        { numRuns: 40 },
      );
    });
  }

  it("decides what a buy may spend the same in SQL as in TypeScript, open positions reserved", async () => {
    await fc.assert(
      fc.asyncProperty(ledgers, positionSets, fc.integer({ min: 1, max: 2_000_000 }), async (rows, held, cost) => {
        const id = await clientWith(rows);
        const reserved = await insertPositions(id, held);
        const totals = totalsFromRows(rows);
        const edge = Math.max(1, coverFigure("order", totals, reserved));
        for (const amount of [cost, edge, edge + 1]) {
          expect(await sqlDecides(spendCoveredSql("order", id, amount)), String(amount)).toBe(
            spendCovered("order", totals, amount, reserved),
          );
        }
      }),
      { numRuns: 40 },
    );
  });

  it("lets a client cancel the same rows in SQL as in TypeScript, on random ledgers", async () => {
    await fc.assert(
      fc.asyncProperty(ledgers, async (rows) => {
        const id = await clientWith(rows);
        const { results } = await env.DB.prepare(
          `SELECT transaction_type AS type, status, ${cancellableSql()} AS cancellable FROM transactions WHERE user_id = ?`,
        )
          .bind(id)
          .all<{ type: LedgerRow["transactionType"]; status: LedgerRow["status"]; cancellable: number }>();
        expect(results).toHaveLength(rows.length);
        for (const row of results) expect(row.cancellable === 1).toBe(mayCancel(row.type, row.status));
      }),
      { numRuns: 40 },
    );
  });

  it("holds the unverified deposit limit the same in SQL as in TypeScript, on random ledgers", async () => {
    await fc.assert(
      fc.asyncProperty(
        ledgers,
        fc.boolean(),
        fc.integer({ min: 0, max: 50_000 }),
        fc.integer({ min: 1, max: 2_000_000 }),
        async (rows, verified, limitDollars, amountCents) => {
          const id = await clientWith(rows, verified);
          const limits = { ...appEnv, UNVERIFIED_DEPOSIT_LIMIT: limitDollars };
          expect(await sqlDecides(depositWithinLevelSql(limits, id, amountCents))).toBe(
            depositWithinLevel(limits, verified, totalsFromRows(rows), amountCents),
          );
        },
      ),
      { numRuns: 40 },
    );
  });

  it("counts a withdrawal's rolling limits over the statuses the table names, in SQL as in TypeScript", async () => {
    const now = 1_700_000_100_000; // after every row of `insertLedger`, within both windows
    await fc.assert(
      fc.asyncProperty(
        ledgers,
        fc.boolean(),
        fc.integer({ min: 0, max: 30_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.integer({ min: 1, max: 2_000_000 }),
        async (rows, verified, day, month, amountCents) => {
          const id = await clientWith(rows, verified);
          const limits = { ...appEnv, WITHDRAWAL_LIMIT_DAY: day, WITHDRAWAL_LIMIT_MONTH: month };
          const counted = (statuses: readonly string[]) =>
            rows
              .filter((r) => r.transactionType === "withdraw" && statuses.includes(r.status))
              .reduce((sum, r) => sum + r.amountCents, 0);
          const fits = (rule: typeof LEVEL_LIMITS.withdrawalDay | typeof LEVEL_LIMITS.withdrawalMonth) =>
            counted(rule.counts) + amountCents <= limits[rule.limit] * 100;
          expect(await sqlDecides(withdrawalWithinLevelSql(limits, id, amountCents, now))).toBe(
            verified && fits(LEVEL_LIMITS.withdrawalDay) && fits(LEVEL_LIMITS.withdrawalMonth),
          );
        },
      ),
      { numRuns: 30 },
    );
  });

  it("has the database's cancel trigger refuse exactly the types the table does not let a client cancel", async () => {
    const trigger = await env.DB.prepare(
      "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'transactions_cancel_by_owner'",
    ).first<{ sql: string }>();
    const list = /OLD\.transaction_type NOT IN \(([^)]*)\)/.exec(trigger?.sql ?? "")?.[1] ?? "";
    const types = list.split(",").map((value) => value.trim().replace(/^'|'$/g, ""));
    expect([...types].sort()).toEqual([...CANCELLABLE.types].sort());
    // Only a pending row can be cancelled, in the trigger as in the table.
    expect(trigger?.sql).toContain("WHEN OLD.status = 'pending' AND NEW.status = 'cancelled'");
    expect(CANCELLABLE.statuses).toEqual(["pending"]);
  });
});
