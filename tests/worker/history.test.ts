import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { TransactionStatus, TransactionType } from "~/lib/ledger";
import { isClientRequestType } from "~/lib/money/constraints";
import { transactionReference } from "~/lib/reference";
import { schema } from "~/server/db.server";
import { cancelLink } from "~/server/ledger/cancel-link.server";
import { historyPageQuery } from "~/server/ledger/history.server";
import { renderStoredEmail } from "~/server/mail/templates.server";
import {
  appEnv,
  countRows,
  createUser,
  db,
  fundedClient,
  getPage,
  insertTransaction,
  requestWithdrawalAs,
  sessionCookieFor,
  signedInAdmin,
} from "../support/fixtures";
import { alerts, buttonTexts, linkHref, testIdText } from "../support/places";
import { rowCells } from "../support/tables";

/**
 * The client's history (/transactions) and its CSV, through the real routes: what the client sees for each
 * filter, page by page, and that nothing of another client's ever shows.
 */

interface Row {
  type: TransactionType;
  status: TransactionStatus;
  createdAt: number;
  amountCents?: number;
  stock?: string;
  tradingPair?: string;
}

interface Inserted extends Required<Pick<Row, "type" | "status" | "createdAt">> {
  id: number;
  reference: string;
}

/** Rows inserted straight into the ledger (12 a statement: D1 binds at most 100 values). */
async function insertRows(userId: string, rows: Row[]): Promise<Inserted[]> {
  const inserted: Inserted[] = [];
  for (let i = 0; i < rows.length; i += 12) {
    const chunk = rows.slice(i, i + 12);
    const ids = await db
      .insert(schema.transactions)
      .values(
        chunk.map((row) => ({
          userId,
          transactionType: row.type,
          status: row.status,
          createdAt: row.createdAt,
          amountCents: row.amountCents ?? 1_000,
          stock: row.stock ?? (row.type === "stock_deposit" ? "AAPL" : null),
          tradingPair: row.tradingPair ?? null,
          // A request is the client's own, as they write it: only such a row offers Cancel.
          createdBy: isClientRequestType(row.type) ? userId : null,
        })),
      )
      .returning({ id: schema.transactions.id });
    chunk.forEach((row, j) => {
      const id = ids[j]?.id ?? 0;
      inserted.push({
        id,
        reference: transactionReference(id),
        type: row.type,
        status: row.status,
        createdAt: row.createdAt,
      });
    });
  }
  return inserted;
}

const newestFirst = (rows: Inserted[]) => [...rows].sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
const referencesOf = (rows: Inserted[]) => newestFirst(rows).map((row) => row.reference);

const decode = (value: string) => value.replace(/&amp;/g, "&");

