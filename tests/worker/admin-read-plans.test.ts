import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { AdminTransactionFilters } from "~/lib/admin-transaction-filters";
import { parseClientList } from "~/lib/client-list";
import { clientsPageQuery } from "~/server/admin/desk.server";
import { SORTED_READ_LIMIT, type TransactionsRead, transactionsReadOf } from "~/server/admin/transaction-reads.server";
import { adminTransactionsPage, adminTransactionsQuery } from "~/server/admin/transactions.server";
import { createUser, db, insertTransaction } from "../support/fixtures";

/**
 * What the back office's client search and the Client and amount filters of /admin/transactions cost: SQLite's
 * plan for each statement (the index it reads, never a scan of every client or the whole history), and the rows
 * D1 reports read for a rare amount, against the walk the view took before.
 */
type Statement = { toSQL: () => { sql: string; params: unknown[] } };

async function planOf(query: Statement) {
  const { sql, params } = query.toSQL();
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((row) => row.detail);
}

async function rowsRead(query: Statement) {
  const { sql, params } = query.toSQL();
  const { meta } = await env.DB.prepare(sql)
    .bind(...params)
    .all();
  return meta.rows_read;
}

const cursor = { createdAt: Date.UTC(2026, 0, 1), id: 1_000 };
const transactionsPlan = (filters: AdminTransactionFilters, read: TransactionsRead, before = false) =>
  planOf(adminTransactionsQuery(db, filters, read, before ? { before: cursor } : { after: cursor }, 51));

describe("User Management's search", () => {
  const clientsPlan = (search: string) =>
    planOf(clientsPageQuery(db, parseClientList(new URLSearchParams(search)).query, 50, 0));

  it("reads its matches off the client search index, whatever the sort, filter or page", async () => {
    for (const search of [
      "q=ane",
      "q=ane&sort=name",
      "q=ane&sort=activity&dir=asc",
      "q=ane&sort=balance&status=active",
      `q=jane%20doe&after=n${cursor.createdAt}~00000000-0000-4000-8000-000000000000`,
    ]) {
      const plan = await clientsPlan(search);
      expect(plan, search).toContain("SCAN client_search VIRTUAL TABLE INDEX 0:M2");
      // No walk of every client: neither a scan nor a range of the role's indexes (every client is a 'user').
      expect(plan.join("\n"), search).not.toMatch(/SCAN (users|profiles)\b|users_role_|profiles_role_/);
    }
  });

  it("walks the list's own index in its order, testing each client met, when the matches are many", async () => {
    const list = parseClientList(new URLSearchParams("q=example.com")).query;
    const plan = (await planOf(clientsPageQuery(db, list, 50, 0, Date.now(), "walk"))).join("\n");
    expect(plan).toContain("users_role_created_idx (role=?)");
    expect(plan).not.toMatch(/TEMP B-TREE|client_search/);
  });

  it("reads one or two characters as two index ranges: e-mails and names starting with them", async () => {
    const plan = (await clientsPlan("q=ja")).join("\n");
    expect(plan).toContain("SEARCH users USING INDEX users_email_unique (email>? AND email<?)");
    expect(plan).toContain("SEARCH profiles USING INDEX profiles_role_name_idx (role=? AND <expr>>? AND <expr><?)");
    expect(plan).not.toMatch(/SCAN (users|profiles)\b|client_search/);
  });
});

