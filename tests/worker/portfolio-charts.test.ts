import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TransactionStatus, TransactionType } from "~/lib/ledger";
import { figure, totalsFromRows } from "~/lib/money/rules";
import { dayOf, type PortfolioRange } from "~/lib/portfolio";
import { deleteClientData } from "~/server/admin/deletion.server";
import { portfolioData } from "~/server/ledger/portfolio.server";
import { createUser, db } from "../support/fixtures";
import { periodPair } from "../support/projections";
import { decided, type LedgerOperation, ledgerOperations } from "../support/random-ledger";
import { markVerified } from "../support/verification-state";

const DAY = 86_400_000;
/** "Today" of every property run: late in a UTC day, so that rows decided today count in today's point. */
const NOW = Date.UTC(2026, 5, 15, 21, 30);
/** A run writes a few hundred rows in batches and reads three ranges: seconds, more on a busy machine. */
const PROPERTY_TIMEOUT = 120_000;

interface Row {
  transactionType: TransactionType;
  status: TransactionStatus;
  amountCents: number;
  createdAt: number;
  /** When an approved row moved money (its decision; an entry's writing). */
  movedAt: number;
}

/** A random ledger over the 500 days before NOW, decisions up to 40 days after their requests (never after NOW). */
const randomLedger = ledgerOperations({
  from: NOW - 500 * DAY,
  to: NOW,
  maxCents: 2_000_000,
  maxDelay: 40 * DAY,
  minLength: 200,
  maxLength: 400,
});

/** Writes the operations as the app does (a pending row, then its decision), in batches; returns the rows. */
async function writeLedger(userId: string, adminId: string, operations: LedgerOperation[]): Promise<Row[]> {
  const rows: Row[] = [];
  const statements: D1PreparedStatement[] = [];
  for (const op of operations) {
    const stock = op.transactionType === "stock_deposit" ? (op.amountCents % 2 ? "AAPL" : "MSFT") : null;
    if (op.fate === "entry") {
      statements.push(
        env.DB.prepare(
          "INSERT INTO transactions (user_id, transaction_type, amount_cents, status, stock, created_at, decided_by, decided_at) VALUES (?, ?, ?, 'approved', ?, ?, ?, ?)",
        ).bind(userId, op.transactionType, op.amountCents, stock, op.createdAt, adminId, op.createdAt),
      );
      rows.push({ ...op, status: "approved", movedAt: op.createdAt });
      continue;
    }
    statements.push(
      env.DB.prepare(
        "INSERT INTO transactions (user_id, transaction_type, amount_cents, status, stock, created_at, created_by) VALUES (?, ?, ?, 'pending', ?, ?, ?)",
      ).bind(userId, op.transactionType, op.amountCents, stock, op.createdAt, userId),
    );
    const { status, decidedAt, movedAt } = decided(op, NOW);
    if (status !== "pending") {
      statements.push(
        env.DB.prepare(
          "UPDATE transactions SET status = ?, decided_by = ?, decided_at = ? WHERE id = (SELECT max(id) FROM transactions WHERE user_id = ?)",
        ).bind(status, status === "cancelled" ? userId : adminId, decidedAt, userId),
      );
    }
    rows.push({ ...op, status, movedAt });
  }
  for (let i = 0; i < statements.length; i += 100) await env.DB.batch(statements.slice(i, i + 100));
  return rows;
}

/** The rules table's figure over the approved rows that moved money in [from, to). */
function figureBetween(rows: Row[], name: "ledgerBalance" | "totalProfit", from: number, to: number) {
  return figure(totalsFromRows(rows.filter((r) => r.movedAt >= from && r.movedAt < to)), name);
}
const endOfDay = (day: string) => Date.parse(`${day}T00:00:00Z`) + DAY;
const monthBounds = (month: string) => {
  const start = Date.parse(`${month}-01T00:00:00Z`);
  const next = new Date(start);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return [start, next.getTime()] as const;
};

/** What `ledger_days` must hold: the GROUP BY of approved rows by the UTC day money moved. */
const daysPair = (userId: string) => periodPair("ledger_days", userId);

async function clientWithLedger(adminId: string, operations: LedgerOperation[]) {
  const client = await createUser();
  await markVerified(client.id);
  return { client, rows: await writeLedger(client.id, adminId, operations) };
}