/** What the page shows: the references of its rows in order, its page links, its messages. */
async function view(cookie: string, query = "") {
  const response = await getPage(`/transactions${query}`, cookie);
  expect(response.status).toBe(200);
  const html = await response.text();
  const rows = [...html.matchAll(/<tr data-testid="history-row"[\s\S]*?<\/tr>/g)].map((match) => match[0]);
  const link = (label: string) => {
    const found = /<a[^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g;
    for (const match of html.matchAll(found)) if (match[2] === label) return decode(match[1] ?? "");
    return null;
  };
  return {
    html,
    references: rows.map((row) => /TX-[0-9A-Z]{6}/.exec(row)?.[0]),
    next: link("Next"),
    previous: link("Previous"),
    csv: link("Download CSV"),
    empty: testIdText(html, "history-empty") !== null,
  };
}

const DAY = 86_400_000;
const JAN = Date.UTC(2026, 0, 1);
const FEB = Date.UTC(2026, 1, 1);
const MAR = Date.UTC(2026, 2, 1);

describe("/transactions filters", () => {
  let cookie: string;
  let rows: Inserted[];
  let other: Inserted[];
  let otherCookie: string;

  beforeAll(async () => {
    const client = await createUser({ firstName: "Hilda" });
    cookie = await sessionCookieFor(client.id);
    rows = await insertRows(client.id, [
      { type: "deposit", status: "approved", createdAt: JAN + 1_000 },
      { type: "deposit", status: "pending", createdAt: JAN + 10 * DAY },
      { type: "withdraw", status: "approved", createdAt: JAN + 30 * DAY + 23 * 3_600_000 }, // Jan 31, 23:00
      { type: "withdraw", status: "rejected", createdAt: FEB }, // Feb 1, midnight
      { type: "withdraw", status: "pending", createdAt: FEB + 5 * DAY },
      { type: "profit", status: "approved", createdAt: FEB + 6 * DAY, tradingPair: "EUR/USD" },
      { type: "loss", status: "approved", createdAt: FEB + 27 * DAY, tradingPair: "GBP/USD" },
      { type: "stock_deposit", status: "cancelled", createdAt: MAR + 2 * DAY, stock: "TSLA" },
      { type: "fee_deposit", status: "approved", createdAt: MAR + 3 * DAY },
    ]);
    const stranger = await createUser({ firstName: "Ivo" });
    otherCookie = await sessionCookieFor(stranger.id);
    // Another client's rows of every kind, on the same days: none may ever show.
    other = await insertRows(
      stranger.id,
      rows.map((row) => ({ type: row.type, status: row.status, createdAt: row.createdAt })),
    );
  });

  const expected = (keep: (row: Inserted) => boolean) => referencesOf(rows.filter(keep));

  it("shows all of the client's rows, newest first, each with its reference, without filters", async () => {
    const page = await view(cookie);
    expect(page.references).toEqual(referencesOf(rows));
    expect(page.next).toBeNull();
    expect(page.previous).toBeNull();
    expect(rowCells(page.html, "EUR/USD")?.[3]).toBe("EUR/USD");
    expect(rowCells(page.html, "TSLA")?.[3]).toBe("TSLA");
    // Cancel only on pending requests of the client's own.
    expect(buttonTexts(page.html).filter((text) => text.startsWith("Cancel"))).toHaveLength(2);
  });

  it("filters by type alone", async () => {
    expect((await view(cookie, "?type=withdraw")).references).toEqual(expected((row) => row.type === "withdraw"));
    expect((await view(cookie, "?type=stock_deposit")).references).toEqual(
      expected((row) => row.type === "stock_deposit"),
    );
  });

  it("filters by status alone", async () => {
    expect((await view(cookie, "?status=pending")).references).toEqual(expected((row) => row.status === "pending"));
    expect((await view(cookie, "?status=approved")).references).toEqual(expected((row) => row.status === "approved"));
  });

  it("filters by UTC days, both ends included", async () => {
    const january = await view(cookie, "?from=2026-01-01&to=2026-01-31");
    expect(january.references).toEqual(expected((row) => row.createdAt >= JAN && row.createdAt < FEB));
    expect(january.references).toHaveLength(3); // Jan 31 at 23:00 is in, Feb 1 at midnight is not
    expect((await view(cookie, "?from=2026-02-01")).references).toEqual(expected((row) => row.createdAt >= FEB));
    expect((await view(cookie, "?to=2026-02-01")).references).toEqual(expected((row) => row.createdAt < FEB + DAY));
    expect((await view(cookie, "?from=2026-02-01&to=2026-02-01")).references).toEqual(
      expected((row) => row.createdAt === FEB),
    );
  });

  it("combines filters", async () => {
    const page = await view(cookie, "?type=withdraw&status=approved&from=2026-01-01&to=2026-06-30");
    expect(page.references).toEqual(expected((row) => row.type === "withdraw" && row.status === "approved"));
    expect((await view(cookie, "?type=withdraw&from=2026-02-01&to=2026-02-28")).references).toEqual(
      expected((row) => row.type === "withdraw" && row.createdAt >= FEB && row.createdAt < MAR),
    );
    const none = await view(cookie, "?type=profit&status=pending");
    expect(none.references).toEqual([]);
    expect(testIdText(none.html, "history-empty")).toBe("No transactions match these filters.");
    // The CSV link carries the same filters.
    expect(page.csv).toBe("/transactions.csv?type=withdraw&status=approved&from=2026-01-01&to=2026-06-30");
  });

  it("finds a row by its reference, however it is typed", async () => {
    const target = rows[4] as Inserted;
    expect((await view(cookie, `?reference=${target.reference}`)).references).toEqual([target.reference]);
    const typed = target.reference.slice(3).toLowerCase();
    expect((await view(cookie, `?reference=${typed}`)).references).toEqual([target.reference]);
    // With other filters that it does not match: nothing.
    expect((await view(cookie, `?reference=${target.reference}&status=approved`)).references).toEqual([]);
  });

  it("answers a bad value with its message and the unfiltered first page, changing nothing", async () => {
    const before = await countRows("transactions");
    const outbox = await countRows("email_outbox");
    const cases: Array<[string, string]> = [
      ["?type=bonus", "Unknown type"],
      ["?status=done", "Unknown status"],
      ["?from=2026-02-30", "is not a date: use YYYY-MM-DD"],
      ["?to=31/01/2026", "is not a date: use YYYY-MM-DD"],
      ["?from=2026-03-01&to=2026-01-01", "The start date 2026-03-01 is after the end date 2026-01-01."],
      ["?reference=TX-!!", "is not a reference: references look like TX-7Q2M9K"],
      // A good filter beside a bad one is dropped too: the page says what it shows.
      ["?type=withdraw&status=maybe", "Unknown status"],
    ];
    for (const [query, message] of cases) {
      const page = await view(cookie, query);
      const [banner] = alerts(page.html);
      expect(banner, query).toContain(message);
      expect(banner).toMatch(/ Showing all your transactions instead\.$/);
      expect(page.references, query).toEqual(referencesOf(rows));
      // No filter applies, the download's included.
      expect(page.csv).toBe("/transactions.csv");
    }
    expect(await countRows("transactions")).toBe(before);
    expect(await countRows("email_outbox")).toBe(outbox);
  });

  it("never shows another client's row, through any filter or reference", async () => {
    const mine = new Set(rows.map((row) => row.reference));
    const theirs = other.map((row) => row.reference);
    for (const query of ["", "?type=withdraw", "?status=pending", "?from=2026-01-01&to=2026-12-31", "?type=loss"]) {
      const page = await view(cookie, query);
      for (const reference of page.references) expect(mine.has(reference ?? "")).toBe(true);
      // Another client's references are theirs alone: they reach this page nowhere, its data included.
      for (const reference of theirs) expect(page.html).not.toContain(reference);
    }
    for (const row of other) {
      const page = await view(cookie, `?reference=${row.reference}`);
      expect(page.references).toEqual([]);
      expect(testIdText(page.html, "history-empty")).toBe(
        `No transaction of yours has the reference ${row.reference}.`,
      );
      const csv = await getPage(`/transactions.csv?reference=${row.reference}`, cookie);
      expect(await csv.text()).toBe("reference,date,type,status,direction,amount,trading_pair,stock\r\n");
    }
    // And the other way round: the stranger sees only their own.
    expect((await view(otherCookie)).references).toEqual(referencesOf(other));
  });
});

describe("/transactions paging", () => {
  it("returns every row exactly once forwards and back, with rows inserted between page loads", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const start = Date.UTC(2026, 3, 1);
    // 120 rows, some sharing a created_at so the id breaks the tie at a page boundary.
    const original = await insertRows(
      client.id,
      Array.from({ length: 120 }, (_, i) => ({
        type: i % 3 === 0 ? "withdraw" : "deposit",
        status: "approved",
        createdAt: start + Math.floor(i / 2) * 60_000,
      })),
    );
    const all = referencesOf(original);

    const first = await view(cookie);
    expect(first.references).toEqual(all.slice(0, 50));
    expect(first.previous).toBeNull();
    expect(first.next).toMatch(/^\/transactions\?after=\d+\.\d+$/);

    // New rows arrive while the client reads: they are newer than everything, so the pages below do not move.
    const arrived = await insertRows(client.id, [
      { type: "deposit", status: "pending", createdAt: start + 10 * DAY },
      { type: "deposit", status: "pending", createdAt: start + 10 * DAY + 1 },
    ]);
    const second = await view(cookie, (first.next ?? "").replace("/transactions", ""));
    expect(second.references).toEqual(all.slice(50, 100));
    expect(second.previous).toMatch(/before=/);

    const third = await view(cookie, (second.next ?? "").replace("/transactions", ""));
    expect(third.references).toEqual(all.slice(100));
    expect(third.next).toBeNull();

    const seen = [...first.references, ...second.references, ...third.references];
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(120);

    // Back: the same pages again, then the newest rows that arrived meanwhile, each once.
    const backToSecond = await view(cookie, (third.previous ?? "").replace("/transactions", ""));
    expect(backToSecond.references).toEqual(second.references);
    const backToFirst = await view(cookie, (backToSecond.previous ?? "").replace("/transactions", ""));
    expect(backToFirst.references).toEqual(first.references);
    expect(backToFirst.next).toBe(first.next);
    expect(backToFirst.previous).not.toBeNull();
    const newest = await view(cookie, (backToFirst.previous ?? "").replace("/transactions", ""));
    expect(newest.references).toEqual(referencesOf(arrived));
    expect(newest.previous).toBeNull();
  });

  it("pages a filtered view with its filters kept in every link", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const rows = await insertRows(
      client.id,
      Array.from({ length: 110 }, (_, i) => ({
        type: i % 2 === 0 ? "withdraw" : "profit",
        status: "approved",
        createdAt: Date.UTC(2026, 4, 1) + i * 1_000,
      })),
    );
    const withdrawals = referencesOf(rows.filter((row) => row.type === "withdraw"));
    const first = await view(cookie, "?type=withdraw");
    expect(first.references).toEqual(withdrawals.slice(0, 50));
    expect(first.next).toMatch(/^\/transactions\?type=withdraw&after=/);
    const second = await view(cookie, (first.next ?? "").replace("/transactions", ""));
    expect(second.references).toEqual(withdrawals.slice(50));
    expect(second.next).toBeNull();
    expect(second.previous).toMatch(/^\/transactions\?type=withdraw&before=/);
  });
});

