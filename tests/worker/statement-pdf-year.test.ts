import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatCents, formatLongDate } from "~/lib/format";
import { TRANSACTION_TYPES } from "~/lib/ledger";
import { monthLabel } from "~/lib/statement-month";
import { SUMMARY_COLUMN_LABELS, summaryCells } from "~/lib/yearly-summary";
import { clientStatement, parseStatementMonth, type StatementPeriod } from "~/server/ledger/statements.server";
import { parseSummaryYear, type SummaryYear, yearlySummary } from "~/server/ledger/yearly-summary.server";
import { appEnv, createUser, db, getPage, insertTransaction, sessionCookieFor } from "../support/fixtures";
import { lineStarting, type PdfPiece, pdfPages, pdfPieces, piecesByLine } from "../support/pdf-text";
import { heading, linkHref, termValue, testIdText } from "../support/places";
import { rowCells, tableRows } from "../support/tables";
import { markVerified } from "../support/verification-state";

const DAY = 86_400_000;
const YEAR = parseSummaryYear("2025") as SummaryYear;
/** The ASCII minus the PDF's fonts write for the page's typographic one. */
const printed = (text: string) => text.replace(/\u2212/g, "-");
const pageText = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");
const texts = (line: PdfPiece[] | undefined) => line?.map((piece) => piece.text);
/** When a client's account was opened: the fixtures open it now, and the tests' rows are dated in the past. */
const openedOn = (userId: string, at: number) =>
  env.DB.prepare("UPDATE users SET created_at = ? WHERE id = ?").bind(at, userId).run();

/**
 * A client whose account was opened on `openedAt`, with `rows` approved (each decided when made), signed in: the
 * 2025 summary's PDF lines, and its page.
 */
async function summaryOf(rows: Array<Parameters<typeof insertTransaction>[1]>, openedAt = Date.UTC(2024, 0, 1)) {
  const admin = await createUser({ role: "admin" });
  const client = await createUser();
  await markVerified(client.id);
  await openedOn(client.id, openedAt);
  for (const row of rows) {
    await insertTransaction(client.id, { status: "approved", decidedBy: admin.id, decidedAt: row?.createdAt, ...row });
  }
  const cookie = await sessionCookieFor(client.id);
  const pdf = await getPage("/statements/year/2025.pdf", cookie);
  expect(pdf.status).toBe(200);
  const lines = (await pdfPieces(await pdf.arrayBuffer())).flatMap(piecesByLine);
  return { client, lines, page: await pageText(await getPage("/statements/year/2025", cookie)) };
}

/** Rows asked for from December 2024 to December 2025, some decided up to 40 days later (into 2026), some not. */
const operations = fc.array(
  fc.record({
    transactionType: fc.constantFrom(...TRANSACTION_TYPES),
    amountCents: fc.integer({ min: 1, max: 2_000_000 }),
    createdAt: fc.integer({ min: Date.UTC(2024, 11, 1), max: Date.UTC(2025, 11, 31, 23) }),
    fate: fc.constantFrom("approved", "pending", "rejected"),
    delay: fc.integer({ min: 0, max: 40 * DAY }),
  }),
  { minLength: 1, maxLength: 20 },
);

