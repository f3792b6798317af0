/**
 * Large statement PDFs (docs/decisions/0049): a 1,000-row month, and a month of the bench's heavy client (20,000
 * rows over two years: about 830 a month, four in five approved). Every row is printed, and the second download is
 * the kept copy. What they cost is `npm run bench`'s to measure, not this suite's (docs/decisions/0059).
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

describe("a large statement PDF", () => {
  for (const [name, approved, requests] of [
    ["a 1,000-row month", 1_000, 0],
    ["a month of the heavy bench client", 667, 167],
  ] as const) {
    it(`builds ${name} once, then serves the kept copy`, async () => {
      const client = await busyMonth(approved, requests);
      const statement = await clientStatement(db, client, period);
      expect(statement.movements).toHaveLength(approved);
      expect(statement.requests).toHaveLength(requests);

      const pages = await pdfPages(await monthlyStatementPdf(statement, appEnv.BRAND_NAME, Date.now()));
      const printedReferences = new Set(pages.flat().map((line) => line[1]));
      for (const row of [...statement.movements, ...statement.requests]) {
        expect(printedReferences.has(transactionReference(row.id))).toBe(true);
      }

      const first = await getPage(`/statements/${MONTH}.pdf`, client.cookie).then((r) => r.arrayBuffer());
      const second = await getPage(`/statements/${MONTH}.pdf`, client.cookie).then((r) => r.arrayBuffer());
      expect(new Uint8Array(second)).toEqual(new Uint8Array(first));
      const kept = await env.STATEMENTS.list({ prefix: `statements/${client.id}/` });
      expect(kept.objects).toHaveLength(1);
    }, 60_000);
  }
});