describe("/transactions.csv", () => {
  it("downloads the filtered view's rows, streamed, spreadsheet-safe, never cached", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const rows = await insertRows(client.id, [
      { type: "profit", status: "approved", createdAt: JAN, amountCents: 1_234, tradingPair: '=HYPERLINK("x"),"a"' },
      { type: "loss", status: "approved", createdAt: JAN + DAY, amountCents: 99, tradingPair: "EUR/USD" },
      { type: "withdraw", status: "pending", createdAt: FEB, amountCents: 5_000 },
      { type: "stock_deposit", status: "approved", createdAt: FEB + DAY, amountCents: 7_000, stock: "@SUM(A1)" },
    ]);
    const response = await getPage("/transactions.csv?status=approved", cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="transactions-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(response.body).toBeInstanceOf(ReadableStream);
    const lines = (await response.text()).split("\r\n");
    const [stock, loss, profit] = newestFirst(rows.filter((row) => row.status === "approved"));
    expect(lines).toEqual([
      "reference,date,type,status,direction,amount,trading_pair,stock",
      `${stock?.reference},2026-02-02T00:00:00.000Z,Stock deposit,approved,in,70.00,,'@SUM(A1)`,
      `${loss?.reference},2026-01-02T00:00:00.000Z,Loss,approved,out,0.99,EUR/USD,`,
      `${profit?.reference},2026-01-01T00:00:00.000Z,Profit,approved,in,12.34,"'=HYPERLINK(""x""),""a""",`,
      "",
    ]);
    // The same rows as the page with the same filters.
    const page = await view(cookie, "?status=approved");
    expect(lines.slice(1, -1).map((line) => line.slice(0, 9))).toEqual(page.references);
  });

  it("streams a long history page after page, every row once, newest first", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const values = Array.from(
      { length: 2_150 },
      (_, i) => `('${client.id}', 'deposit', ${100 + i}, 'approved', ${Date.UTC(2025, 0, 1) + Math.floor(i / 3)})`,
    );
    const statements = [];
    for (let i = 0; i < values.length; i += 400) {
      statements.push(
        env.DB.prepare(
          `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, created_at) VALUES ${values.slice(i, i + 400).join(",")}`,
        ),
      );
    }
    await env.DB.batch(statements);
    const lines = (await (await getPage("/transactions.csv", cookie)).text()).trim().split("\r\n").slice(1);
    expect(lines).toHaveLength(2_150);
    expect(new Set(lines.map((line) => line.split(",")[0])).size).toBe(2_150);
    const dates = lines.map((line) => line.split(",")[1] ?? "");
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(lines[0]?.split(",")[5]).toBe(centsText(100 + 2_149));
  });

  it("refuses a bad filter with its message rather than sending every row", async () => {
    const client = await fundedClient();
    const response = await getPage("/transactions.csv?type=bonus", client.cookie);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Unknown type "bonus"');
  });
});

