/**
 * A year's summary as a PDF: the figures of /statements/year/{year} (`yearlySummary`), laid out for paper.
 */
import { PDFDocument } from "pdf-lib";
import { formatCents, formatLongDate } from "~/lib/format";
import { monthLabel } from "~/lib/statement-month";
import { SUMMARY_COLUMN_LABELS, summaryCells } from "~/lib/yearly-summary";
import type { YearlySummary } from "../ledger/yearly-summary.server";
import { holderDetails } from "./monthly-pdf.server";
import { PdfPages } from "./pdf-pages.server";

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
  pages.finish(generatedAt);
  return doc.save();
}
