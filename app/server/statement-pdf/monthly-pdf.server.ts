/**
 * A monthly statement as a PDF: what the page /statements/{month} shows, from the same figures
 * (`clientStatement`), laid out for paper. Nothing is computed here but the text of each figure.
 */
import { PDFDocument } from "pdf-lib";
import { formatCents, formatDateTimeUtc, formatLongDate, formatSignedCents } from "~/lib/format";
import { statusLabel, typeLabel } from "~/lib/labels";
import { ORDER_COLUMN_LABELS, orderCells } from "~/lib/order-lines";
import { transactionReference } from "~/lib/reference";
import { monthLabel } from "~/lib/statement-month";
import { MONTH_ORDERS_EMPTY, MONTH_ORDERS_NOTE } from "~/lib/statement-orders";
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

/** The orders' columns after their date: each wide enough for a serial, 'GOOGL', a price and an amount of millions with the gap. */
const ORDER_WIDTHS = [0.1, 0.07, 0.09, 0.11, 0.11, 0.13, 0.13];
const ORDER_COLUMNS: PdfColumn[] = [
  { label: "Date", width: 0.26 },
  ...ORDER_COLUMN_LABELS.map((label, index) => ({
    label,
    width: ORDER_WIDTHS[index] ?? 0.1,
    align: index >= 3 ? ("right" as const) : ("left" as const),
  })),
];

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

  pages.section("Orders", MONTH_ORDERS_NOTE);
  if (s.orders.length === 0) pages.paragraph(MONTH_ORDERS_EMPTY);
  else
    pages.table(
      ORDER_COLUMNS,
      s.orders.map((order) => ({ cells: [formatDateTimeUtc(order.at), ...orderCells(order)] })),
    );

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
