import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { signedCents, type TransactionStatus, type TransactionType } from "~/lib/ledger";
import { transactionReference } from "~/lib/reference";
import { deleteClientData } from "~/server/admin/deletion.server";
import {
  monthlyStatement,
  movementsQuery,
  openingQuery,
  parseStatementMonth,
  requestsQuery,
  type StatementPeriod,
  statementMonths,
} from "~/server/ledger/statements.server";
import { createUser, db, getPage, insertTransaction, sessionCookieFor } from "../support/fixtures";
import { elementsWith, heading, linkTexts, termValue, testIdText } from "../support/places";
import { periodPair } from "../support/projections";
import { decided, type LedgerOperation, ledgerOperations } from "../support/random-ledger";
import { rowCells } from "../support/tables";
import { markVerified } from "../support/verification-state";

const DAY = 86_400_000;
/** A property run writes and reads a few hundred rows one statement at a time: seconds, more on a busy machine. */
const PROPERTY_TIMEOUT = 30_000;
const monthOf = (at: number) => new Date(at).toISOString().slice(0, 7);
const periodOf = (month: string) => parseStatementMonth(month) as StatementPeriod;

/** A page's HTML as text, without React's markers between adjacent text pieces. */
const pageText = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");

/** What `ledger_months` must hold for a client: the GROUP BY of its approved rows by the month money moved. */
const monthsPair = (userId: string) => periodPair("ledger_months", userId);

interface Row {
  id: number;
  transactionType: TransactionType;
  status: TransactionStatus;
  amountCents: number;
  createdAt: number;
  movedAt: number;
}

/** A random ledger over 2025: requests decided (approved, rejected, cancelled) up to 100 days later, or not. */
const randomLedger = ledgerOperations({
  from: Date.UTC(2025, 0, 1),
  to: Date.UTC(2025, 11, 31),
  maxCents: 5_000_000,
  maxDelay: 100 * DAY,
  maxLength: 25,
});

async function writeLedger(userId: string, adminId: string, operations: LedgerOperation[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const op of operations) {
    const { transactionType, amountCents, createdAt } = op;
    const written = {
      transactionType,
      amountCents,
      createdAt,
      stock: transactionType === "stock_deposit" ? "AAPL" : null,
    };
    if (op.fate === "entry") {
      const id = await insertTransaction(userId, {
        ...written,
        status: "approved",
        decidedBy: adminId,
        decidedAt: createdAt,
      });
      rows.push({ id, ...op, status: "approved", movedAt: op.createdAt });
      continue;
    }
    const id = await insertTransaction(userId, { ...written, status: "pending", createdBy: userId });
    const { status, decidedAt, movedAt } = decided(op);
    if (status !== "pending") {
      await env.DB.prepare("UPDATE transactions SET status = ?, decided_by = ?, decided_at = ? WHERE id = ?")
        .bind(status, status === "cancelled" ? userId : adminId, decidedAt, id)
        .run();
    }
    rows.push({ id, ...op, status, movedAt });
  }
  return rows;
}

/** The statement of a month computed from every row of the ledger, the way the rules table says. */
function expectedStatement(rows: Row[], period: StatementPeriod) {
  const approved = rows.filter((r) => r.status === "approved");
  const balanceBefore = (at: number) =>
    approved.filter((r) => r.movedAt < at).reduce((sum, r) => sum + signedCents(r.transactionType, r.amountCents), 0);
  return {
    openingCents: balanceBefore(period.start),
    closingCents: balanceBefore(period.end),
    movementIds: approved
      .filter((r) => r.movedAt >= period.start && r.movedAt < period.end)
      .sort((a, b) => a.movedAt - b.movedAt || a.id - b.id)
      .map((r) => r.id),
    requestIds: rows
      .filter((r) => r.status !== "approved" && r.createdAt >= period.start && r.createdAt < period.end)
      .sort((a, b) => a.createdAt - b.createdAt || a.id - b.id)
      .map((r) => r.id),
  };
}