const centsText = (cents: number) => (cents / 100).toFixed(2);

describe("who may see a history", () => {
  it("sends signed-out visitors to sign in and admins to their desk", async () => {
    const admin = await signedInAdmin();
    for (const path of ["/transactions", "/transactions?status=pending", "/transactions.csv"]) {
      const signedOut = await getPage(path);
      expect(signedOut.status).toBe(302);
      expect(signedOut.headers.get("Location")).toMatch(/^\/login/);
      const asAdmin = await getPage(path, admin.cookie);
      expect(asAdmin.status).toBe(302);
      expect(asAdmin.headers.get("Location")).toBe("/admin");
    }
  });

  it("is linked from the client's header and the dashboard's panels", async () => {
    const client = await fundedClient();
    const html = await (await getPage("/dashboard", client.cookie)).text();
    expect(linkHref(html, "History")).toBe("/transactions");
    expect(linkHref(html, "View all pending transactions")).toBe("/transactions?status=pending");
    expect(linkHref(html, "View all completed activity")).toBe("/transactions?status=approved");
  });

  it("is never cached, the page nor its data request", async () => {
    const client = await fundedClient();
    for (const path of ["/transactions?status=approved", "/transactions.data?status=approved"]) {
      const response = await getPage(path, client.cookie);
      expect([path, response.status, response.headers.get("Cache-Control")]).toEqual([path, 200, "private, no-store"]);
      await response.body?.cancel();
    }
  });

  it("shows an empty state to a client with no transactions", async () => {
    const client = await createUser();
    const page = await view(await sessionCookieFor(client.id));
    expect(page.empty).toBe(true);
    expect(testIdText(page.html, "history-empty")).toBe("No transactions yet. Fund your account to get started.");
    expect(page.next).toBeNull();
  });
});

