/**
 * How a month's statement PDF is laid out, measured rather than read: each piece of text's start and end on the
 * page (tests/support/pdf-text.ts), so that a cut word or two columns run together fail here. The figures the PDF
 * prints are statement-pdf-month.test.ts's.
 */
import { describe, expect, it } from "vitest";
import { formatCents, formatDateTimeUtc, formatLongDate, formatSignedCents } from "~/lib/format";
import { statusLabel } from "~/lib/labels";
import { idOfReference, transactionReference } from "~/lib/reference";
import { parseStatementMonth, type StatementPeriod } from "~/server/ledger/statements.server";
import { createUser, getPage, insertTransaction, sessionCookieFor } from "../support/fixtures";
import { type PdfPiece, pdfPieces, piecesByLine } from "../support/pdf-text";
import { markVerified } from "../support/verification-state";

const DAY = 86_400_000;
/** A clear gap between two columns: wider than two figures of the tables' 8.5-point Helvetica (4.7 points each). */
const CLEAR_GAP = 10;
/** The largest amount a request may be for (docs/product.md, "Amounts"). */
const LARGEST_CENTS = 10_000_000_000;

/**
 * A client's statement for `month` with a deposit the month before, and `movements` and `requests` in the month:
 * the PDF's lines of pieces.
 */
async function statementLines(
  month: string,
  movements: Array<Parameters<typeof insertTransaction>[1]>,
  requests: Array<Parameters<typeof insertTransaction>[1]>,
) {
  const period = parseStatementMonth(month) as StatementPeriod;
  const admin = await createUser({ role: "admin" });
  const client = await createUser();
  await markVerified(client.id);
  const before = period.start - DAY;
  await insertTransaction(client.id, {
    status: "approved",
    amountCents: 9_000_000_000,
    createdAt: before,
    decidedBy: admin.id,
    decidedAt: before,
  });
  for (const movement of movements) {
    const at = movement?.createdAt ?? period.start + DAY;
    await insertTransaction(client.id, { status: "approved", decidedBy: admin.id, decidedAt: at, ...movement });
  }
  for (const request of requests) await insertTransaction(client.id, { createdAt: period.start + DAY, ...request });
  const response = await getPage(`/statements/${month}.pdf`, await sessionCookieFor(client.id));
  expect(response.status).toBe(200);
  return (await pdfPieces(await response.arrayBuffer())).flatMap(piecesByLine);
}

const texts = (line: PdfPiece[] | undefined) => line?.map((piece) => piece.text);
const gapBetween = (left: PdfPiece | undefined, right: PdfPiece | undefined) =>
  (right?.x ?? 0) - (left?.right ?? Number.POSITIVE_INFINITY);

function expectClearGaps(lines: PdfPiece[][]) {
  for (const line of lines) {
    for (let index = 1; index < line.length; index++) {
      const [left, right] = [line[index - 1], line[index]];
      expect(gapBetween(left, right), `"${left?.text}" then "${right?.text}"`).toBeGreaterThanOrEqual(CLEAR_GAP);
    }
  }
}

describe("a month's statement PDF, measured", () => {
  it("prints the Movements table's opening balance line in full, clear of the balance beside it", async () => {
    const march = parseStatementMonth("2025-03") as StatementPeriod;
    const lines = await statementLines("2025-03", [{ transactionType: "profit", tradingPair: "BTC/USD" }], []);
    const opening = lines.find((line) => line[0]?.text === formatLongDate(march.start));
    expect(texts(opening)).toEqual([formatLongDate(march.start), "Opening balance", formatCents(9_000_000_000)]);
    const [, words, balance] = opening ?? [];
    expect(gapBetween(words, balance)).toBeGreaterThanOrEqual(CLEAR_GAP);
  });

  it("keeps a clear gap between a request's amount and its status, and between any two columns", async () => {
    const lines = await statementLines(
      "2025-03",
      [{ transactionType: "profit", tradingPair: "BTC/USD", amountCents: 5_050 }],
      [{ transactionType: "withdraw", amountCents: 876_543_210 }],
    );
    const header = lines.find((line) => line[0]?.text === "Requested");
    expect(texts(header)).toEqual(["Requested", "Reference", "Type", "Pair / stock", "Amount", "Status"]);
    const request = lines.find((line) => line.at(-1)?.text === statusLabel("pending", "client"));
    expect(texts(request)?.slice(-2)).toEqual([formatCents(876_543_210), statusLabel("pending", "client")]);
    expect(gapBetween(request?.at(-2), request?.at(-1))).toBeGreaterThanOrEqual(CLEAR_GAP);
    expect(gapBetween(header?.at(-2), header?.at(-1))).toBeGreaterThanOrEqual(CLEAR_GAP);
    expectClearGaps(lines);
  });

  it("prints the widest value of each column in full, clear of the next", async () => {
    // The widest date (May's, 2-digit day and hour), reference, type, pair and amount.
    const at = Date.UTC(2025, 4, 28, 12);
    const widestId = idOfReference("TX-WWWWWW") ?? 0;
    const lines = await statementLines(
      "2025-05",
      [
        {
          id: widestId,
          transactionType: "stock_deposit",
          stock: "BRK.B",
          amountCents: LARGEST_CENTS,
          createdAt: at,
        },
        { transactionType: "profit", tradingPair: "USDT/BTC", amountCents: LARGEST_CENTS, createdAt: at + 1 },
      ],
      [{ transactionType: "stock_deposit", stock: "CMCSA", amountCents: LARGEST_CENTS, createdAt: at + 2 }],
    );
    const widest = lines.find((line) => line[1]?.text === transactionReference(widestId));
    expect(texts(widest)).toEqual([
      "May 28, 2025, 12:00 PM UTC",
      "TX-WWWWWW",
      "Stock deposit",
      "BRK.B",
      formatSignedCents(LARGEST_CENTS),
      formatCents(9_000_000_000 + LARGEST_CENTS),
    ]);
    expect(lines.find((line) => line[3]?.text === "USDT/BTC")).toBeDefined();
    const request = lines.find((line) => line.at(-1)?.text === statusLabel("pending", "client"));
    expect(texts(request)?.[0]).toBe(formatDateTimeUtc(at + 2).replace(/\p{Zs}/gu, " "));
    expect(texts(request)?.at(-2)).toBe(formatCents(LARGEST_CENTS));
    expectClearGaps(lines);
  });
});
