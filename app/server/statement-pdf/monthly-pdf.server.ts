/**
 * A monthly statement as a PDF: what the page /statements/{month} shows, from the same figures
 * (`clientStatement`), laid out for paper. Nothing is computed here but the text of each figure.
 */
import { PDFDocument } from "pdf-lib";
import { formatCents, formatDateTimeUtc, formatLongDate, formatSignedCents } from "~/lib/format";
import { statusLabel, typeLabel } from "~/lib/labels";
import { transactionReference } from "~/lib/reference";
import { monthLabel } from "~/lib/statement-month";
import type { ClientStatement } from "../ledger/statements.server";
import { type PdfColumn, PdfPages } from "./pdf-pages.server";

/**
 * The columns that say which transaction a row is, as on the page. Each is wide enough for its widest value and the
 * table's gap after it: a reference of six W's, 'Stock deposit', 'USDT/BTC'.
 */
const IDENTITY: PdfColumn[] = [
  { label: "Reference", width: 0.15 },
  { label: "Type", width: 0.13 },
  { label: "Pair / stock", width: 0.12 },
];

const identityCells = (at: number, row: ClientStatement["requests"][number]) => [
  formatDateTimeUtc(at),
  transactionReference(row.id),
  typeLabel(row.transactionType),
  row.tradingPair ?? row.stock ?? "",
];

/** Who the statement is for, as its header shows it: the PDF and the yearly summary share it. */
export function holderDetails(s: { holder: string; email: string; accountId: string }): Array<[string, string]> {
  return [
    ["Account holder", s.holder],
    ["E-mail", s.email],
    ["Account ID", s.accountId],
  ];
}

export const statementFileName = (month: string) => `statement-${month}.pdf`;

export async function monthlyStatementPdf(s: ClientStatement, firm: string, generatedAt: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const title = `Statement for ${monthLabel(s.month)}`;
  const pages = await PdfPages.start(doc, firm, `${firm} - ${title}`);
  pages.heading(title, [`Period: ${formatLongDate(s.periodStart)} – ${formatLongDate(s.periodEnd)} (UTC)`]);
  pages.details([
    ...holderDetails(s),
    ["Opening balance", formatCents(s.openingCents)],
    ["Money moved", formatSignedCents(s.closingCents - s.openingCents)],
    ["Closing balance", formatCents(s.closingCents)],
  ]);

  pages.section("Movements");
  if (s.movements.length === 0) pages.paragraph("No money moved on your account this month.");
  else
    pages.table(
      [
        { label: "Date", width: 0.26 },
        ...IDENTITY,
        { label: "Amount", width: 0.17, align: "right" },
        { label: "Balance", width: 0.17, align: "right" },
      ],
      [
        { cells: [formatLongDate(s.periodStart), "Opening balance", "", "", "", formatCents(s.openingCents)] },
        ...s.movements.map((m) => ({
          cells: [...identityCells(m.movedAt, m), formatSignedCents(m.signedCents), formatCents(m.balanceCents)],
        })),
      ],
    );

  if (s.totals.length > 0) {
    pages.section("Totals by type");
    pages.table(
      [
        { label: "Type", width: 0.3 },
        { label: "Count", width: 0.15, align: "right" },
        { label: "Total", width: 0.2, align: "right" },
      ],
      [
        ...s.totals.map((t) => ({ cells: [typeLabel(t.type), String(t.count), formatSignedCents(t.signedCents)] })),
        { cells: ["Closing balance", "", formatCents(s.closingCents)], bold: true },
      ],
    );
  }

  pages.section(
    "Requests that moved no money",
    "Requests made this month and still pending, declined or cancelled. They are not part of the balance.",
  );
  if (s.requests.length === 0) pages.paragraph("None this month.");
  else
    pages.table(
      [
        { label: "Requested", width: 0.26 },
        ...IDENTITY,
        { label: "Amount", width: 0.17, align: "right" },
        { label: "Status", width: 0.17 },
      ],
      s.requests.map((r) => ({
        cells: [...identityCells(r.createdAt, r), formatCents(r.amountCents), statusLabel(r.status, "client")],
      })),
    );

  pages.finish(generatedAt);
  return doc.save();
}