describe("the plans of /admin/transactions", () => {
  it("chooses an amount read's page off the amount index, never scanning the history", async () => {
    for (const [filters, before] of [
      [{ minCents: 100 }, false],
      [{ minCents: 100, maxCents: 900 }, true],
      [{ maxCents: 900, status: "pending", type: "withdraw", client: "jane" }, false],
    ] as const) {
      const plan = await transactionsPlan(filters, "amount", before);
      expect(plan.join("\n")).toMatch(/USING (COVERING )?INDEX transactions_amount_recent_idx \(amount_cents[<>]/);
      expect(plan.join("\n")).not.toMatch(/SCAN transactions|transactions_recent_idx|transactions_status_recent_idx/);
    }
  });

  it("chooses a client read's page off the clients' own index and the client search", async () => {
    for (const filters of [{ client: "jane" }, { client: "ja", status: "pending" as const, minCents: 5 }]) {
      const plan = (await transactionsPlan(filters, "client")).join("\n");
      expect(plan).toMatch(/USING (COVERING )?INDEX transactions_user_recent_idx \(user_id=\?/);
      expect(plan).not.toMatch(/SCAN transactions|SCAN (users|profiles)\b|transactions_amount_recent_idx/);
    }
  });

  it("walks the history in page order, with no sort, when the filters are wide", async () => {
    const plan = (await transactionsPlan({ minCents: 100, client: "jane" }, "walk")).join("\n");
    expect(plan).toContain("SCAN transactions USING INDEX transactions_recent_idx");
    expect(plan).not.toMatch(/TEMP B-TREE|transactions_amount_recent_idx|transactions_user_recent_idx/);
    const pending = (await transactionsPlan({ maxCents: 100, status: "pending" }, "walk")).join("\n");
    expect(pending).toContain("transactions_status_recent_idx (status=?)");
    expect(pending).not.toMatch(/TEMP B-TREE|transactions_amount_recent_idx/);
  });
});

describe("which read a view takes, and what it reads", () => {
  const RARE_CENTS = 987_654_321;
  const COMMON_CENTS = 777;
  let rareRow: number;

  beforeAll(async () => {
    const crowd = await createUser({ firstName: "Crowdwell" });
    // More rows of one client and one amount than a sorted read takes, spread over the past year.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO transactions (user_id, transaction_type, amount_cents, status, created_at)
       SELECT ?, 'deposit', ?, 'pending', ? - i * 6000000 FROM n`,
    )
      .bind(SORTED_READ_LIMIT + 1, crowd.id, COMMON_CENTS, Date.UTC(2026, 5, 1))
      .run();
    const rare = await createUser({ firstName: "Rarebit" });
    // The oldest row of all: a walk newest first meets it last.
    rareRow = await insertTransaction(rare.id, { amountCents: RARE_CENTS, createdAt: Date.UTC(2020, 0, 1) });
  });

  it("sorts the few rows of a rare amount or client, and walks for a common one", async () => {
    expect(await transactionsReadOf(db, { minCents: RARE_CENTS })).toBe("amount");
    expect(await transactionsReadOf(db, { minCents: COMMON_CENTS, maxCents: COMMON_CENTS })).toBe("walk");
    expect(await transactionsReadOf(db, { client: "rarebit" })).toBe("client");
    expect(await transactionsReadOf(db, { client: "crowdwell" })).toBe("walk");
    expect(await transactionsReadOf(db, { client: "crowdwell", minCents: RARE_CENTS })).toBe("amount");
    expect(await transactionsReadOf(db, { status: "pending" })).toBe("walk");
  });

  it("shows the rare row, reading a few rows where the walk read the whole history", async () => {
    const filters = { minCents: RARE_CENTS };
    const page = await adminTransactionsPage(db, filters, {}, 0);
    expect(page.rows.map((row) => row.id)).toEqual([rareRow]);
    const sorted = await rowsRead(adminTransactionsQuery(db, filters, "amount", {}, 51));
    const walked = await rowsRead(adminTransactionsQuery(db, filters, "walk", {}, 51));
    expect(sorted).toBeLessThan(20);
    expect(walked).toBeGreaterThan(SORTED_READ_LIMIT);
  });

  it("pages a common amount newest first as before", async () => {
    const filters = { minCents: COMMON_CENTS, maxCents: COMMON_CENTS };
    const first = await adminTransactionsPage(db, filters, {}, 0);
    expect(first.rows).toHaveLength(50);
    const dates = first.rows.map((row) => row.createdAt);
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(first.next).not.toBeNull();
  });
});
