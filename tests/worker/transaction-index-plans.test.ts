import { env } from "cloudflare:workers";
import { and, eq, type SQLWrapper, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { approvalWithinLimitsSql } from "~/server/admin/approval-limits.server";
import { waitingClientsQuery } from "~/server/admin/desk.server";
import { adminTransactionsQuery } from "~/server/admin/transactions.server";
import { schema } from "~/server/db.server";
import { historyPageQuery } from "~/server/ledger/history.server";
import { neverPaidTo } from "~/server/ledger/payout-address.server";
import { positionRowsQuery } from "~/server/ledger/portfolio.server";
import { latestWithStatus, ofType } from "~/server/ledger/reads.server";
import { movementsQuery, parseStatementMonth } from "~/server/ledger/statements.server";
import { db } from "../support/fixtures";

/**
 * Every index on `transactions` is there for a query that reads it (issue #47, docs/decisions/0075): for each one,
 * the app's own statement and SQLite's plan for it, which must name the index. An index that no query names is
 * dropped; a new index joins this table with its query.
 */
const { transactions } = schema;
const dialect = new SQLiteAsyncDialect();
const CLIENT = "00000000-0000-4000-8000-000000000000";
const period = parseStatementMonth("2026-10", Date.UTC(2027, 0, 1));
if (typeof period === "string") throw new Error(period);
const cursor = { createdAt: Date.UTC(2026, 0, 1), id: 1_000 };

type Statement = { toSQL: () => { sql: string; params: unknown[] } } | SQLWrapper;

async function planOf(statement: Statement) {
  const { sql: text, params } = "toSQL" in statement ? statement.toSQL() : dialect.sqlToQuery(statement.getSQL());
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${text}`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((row) => row.detail).join("\n");
}

const QUERIES: Record<string, [string, Statement]> = {
  transactions_user_idempotency_uq: [
    "a request's earlier answer, by its idempotency key (and the key's uniqueness)",
    db
      .select({ id: transactions.id })
      .from(transactions)
      .where(and(eq(transactions.userId, CLIENT), eq(transactions.idempotencyKey, "key"))),
  ],
  transactions_user_recent_idx: [
    "a client's History, unfiltered",
    historyPageQuery(db, { filters: {}, userId: CLIENT }),
  ],
  transactions_user_status_recent_idx: [
    "the dashboard's approved activity",
    latestWithStatus(db, CLIENT, "approved", 6),
  ],
  transactions_user_type_recent_idx: [
    "the dashboard's and History's rows of one type",
    ofType(db, CLIENT, "deposit", 6),
  ],
  transactions_user_moved_idx: ["a monthly statement's movements", movementsQuery(db, CLIENT, period)],
  transactions_user_stock_moved_idx: ["the portfolio's positions", positionRowsQuery(db, CLIENT)],
  transactions_recent_idx: [
    "/admin/transactions, newest first",
    adminTransactionsQuery(db, {}, "walk", { after: cursor }, 51),
  ],
  transactions_status_recent_idx: [
    "/admin/transactions?status=pending, and the desk's clients waiting, oldest first",
    adminTransactionsQuery(db, { status: "pending" }, "walk", { after: cursor }, 51),
  ],
  transactions_amount_recent_idx: [
    "/admin/transactions?min=&max= (a rare amount)",
    adminTransactionsQuery(db, { minCents: 499_999, maxCents: 500_000 }, "amount", { after: cursor }, 51),
  ],
  transactions_user_payouts_idx: [
    "'New address': was this client ever paid here",
    sql`SELECT ${neverPaidTo(CLIENT, "bc1q")}`,
  ],
  transactions_decided_by_idx: [
    "an approval's limits: what this admin approved in the last 24 hours",
    sql`SELECT 1 FROM transactions WHERE id = 1 AND ${approvalWithinLimitsSql({ FOUR_EYES_THRESHOLD: 100, ADMIN_DAILY_LIMIT: 250 }, CLIENT, Date.now())}`,
  ],
};

describe("the indexes of transactions", () => {
  it("are exactly the ones a query below reads", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'transactions' ORDER BY name",
    ).all<{ name: string }>();
    expect(results.map((row) => row.name)).toEqual(Object.keys(QUERIES).sort());
  });

  for (const [index, [purpose, statement]] of Object.entries(QUERIES)) {
    it(`${index}: ${purpose}`, async () => {
      expect(await planOf(statement)).toMatch(new RegExp(`\\b${index}\\b`));
    });
  }

  it("transactions_status_recent_idx also walks the desk's pending requests in age order, sorting none of them", async () => {
    const plan = await planOf(waitingClientsQuery(db, 20));
    // The walk of the co-routine that picks the 20 clients; the outer query then orders those 20.
    const walk = plan.slice(0, plan.indexOf("SCAN waiting"));
    expect(walk).toContain("SEARCH transactions USING INDEX transactions_status_recent_idx (status=?)");
    expect(walk).not.toContain("TEMP B-TREE FOR ORDER BY");
  });
});