describe("references on the client's side", () => {
  it("are on the dashboard's rows, the cancel confirm page and the mails about one request", async () => {
    const client = await fundedClient(50_000, "Nell");
    const id = await requestWithdrawalAs(client, { amount: "25.00" });
    const reference = transactionReference(id);

    const dashboard = await (await getPage("/dashboard", client.cookie)).text();
    expect(dashboard).toContain(reference);

    const token = new URL(cancelLink("http://localhost", appEnv.SESSION_SECRET, id, client.id)).search;
    const confirm = await (await getPage(`/cancel-request${token}`)).text();
    expect(confirm).toContain(reference);

    const { results } = await env.DB.prepare(
      "SELECT template, payload FROM email_outbox WHERE to_address = ? ORDER BY id",
    )
      .bind(client.email)
      .all<{ template: "withdrawal_receipt" | "withdrawal_new_address"; payload: string }>();
    expect(results.map((row) => row.template)).toEqual(["withdrawal_receipt", "withdrawal_new_address"]);
    for (const row of results) {
      const mail = renderStoredEmail(row.template, JSON.parse(row.payload), appEnv);
      expect(mail.text, row.template).toContain(`Reference: ${reference}`);
      expect(mail.html, row.template).toContain(reference);
    }
  });

  it("a receipt stored before references were added still renders", () => {
    const mail = renderStoredEmail(
      "withdrawal_receipt",
      { name: "Old", amount: 5, walletType: "ETH", walletAddress: "0xabc" },
      appEnv,
    );
    expect(mail.text).not.toContain("Reference");
  });
});