describe("balance over time", () => {
  it(
    "puts at every point the balance of the approved rows up to the end of its day, and in every bar the month's profit minus loss",
    async () => {
      const admin = await createUser({ role: "admin" });
      await fc.assert(
        fc.asyncProperty(randomLedger, async (operations) => {
          const { client, rows } = await clientWithLedger(admin.id, operations);
          const approved = rows.filter((r) => r.status === "approved");
          const today = dayOf(NOW);
          for (const range of ["30d", "12m", "all"] as PortfolioRange[]) {
            const { points, results, balanceCents } = await portfolioData(db, client.id, range, NOW);
            expect(balanceCents).toBe(figureBetween(approved, "ledgerBalance", 0, Number.POSITIVE_INFINITY));
            for (const point of points) {
              expect(point.cents, `${range} ${point.day}`).toBe(
                figureBetween(approved, "ledgerBalance", 0, endOfDay(point.day)),
              );
            }
            expect(points.at(-1)?.day).toBe(today);
            for (const bar of results) {
              const [start, end] = monthBounds(bar.month);
              expect(bar.cents, `${range} ${bar.month}`).toBe(figureBetween(approved, "totalProfit", start, end));
            }
          }
          // Which days: 30 in a row, a year every seventh day, and all time by month ends (the ledger spans 500 days).
          const days = async (range: PortfolioRange) =>
            (await portfolioData(db, client.id, range, NOW)).points.map((p) => p.day);
          expect(await days("30d")).toEqual(Array.from({ length: 30 }, (_, i) => dayOf(NOW - (29 - i) * DAY)));
          expect(await days("12m")).toEqual(Array.from({ length: 53 }, (_, i) => dayOf(NOW - (52 - i) * 7 * DAY)));
          const allTime = await days("all");
          expect(allTime.slice(0, -1).every((day) => dayOf(endOfDay(day)).endsWith("-01"))).toBe(true);
        }),
        { numRuns: 3, seed: 2026 },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it("draws a young account from its first day, and nothing for an account money never moved on", async () => {
    const admin = await createUser({ role: "admin" });
    const { client } = await clientWithLedger(admin.id, [
      { transactionType: "deposit", amountCents: 50_000, createdAt: NOW - 10 * DAY, fate: "approved", delay: DAY },
      { transactionType: "profit", amountCents: 2_500, createdAt: NOW - 3 * DAY, fate: "entry", delay: 0 },
      { transactionType: "withdraw", amountCents: 9_999, createdAt: NOW - DAY, fate: "rejected", delay: DAY },
    ]);
    const { points } = await portfolioData(db, client.id, "all", NOW);
    expect(points.map((p) => [p.day, p.cents])).toEqual(
      Array.from({ length: 10 }, (_, i) => {
        const at = NOW - (9 - i) * DAY;
        return [dayOf(at), at >= NOW - 3 * DAY ? 52_500 : 50_000];
      }),
    );
    const newcomer = await createUser();
    expect(await portfolioData(db, newcomer.id, "all", NOW)).toMatchObject({ points: [], balanceCents: 0 });
  });
});

describe("ledger_days", () => {
  it(
    "equals the GROUP BY of approved rows by the day money moved through approvals, rejections, cancels and deletion",
    async () => {
      const admin = await createUser({ role: "admin" });
      await fc.assert(
        fc.asyncProperty(randomLedger, async (operations) => {
          const { client } = await clientWithLedger(admin.id, operations);
          const { projected, counted } = await daysPair(client.id);
          expect(projected).toEqual(counted);
          expect(await deleteClientData(db, { id: admin.id, email: admin.email }, client.id)).toEqual({ ok: true });
          expect(await daysPair(client.id)).toEqual({ projected: [], counted: [] });
        }),
        { numRuns: 3, seed: 47 },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it("is rebuilt from the ledger by the migration that introduced it", async () => {
    const admin = await createUser({ role: "admin" });
    const { client } = await clientWithLedger(admin.id, [
      { transactionType: "deposit", amountCents: 10_000, createdAt: NOW - 40 * DAY, fate: "approved", delay: 5 * DAY },
      { transactionType: "loss", amountCents: 2_500, createdAt: NOW - 20 * DAY, fate: "entry", delay: 0 },
      { transactionType: "withdraw", amountCents: 700, createdAt: NOW - 2 * DAY, fate: "cancelled", delay: DAY },
    ]);
    const backfill = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0024_"))?.queries.find(
      (q) => q.includes("INSERT INTO `ledger_days`") && q.includes("GROUP BY"),
    );
    expect(backfill).toBeDefined();
    // The backfill fills the table for every client, as the migration found it: empty.
    await env.DB.prepare("DELETE FROM ledger_days").run();
    await env.DB.prepare(backfill ?? "").run();
    const { projected, counted } = await daysPair(client.id);
    expect(projected).toEqual(counted);
    // The deposit asked for 40 days ago moved money on the day it was approved, five days later.
    expect(projected).toEqual([
      { day: dayOf(NOW - 35 * DAY), transaction_type: "deposit", count: 1, cents: 10_000 },
      { day: dayOf(NOW - 20 * DAY), transaction_type: "loss", count: 1, cents: 2_500 },
    ]);
  });
});
