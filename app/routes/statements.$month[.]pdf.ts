import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { STATEMENT_REFUSALS } from "~/lib/statement-month";
import { notFound } from "~/server/http.server";
import { parseStatementMonth } from "~/server/ledger/statements.server";
import { requireClient } from "~/server/session.server";
import { monthlyStatementDownload } from "~/server/statement-pdf/statement-download.server";

/** /statements/2026-10.pdf: the month's statement as a PDF, to keep. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireClient(request, context);
  const now = Date.now();
  const period = parseStatementMonth(params.month ?? "", now);
  if (typeof period === "string") notFound(STATEMENT_REFUSALS[period]);
  return monthlyStatementDownload(context, user, period, now);
}