describe("a year's summary", () => {
  it("closes each month on its statement's closing balance, its columns adding up to the money moved", async () => {
    const admin = await createUser({ role: "admin" });
    await fc.assert(
      fc.asyncProperty(operations, async (ops) => {
        const client = await createUser();
        await markVerified(client.id);
        await openedOn(client.id, Date.UTC(2024, 10, 1));
        for (const op of ops) {
          await insertTransaction(client.id, {
            transactionType: op.transactionType,
            amountCents: op.amountCents,
            createdAt: op.createdAt,
            stock: op.transactionType === "stock_deposit" ? "AAPL" : null,
            status: op.fate === "pending" ? "pending" : op.fate === "approved" ? "approved" : "rejected",
            ...(op.fate === "pending" ? {} : { decidedBy: admin.id, decidedAt: op.createdAt + op.delay }),
          });
        }
        const summary = await yearlySummary(db, client, YEAR, Date.now());
        expect(summary.months.map((m) => m.month)).toEqual(
          Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, "0")}`),
        );
        const january = await clientStatement(db, client, parseStatementMonth("2025-01") as StatementPeriod);
        expect(summary.openingCents).toBe(january.openingCents);
        for (const m of summary.months) {
          const statement = await clientStatement(db, client, parseStatementMonth(m.month) as StatementPeriod);
          expect(m.closingCents).toBe(statement.closingCents);
          expect(m.movedCents).toBe(statement.closingCents - statement.openingCents);
          expect(m.depositsCents + m.feeDepositsCents - m.withdrawalsCents + m.profitAndLossCents).toBe(m.movedCents);
          const total = (...types: string[]) =>
            statement.totals.filter((t) => types.includes(t.type)).reduce((sum, t) => sum + t.signedCents, 0);
          expect(m.depositsCents).toBe(total("deposit", "stock_deposit"));
          expect(m.feeDepositsCents).toBe(total("fee_deposit"));
          expect(m.withdrawalsCents).toBe(0 - total("withdraw"));
          expect(m.profitAndLossCents).toBe(total("profit", "loss"));
        }
        expect(summary.total.closingCents).toBe(summary.months.at(-1)?.closingCents);
        expect(summary.total.depositsCents).toBe(summary.months.reduce((sum, m) => sum + m.depositsCents, 0));
        expect(summary.total.movedCents).toBe(summary.total.closingCents - summary.openingCents);
      }),
      { numRuns: 15 },
    );
  }, 60_000);

  it("downloads as a PDF and shows as a page with the same figures, linked from the statements", async () => {
    const admin = await createUser({ role: "admin" });
    const client = await createUser({ firstName: "Casey" });
    await markVerified(client.id);
    await openedOn(client.id, Date.UTC(2024, 10, 1));
    const approved = (at: number, values: Parameters<typeof insertTransaction>[1]) =>
      insertTransaction(client.id, {
        status: "approved",
        decidedBy: admin.id,
        createdAt: at,
        decidedAt: at,
        ...values,
      });
    await approved(Date.UTC(2024, 10, 5), { amountCents: 100_000 });
    await approved(Date.UTC(2025, 0, 9), { amountCents: 250_000 });
    await approved(Date.UTC(2025, 0, 20), { transactionType: "fee_deposit", amountCents: 1_500 });
    await approved(Date.UTC(2025, 2, 3), { transactionType: "profit", tradingPair: "BTC/USD", amountCents: 12_345 });
    await approved(Date.UTC(2025, 5, 30), { transactionType: "loss", tradingPair: "EUR/USD", amountCents: 20_000 });
    await approved(Date.UTC(2025, 11, 31, 23), { transactionType: "withdraw", amountCents: 50_000 });
    // Asked for in December, approved in January: it counts in 2026.
    await insertTransaction(client.id, {
      transactionType: "withdraw",
      amountCents: 7_000,
      status: "approved",
      createdAt: Date.UTC(2025, 11, 30),
      decidedBy: admin.id,
      decidedAt: Date.UTC(2026, 0, 2),
    });
    const cookie = await sessionCookieFor(client.id);
    const summary = await yearlySummary(db, client, YEAR, Date.now());
    expect(summary.openingCents).toBe(100_000);
    expect(summary.total).toEqual({
      depositsCents: 250_000,
      feeDepositsCents: 1_500,
      withdrawalsCents: 50_000,
      profitAndLossCents: 12_345 - 20_000,
      movedCents: 250_000 + 1_500 - 50_000 + 12_345 - 20_000,
      closingCents: 100_000 + 250_000 + 1_500 - 50_000 + 12_345 - 20_000,
    });

    const response = await getPage("/statements/year/2025.pdf", cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="yearly-summary-2025.pdf"');
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const pages = await pdfPages(await response.arrayBuffer());
    expect(pages).toHaveLength(1);
    const lines = pages.flat();
    expect(lines[0]).toEqual([appEnv.BRAND_NAME]);
    expect(lines[1]).toEqual(["Yearly summary 2025"]);
    expect(lines[2]).toEqual([`Period: ${formatLongDate(YEAR.start)} – ${formatLongDate(YEAR.end - 1)} (UTC)`]);
    expect(lineStarting(lines, "Account holder")).toEqual(["Account holder", "Casey Tester"]);
    expect(lineStarting(lines, "E-mail")).toEqual(["E-mail", client.email]);
    expect(lineStarting(lines, "Account ID")).toEqual(["Account ID", client.id]);
    expect(lineStarting(lines, "Opening balance")).toEqual(["Opening balance", "$1,000.00"]);
    expect(lineStarting(lines, "Closing balance")).toEqual([
      "Closing balance",
      formatCents(summary.total.closingCents),
    ]);
    expect(lineStarting(lines, "Month")).toEqual(["Month", ...SUMMARY_COLUMN_LABELS]);
    for (const m of summary.months) {
      expect(lineStarting(lines, monthLabel(m.month))).toEqual([monthLabel(m.month), ...summaryCells(m).map(printed)]);
    }
    expect(lineStarting(lines, "Year 2025")).toEqual(["Year 2025", ...summaryCells(summary.total).map(printed)]);
    expect(lineStarting(lines, "December 2025")).toContain("$2,938.45");
    expect(pages[0]?.at(-1)?.at(-1)).toBe("Page 1 of 1");

    const page = await pageText(await getPage("/statements/year/2025", cookie));
    expect(heading(page)).toBe("Yearly summary 2025");
    expect(linkHref(page, "Download PDF")).toBe("/statements/year/2025.pdf");
    expect(rowCells(page, 'data-testid="summary-year"')).toEqual(["Year 2025", ...summaryCells(summary.total)]);

    const index = await pageText(await getPage("/statements", cookie));
    for (const year of ["2026", "2025", "2024"]) {
      expect(linkHref(index, `Yearly summary ${year}`)).toBe(`/statements/year/${year}`);
      expect(linkHref(index, `Download PDF of the yearly summary ${year}`)).toBe(`/statements/year/${year}.pdf`);
    }
    const month = await pageText(await getPage("/statements/2025-03", cookie));
    expect(linkHref(month, "Download PDF")).toBe("/statements/2025-03.pdf");
    expect(termValue(month, "E-mail")).toBe(client.email);
  });

  it("reads a fee deposit as money in: under 'Fee deposits', beside the deposits, never as a charge", async () => {
    const { lines, page } = await summaryOf([
      { transactionType: "fee_deposit", amountCents: 1_500, createdAt: Date.UTC(2025, 0, 20) },
    ]);
    const header = lines.find((line) => line[0]?.text === "Month");
    expect(texts(header)).toEqual([
      "Month",
      "Deposits",
      "Fee deposits",
      "Withdrawals",
      "Profit and loss",
      "Closing balance",
    ]);
    // The amount stands right-aligned under its column's name.
    const column = header?.[2];
    const january = lines.find((line) => line[0]?.text === "January 2025");
    const underFeeDeposits = january?.find((piece) => Math.abs(piece.right - (column?.right ?? 0)) < 0.5);
    expect(underFeeDeposits?.text).toBe("$15.00");
    const [columns] = tableRows(page, "summary-months");
    expect(columns).toContain("Fee deposits");
    expect(columns).not.toContain("Fees");
  });

  it("prints a month in which nothing was gained or lost as $0.00, without a sign", async () => {
    const { lines, page } = await summaryOf([
      { amountCents: 100_000, createdAt: Date.UTC(2025, 0, 9) },
      { transactionType: "profit", tradingPair: "BTC/USD", amountCents: 2_500, createdAt: Date.UTC(2025, 2, 3) },
      { transactionType: "loss", tradingPair: "BTC/USD", amountCents: 2_500, createdAt: Date.UTC(2025, 2, 4) },
    ]);
    expect(texts(lines.find((line) => line[0]?.text === "February 2025"))).toEqual([
      "February 2025",
      ...Array(4).fill("$0.00"),
      "$1,000.00",
    ]);
    // A profit and a loss that cancel out are nothing gained or lost either, and so is the year.
    expect(texts(lines.find((line) => line[0]?.text === "March 2025"))?.[4]).toBe("$0.00");
    expect(texts(lines.find((line) => line[0]?.text === "Year 2025"))?.[4]).toBe("$0.00");
    const signedZeros = lines.flat().filter((piece) => /^[-+]\$0\.00$/.test(piece.text));
    expect(signedZeros.map((piece) => piece.text)).toEqual([]);
    const shown = [
      ...tableRows(page, "summary-months").flat(),
      testIdText(page, "summary-opening"),
      testIdText(page, "summary-closing"),
    ];
    expect(shown.filter((text) => /[+\u2212]\$0\.00/.test(text ?? ""))).toEqual([]);
    expect(shown).toContain("$0.00");
  });

  it("starts at the month the account was opened, in its first year", async () => {
    const openedAt = Date.UTC(2025, 2, 20);
    const { client, lines, page } = await summaryOf(
      [{ amountCents: 50_000, createdAt: Date.UTC(2025, 3, 2) }],
      openedAt,
    );
    // The table's rows: six cells, the header apart.
    const listed = lines.filter((line) => line.length === 6 && line[0]?.text !== "Month").map((line) => line[0]?.text);
    expect(listed).toEqual([
      ...Array.from({ length: 10 }, (_, i) => monthLabel(`2025-${String(i + 3).padStart(2, "0")}`)),
      "Year 2025",
    ]);
    expect(texts(lines.find((line) => line[0]?.text === "March 2025"))).toEqual([
      "March 2025",
      ...Array(5).fill("$0.00"),
    ]);
    expect(linkHref(page, "February 2025")).toBeNull();
    expect(linkHref(page, "March 2025")).toBe("/statements/2025-03");

    // The years after begin in January; a year before the account has no month, and nothing to add up.
    const summaryFor = (year: string) => yearlySummary(db, client, parseSummaryYear(year) as SummaryYear, Date.now());
    expect((await summaryFor("2026")).months[0]?.month).toBe("2026-01");
    const before = await summaryFor("2024");
    expect(before.months).toEqual([]);
    expect(before.total.closingCents).toBe(0);

    // Money dated before the opening (an imported history) still counts, from its month, so the year adds up.
    await insertTransaction(client.id, {
      status: "approved",
      amountCents: 1_000,
      decidedBy: (await createUser({ role: "admin" })).id,
      createdAt: Date.UTC(2025, 0, 15),
      decidedAt: Date.UTC(2025, 0, 15),
    });
    const withEarlier = await summaryFor("2025");
    expect(withEarlier.months[0]?.month).toBe("2025-01");
    expect(withEarlier.total.closingCents).toBe(51_000);
  });

  it("is the signed-in client's own, and a malformed or future year has none", async () => {
    const client = await createUser();
    await insertTransaction(client.id, { amountCents: 1_000, createdAt: Date.UTC(2025, 3, 1) });
    const cookie = await sessionCookieFor(client.id);
    for (const path of [
      "/statements/year/25",
      "/statements/year/2999",
      "/statements/year/2999.pdf",
      // Before statements begin; a year below 100 would otherwise be read as 19xx.
      "/statements/year/0001.pdf",
      "/statements/year/1999",
    ]) {
      expect((await getPage(path, cookie)).status).toBe(404);
    }
    const visitor = await getPage("/statements/year/2025.pdf");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toBe(
      `/login?redirectTo=${encodeURIComponent("/statements/year/2025.pdf")}`,
    );
    const admin = await createUser({ role: "admin" });
    const asAdmin = await getPage("/statements/year/2025.pdf", await sessionCookieFor(admin.id));
    expect(asAdmin.headers.get("Location")).toBe("/admin");
    // Summaries are built on each download, never kept.
    expect((await env.STATEMENTS.list({ prefix: `statements/${client.id}/` })).objects).toEqual([]);
  });
});
