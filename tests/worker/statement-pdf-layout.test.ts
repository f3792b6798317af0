/**
 * How a month's statement PDF is laid out, measured rather than read: each piece of text's start and end on the
 * page (tests/support/pdf-text.ts), so that a cut word or two columns run together fail here. The figures the PDF
 * prints are statement-pdf-month.test.ts's.
 */
import { describe, expect, it } from "vitest";
import { formatCents, formatLongDate } from "~/lib/format";
import { parseStatementMonth, type StatementPeriod } from "~/server/ledger/statements.server";
import { createUser, getPage, insertTransaction, sessionCookieFor } from "../support/fixtures";
import { type PdfPiece, pdfPieces, piecesByLine } from "../support/pdf-text";
import { markVerified } from "../support/verification-state";

const DAY = 86_400_000;
const MONTH = "2025-03";
const period = parseStatementMonth(MONTH) as StatementPeriod;
/** A clear gap between two columns: wider than two figures of the tables' 8.5-point Helvetica (4.7 points each). */
const CLEAR_GAP = 10;

/** A March with money moved and a large withdrawal still pending, after a February deposit: the PDF's pieces. */
async function marchStatementPieces() {
  const admin = await createUser({ role: "admin" });
  const client = await createUser();
  await markVerified(client.id);
  const approved = (at: number, values: Parameters<typeof insertTransaction>[1]) =>
    insertTransaction(client.id, { status: "approved", decidedBy: admin.id, createdAt: at, decidedAt: at, ...values });
  await approved(Date.UTC(2025, 1, 10), { amountCents: 9_000_000_000 });
  await approved(period.start + DAY, { transactionType: "profit", tradingPair: "BTC/USD", amountCents: 5_050 });
  const pending = await insertTransaction(client.id, {
    transactionType: "withdraw",
    amountCents: 876_543_210,
    createdAt: period.start + 2 * DAY,
  });
  const response = await getPage(`/statements/${MONTH}.pdf`, await sessionCookieFor(client.id));
  expect(response.status).toBe(200);
  const pages = await pdfPieces(await response.arrayBuffer());
  return { pages, lines: pages.flatMap(piecesByLine), pending };
}

const texts = (line: PdfPiece[] | undefined) => line?.map((piece) => piece.text);

describe("a month's statement PDF, measured", () => {
  it("prints the Movements table's opening balance line in full, clear of the balance beside it", async () => {
    const { lines } = await marchStatementPieces();
    const opening = lines.find((line) => line[0]?.text === formatLongDate(period.start));
    expect(texts(opening)).toEqual([formatLongDate(period.start), "Opening balance", formatCents(9_000_000_000)]);
    const [, words, balance] = opening ?? [];
    expect((balance?.x ?? 0) - (words?.right ?? Number.POSITIVE_INFINITY)).toBeGreaterThanOrEqual(CLEAR_GAP);
  });
});
