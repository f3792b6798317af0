import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { SUMMARY_REFUSALS } from "~/lib/statement-month";
import { notFound } from "~/server/http.server";
import { parseSummaryYear } from "~/server/ledger/yearly-summary.server";
import { requireClient } from "~/server/session.server";
import { yearlySummaryDownload } from "~/server/statement-pdf/statement-download.server";

/** /statements/year/2026.pdf: the year's summary as a PDF. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireClient(request, context);
  const now = Date.now();
  const year = parseSummaryYear(params.year ?? "", now);
  if (typeof year === "string") notFound(SUMMARY_REFUSALS[year]);
  return yearlySummaryDownload(context, user, year, now);
}
