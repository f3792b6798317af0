import { requireSummaryYear } from "~/server/ledger/statement-address.server";
import { yearlySummaryDownload } from "~/server/statement-pdf/statement-download.server";
import type { Route } from "./+types/statements.year.$year[.]pdf";

/** /statements/year/2026.pdf: the year's summary as a PDF. */
export async function loader(args: Route.LoaderArgs) {
  const { user, year, now } = await requireSummaryYear(args);
  return yearlySummaryDownload(args.context, user, year, now);
}
