/**
 * What a statement PDF costs to build inside workerd, for docs/decisions/0049: a 1,000-row month, and a month of the
 * bench's heavy client (20,000 rows over two years: about 830 a month, four in five approved). workerd's clock moves
 * only at I/O, so each measurement is taken between two awaited R2 reads around the build alone. The figures are
 * printed, not asserted (the machine's load would make a bound flaky); what is asserted is that every row is printed
 * and that the second download is the kept copy, never a second build.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { transactionReference } from "~/lib/reference";
import { clientStatement, parseStatementMonth, type StatementPeriod } from "~/server/ledger/statements.server";
import { monthlyStatementPdf } from "~/server/statement-pdf/monthly-pdf.server";
import { appEnv, createUser, db, getPage, sessionCookieFor } from "../support/fixtures";
import { pdfPages } from "../support/pdf-text";

const MONTH = "2025-05";
const period = parseStatementMonth(MONTH) as StatementPeriod;
const TYPES = ["deposit", "deposit", "stock_deposit", "fee_deposit", "withdraw", "profit", "profit", "loss"] as const;

/** `approved` movements and `requests` pending or rejected rows in May 2025, written in a few batches. */
async function busyMonth(approved: number, requests: number) {
  const admin = await createUser({ role: "admin" });
  const client = await createUser();
  const rows: string[] = [];
  for (let i = 0; i < approved + requests; i++) {
    const type = TYPES[i % TYPES.length] ?? "deposit";
    const at = period.start + i * 2_000;
    const extra =
      type === "stock_deposit"
        ? "'AAPL', NULL"
        : type === "profit" || type === "loss"
          ? "NULL, 'EUR/USD'"
          : "NULL, NULL";
    rows.push(
      i < approved
        ? `('${client.id}', '${type}', ${10_000 + i}, 'approved', ${extra}, ${at}, '${admin.id}', ${at})`
        : `('${client.id}', '${type}', ${10_000 + i}, '${i % 2 ? "pending" : "rejected"}', ${extra}, ${at}, ${i % 2 ? "NULL" : `'${admin.id}'`}, ${i % 2 ? "NULL" : at + 1})`,
    );
  }
  const statements = [];
  for (let i = 0; i < rows.length; i += 200) {
    statements.push(
      env.DB.prepare(
        `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, stock, trading_pair, created_at, decided_by, decided_at) VALUES ${rows.slice(i, i + 200).join(", ")}`,
      ),
    );
  }
  await env.DB.batch(statements);
  return { ...client, cookie: await sessionCookieFor(client.id) };
}

/** Milliseconds of `work`, read between two I/O waits (workerd's clock stands still in between). */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  await env.STATEMENTS.head("clock");
  const started = Date.now();
  const value = await work();
  await env.STATEMENTS.head("clock");
  return { ms: Date.now() - started, value };
}

describe("what a statement PDF costs", () => {
  for (const [name, approved, requests] of [
    ["a 1,000-row month", 1_000, 0],
    ["a month of the heavy bench client", 667, 167],
  ] as const) {
    it(`builds ${name} once, then serves the kept copy`, async () => {
      const client = await busyMonth(approved, requests);
      const statement = await clientStatement(db, client, period);
      expect(statement.movements).toHaveLength(approved);
      expect(statement.requests).toHaveLength(requests);

      const builds: number[] = [];
      let bytes: Uint8Array = new Uint8Array();
      for (let run = 0; run < 3; run++) {
        const build = await timed(() => monthlyStatementPdf(statement, appEnv.BRAND_NAME, Date.now()));
        builds.push(build.ms);
        bytes = build.value;
      }
      const pages = await pdfPages(bytes);
      const printedReferences = new Set(pages.flat().map((line) => line[1]));
      for (const row of [...statement.movements, ...statement.requests]) {
        expect(printedReferences.has(transactionReference(row.id))).toBe(true);
      }

      const first = await timed(() => getPage(`/statements/${MONTH}.pdf`, client.cookie).then((r) => r.arrayBuffer()));
      const second = await timed(() => getPage(`/statements/${MONTH}.pdf`, client.cookie).then((r) => r.arrayBuffer()));
      expect(new Uint8Array(second.value)).toEqual(new Uint8Array(first.value));
      console.info(
        `${name}: ${pages.length} pages, ${Math.round(bytes.length / 1024)} KiB; build alone ${builds.join(" / ")} ms; ` +
          `first download (read, build, store) ${first.ms} ms; second (the kept copy) ${second.ms} ms`,
      );
    }, 60_000);
  }
});
