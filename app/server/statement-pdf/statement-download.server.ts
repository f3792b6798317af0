/**
 * The PDF downloads of /statements: a month's statement, and a year's summary. A closed month's PDF is kept in the
 * STATEMENTS bucket and built again only when what it prints changes; the current month's (it grows until the
 * month ends) and the yearly summary (a dozen rows, quick to build) are built on each download (docs/decisions/0049).
 */
import type { AppContext } from "~/load-context";
import { clientStatement, type StatementPeriod } from "../ledger/statements.server";
import { type SummaryYear, yearlySummary } from "../ledger/yearly-summary.server";
import { monthlyStatementPdf, statementFileName } from "./monthly-pdf.server";
import { pdfResponse, storedOrBuiltPdf } from "./stored-pdf.server";
import { summaryFileName, yearlySummaryPdf } from "./yearly-pdf.server";

type Client = { id: string; email: string };
type Context = Pick<AppContext, "db" | "env" | "bindings">;

export async function monthlyStatementDownload(context: Context, client: Client, period: StatementPeriod, now: number) {
  const statement = await clientStatement(context.db, client, period, now);
  const firm = context.env.BRAND_NAME;
  const build = () => monthlyStatementPdf(statement, firm, now);
  const fileName = statementFileName(period.month);
  if (period.end > now) {
    const bytes = await build();
    return pdfResponse(bytes, bytes.length, fileName);
  }
  const { body, size } = await storedOrBuiltPdf(
    context.bindings.STATEMENTS,
    { userId: client.id, document: period.month, content: { firm, statement } },
    build,
  );
  return pdfResponse(body, size, fileName);
}

export async function yearlySummaryDownload(context: Context, client: Client, year: SummaryYear, now: number) {
  const summary = await yearlySummary(context.db, client, year, now);
  const bytes = await yearlySummaryPdf(summary, context.env.BRAND_NAME, now);
  return pdfResponse(bytes, bytes.length, summaryFileName(year.year));
}