describe("the cost of a history page", () => {
  /** SQLite's plan for one page's statement, as its lines. */
  async function planOf(query: { toSQL: () => { sql: string; params: unknown[] } }) {
    const { sql, params } = query.toSQL();
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...params)
      .all<{ detail: string }>();
    return results.map((row) => row.detail).join("\n");
  }

  const someone = "00000000-0000-4000-8000-000000000000";
  const cursor = { createdAt: Date.UTC(2026, 0, 1), id: 1_000 };

  it("walks one index in order and never sorts, whichever filter and direction", async () => {
    const cases: Array<
      [string, Parameters<typeof historyPageQuery>[1], Parameters<typeof historyPageQuery>[2], string]
    > = [
      ["no filter", { filters: {}, userId: someone }, { after: cursor }, "transactions_user_recent_idx"],
      ["backwards", { filters: {}, userId: someone }, { before: cursor }, "transactions_user_recent_idx"],
      [
        "dates",
        { filters: { from: "2026-01-01", to: "2026-01-31" }, userId: someone },
        {},
        "transactions_user_recent_idx",
      ],
      [
        "type",
        { filters: { type: "withdraw" }, userId: someone },
        { after: cursor },
        "transactions_user_type_recent_idx",
      ],
      [
        "status",
        { filters: { status: "pending" }, userId: someone },
        { before: cursor },
        "transactions_user_status_recent_idx",
      ],
      [
        "type and dates",
        { filters: { type: "profit", from: "2026-01-01" }, userId: someone },
        {},
        "transactions_user_type_recent_idx",
      ],
    ];
    for (const [name, query, position, index] of cases) {
      const plan = await planOf(historyPageQuery(db, query, position));
      expect(plan, name).toContain(index);
      expect(plan, name).not.toContain("TEMP B-TREE");
    }
    const both = await planOf(
      historyPageQuery(db, { filters: { type: "withdraw", status: "pending" }, userId: someone }),
    );
    expect(both).toMatch(/transactions_user_(type|status)_recent_idx/);
    expect(both).not.toContain("TEMP B-TREE");
  });

  it("looks a reference up by the primary key", async () => {
    const plan = await planOf(
      historyPageQuery(db, { filters: { reference: transactionReference(12_345) }, userId: someone }),
    );
    expect(plan).toMatch(/USING INTEGER PRIMARY KEY|USING PRIMARY KEY/);
  });

  it("takes a malformed cursor for the first page, never an error", async () => {
    const client = await createUser();
    await insertTransaction(client.id);
    const cookie = await sessionCookieFor(client.id);
    expect((await view(cookie, "?after=nonsense")).references).toHaveLength(1);
    expect((await view(cookie, "?before=1.x")).references).toHaveLength(1);
  });
});
