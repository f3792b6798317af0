/**
 * A year's summary as a PDF: the figures of /statements/year/{year} (`yearlySummary`), laid out for paper.
 */
import { PDFDocument } from "pdf-lib";
import { formatCents, formatLongDate } from "~/lib/format";
import {
  REALIZED_COLUMN_LABELS,
  REALIZED_GAINS_EMPTY,
  REALIZED_GAINS_NOTE,
  realizedCells,
  realizedTotalCells,
} from "~/lib/realized-gains";
import { monthLabel } from "~/lib/statement-month";
import { SUMMARY_COLUMN_LABELS, summaryCells } from "~/lib/yearly-summary";
import type { YearlySummary } from "../ledger/yearly-summary.server";
import { holderDetails } from "./monthly-pdf.server";
import { type PdfColumn, PdfPages } from "./pdf-pages.server";

/** Realized gains' columns: the stock, then figures, each wide enough for its widest value and the gap. */
const REALIZED_WIDTHS = [0.12, 0.09, 0.12, 0.15, 0.18, 0.18, 0.16];
const REALIZED_COLUMNS: PdfColumn[] = REALIZED_COLUMN_LABELS.map((label, index) => ({
  label,
  width: REALIZED_WIDTHS[index] ?? 0.1,
  align: index === 0 ? "left" : "right",
}));

export const summaryFileName = (year: string) => `yearly-summary-${year}.pdf`;

export async function yearlySummaryPdf(s: YearlySummary, firm: string, generatedAt: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const title = `Yearly summary ${s.year}`;
  const pages = await PdfPages.start(doc, firm, `${firm} - ${title}`);
  pages.heading(title, [`Period: ${formatLongDate(s.periodStart)} – ${formatLongDate(s.periodEnd)} (UTC)`]);
  pages.details([
    ...holderDetails(s),
    ["Opening balance", formatCents(s.openingCents)],
    ["Closing balance", formatCents(s.total.closingCents)],
  ]);
  pages.section(
    "By month",
    "Money counts in the month it moved (UTC): a request approved in a later month counts there.",
  );
  pages.table(
    [
      { label: "Month", width: 0.2 },
      ...SUMMARY_COLUMN_LABELS.map((label) => ({ label, width: 0.16, align: "right" as const })),
    ],
    [
      ...s.months.map((m) => ({ cells: [monthLabel(m.month), ...summaryCells(m)] })),
      { cells: [`Year ${s.year}`, ...summaryCells(s.total)], bold: true },
    ],
  );
  pages.section("Realized gains", REALIZED_GAINS_NOTE);
  if (s.realizedGains.length === 0) pages.paragraph(REALIZED_GAINS_EMPTY);
  else
    pages.table(REALIZED_COLUMNS, [
      ...s.realizedGains.map((row) => ({ cells: realizedCells(row) })),
      { cells: realizedTotalCells(s.realizedTotal, `Year ${s.year}`), bold: true },
    ]);
  pages.finish(generatedAt);
  return doc.save();
}