describe("ledger_months", () => {
  it(
    "equals the GROUP BY of approved rows by decision month through inserts, decisions, cancels and deletion",
    async () => {
      const admin = await createUser({ role: "admin" });
      await fc.assert(
        fc.asyncProperty(randomLedger, async (operations) => {
          const client = await createUser();
          await markVerified(client.id);
          await writeLedger(client.id, admin.id, operations);
          const { projected, counted } = await monthsPair(client.id);
          expect(projected).toEqual(counted);

          expect(await deleteClientData(db, { id: admin.id, email: admin.email }, client.id)).toEqual({ ok: true });
          expect(await monthsPair(client.id)).toEqual({ projected: [], counted: [] });
        }),
        { numRuns: 20 },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it("is rebuilt from the ledger by the migration that introduced it", async () => {
    const admin = await createUser({ role: "admin" });
    const client = await createUser();
    await markVerified(client.id);
    await writeLedger(client.id, admin.id, [
      {
        transactionType: "deposit",
        amountCents: 10_000,
        createdAt: Date.UTC(2025, 9, 30),
        fate: "approved",
        delay: 5 * DAY,
      },
      { transactionType: "profit", amountCents: 2_500, createdAt: Date.UTC(2025, 9, 2), fate: "entry", delay: 0 },
      { transactionType: "withdraw", amountCents: 700, createdAt: Date.UTC(2025, 9, 3), fate: "pending", delay: 0 },
    ]);
    const backfill = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0008_"))?.queries.find(
      (q) => q.includes("INSERT INTO `ledger_months`") && q.includes("GROUP BY"),
    );
    expect(backfill).toBeDefined();
    await env.DB.prepare("DELETE FROM ledger_months WHERE user_id = ?").bind(client.id).run();
    await env.DB.prepare(backfill ?? "").run();
    const { projected, counted } = await monthsPair(client.id);
    expect(projected).toEqual(counted);
    // The deposit asked for in October and approved in November moved money in November.
    expect(projected).toEqual([
      { month: "2025-10", transaction_type: "profit", count: 1, cents: 2_500 },
      { month: "2025-11", transaction_type: "deposit", count: 1, cents: 10_000 },
    ]);
  });
});

describe("monthly statements", () => {
  it(
    "open, move and close to the cent as the whole ledger says, for every month, and list every active month",
    async () => {
      const admin = await createUser({ role: "admin" });
      await fc.assert(
        fc.asyncProperty(randomLedger, async (operations) => {
          const client = await createUser();
          await markVerified(client.id);
          const rows = await writeLedger(client.id, admin.id, operations);
          const active = new Set(rows.map((r) => monthOf(r.movedAt)));
          expect(await statementMonths(db, client.id)).toEqual([...active].sort().reverse());

          for (const month of ["2024-12", ...active, "2026-06"]) {
            const period = periodOf(month);
            const statement = await monthlyStatement(db, client.id, period);
            const expected = expectedStatement(rows, period);
            expect(statement.openingCents).toBe(expected.openingCents);
            expect(statement.closingCents).toBe(expected.closingCents);
            expect(statement.movements.map((m) => m.id)).toEqual(expected.movementIds);
            expect(statement.requests.map((r) => r.id)).toEqual(expected.requestIds);
            const moved = statement.movements.reduce((sum, m) => sum + m.signedCents, 0);
            expect(statement.openingCents + moved).toBe(statement.closingCents);
            expect(statement.movements.at(-1)?.balanceCents ?? statement.openingCents).toBe(statement.closingCents);
            expect(statement.totals.reduce((sum, t) => sum + t.signedCents, 0)).toBe(moved);
          }
        }),
        { numRuns: 15 },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it("read one month's index range and the opening months, never the history", async () => {
    const period = periodOf("2025-10");
    const plans: string[] = [];
    for (const query of [
      movementsQuery(db, "someone", period),
      requestsQuery(db, "someone", period),
      openingQuery(db, "someone", period.month),
    ]) {
      const { sql, params } = query.toSQL();
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      plans.push(results.map((r) => r.detail).join(" | "));
    }
    expect(plans[0]).toMatch(
      /SEARCH transactions USING INDEX transactions_user_moved_idx \(user_id=\? AND <expr>>\? AND <expr><\?\)/,
    );
    expect(plans[1]).toMatch(/SEARCH transactions USING INDEX transactions_user_(recent|status_recent)_idx/);
    expect(plans[2]).toMatch(
      /SEARCH ledger_months USING (PRIMARY KEY|INDEX sqlite_autoindex_ledger_months_1) \(user_id=\? AND month<\?\)/,
    );
    expect(plans.join(" ")).not.toMatch(/TEMP B-TREE|SCAN transactions/);
  });
});

async function octoberClient() {
  const admin = await createUser({ role: "admin" });
  const client = await createUser({ firstName: "Robin" });
  await markVerified(client.id);
  const rows = await writeLedger(client.id, admin.id, [
    { transactionType: "deposit", amountCents: 50_000, createdAt: Date.UTC(2025, 8, 10), fate: "entry", delay: 0 },
    {
      transactionType: "withdraw",
      amountCents: 12_345,
      createdAt: Date.UTC(2025, 8, 28),
      fate: "approved",
      delay: 10 * DAY,
    },
    { transactionType: "profit", amountCents: 1_001, createdAt: Date.UTC(2025, 9, 15), fate: "entry", delay: 0 },
    { transactionType: "deposit", amountCents: 777, createdAt: Date.UTC(2025, 9, 20), fate: "cancelled", delay: DAY },
    { transactionType: "withdraw", amountCents: 400, createdAt: Date.UTC(2025, 9, 21), fate: "pending", delay: 0 },
  ]);
  return { client, rows, cookie: await sessionCookieFor(client.id) };
}

describe("/statements", () => {
  it("lists the client's active months, newest first, each linking to its statement", async () => {
    const { cookie } = await octoberClient();
    const response = await getPage("/statements", cookie);
    expect(response.status).toBe(200);
    const html = await pageText(response);
    const links = [...html.matchAll(/href="\/statements\/(\d{4}-\d{2})"/g)].map((m) => m[1]);
    expect(links).toEqual(["2025-10", "2025-09"]);
    expect(linkTexts(html).filter((text) => text.startsWith("October 2025"))).toHaveLength(1);
  });

  it("shows a month: holder, opening, movements with references and running balance, closing, requests apart", async () => {
    const { client, rows, cookie } = await octoberClient();
    const response = await getPage("/statements/2025-10", cookie);
    expect(response.status).toBe(200);
    const html = await pageText(response);
    expect(heading(html)).toBe("Statement for October 2025");
    expect(termValue(html, "Account holder")).toBe("Robin Tester");
    expect(termValue(html, "Account ID")).toBe(client.id);
    // Opening: the September deposit; the withdrawal asked in September was approved in October.
    expect(testIdText(html, "statement-opening")).toBe("$500.00");
    expect(elementsWith(html, "data-testid", "statement-opening")[0]).toContain('data-cents="50000"');
    expect(testIdText(html, "statement-closing")).toBe("$386.56");
    expect(elementsWith(html, "data-testid", "statement-closing")[0]).toContain('data-cents="38656"');
    const [, withdrawal, profit, cancelled, pending] = rows;
    const rowOf = (row: (typeof rows)[number] | undefined) => rowCells(html, transactionReference(row?.id ?? 0));
    expect(rowOf(withdrawal)).toContain("−$123.45");
    expect(rowOf(profit)).not.toBeNull();
    expect(rowOf(cancelled)?.at(-1)).toBe("Cancelled");
    expect(rowOf(pending)?.at(-1)).toBe("Pending");
  });

  it("never shows another client's rows: the same month is the visitor's own", async () => {
    const { rows } = await octoberClient();
    const other = await createUser();
    const html = await pageText(await getPage("/statements/2025-10", await sessionCookieFor(other.id)));
    // The owner's references are theirs alone: they reach the other client's page nowhere, its data included.
    for (const row of rows) expect(html).not.toContain(transactionReference(row.id));
    expect(testIdText(html, "statement-closing")).toBe("$0.00");
    const list = await (await getPage("/statements", await sessionCookieFor(other.id))).text();
    expect(linkTexts(list).filter((text) => text.startsWith("October 2025"))).toEqual([]);
    const csv = await (await getPage("/statements/2025-10.csv", await sessionCookieFor(other.id))).text();
    expect(csv.trim().split("\r\n")).toHaveLength(2);
  });

  it("answers 404 with a reason for a malformed or future month, page and CSV alike", async () => {
    const { cookie } = await octoberClient();
    const nextYear = new Date().getUTCFullYear() + 1;
    for (const month of ["2025-13", "2025-1", "october", "2025-10x", `${nextYear}-01`]) {
      const page = await getPage(`/statements/${month}`, cookie);
      expect(page.status).toBe(404);
      expect(await pageText(page)).toMatch(/No statement for this month.*(named by its month|yet)/s);
      expect((await getPage(`/statements/${month}.csv`, cookie)).status).toBe(404);
    }
  });

  it("sends visitors to sign in and admins to the desk", async () => {
    const signedOut = await getPage("/statements/2025-10");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/login/);
    const admin = await createUser({ role: "admin" });
    const asAdmin = await getPage("/statements", await sessionCookieFor(admin.id));
    expect(asAdmin.headers.get("Location")).toBe("/admin");
  });

  it("downloads the same rows as CSV: opening, movements with the running balance, requests apart", async () => {
    const { rows, cookie } = await octoberClient();
    const response = await getPage("/statements/2025-10.csv", cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/csv/);
    expect(response.headers.get("Content-Disposition")).toContain('filename="statement-2025-10.csv"');
    const [, withdrawal, profit, cancelled, pending] = rows;
    const ref = (row?: Row) => transactionReference(row?.id ?? 0);
    expect((await response.text()).split("\r\n")).toEqual([
      "date,reference,type,status,trading_pair,stock,direction,amount,balance",
      "2025-10-01T00:00:00.000Z,,Opening balance,,,,,,500.00",
      `2025-10-08T00:00:00.000Z,${ref(withdrawal)},Withdrawal,approved,,,out,123.45,376.55`,
      `2025-10-15T00:00:00.000Z,${ref(profit)},Profit,approved,,,in,10.01,386.56`,
      `2025-10-20T00:00:00.000Z,${ref(cancelled)},Deposit,cancelled,,,in,7.77,`,
      `2025-10-21T00:00:00.000Z,${ref(pending)},Withdrawal,pending,,,out,4.00,`,
      "",
    ]);
  });
});
