import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { STATEMENT_REFUSALS } from "~/lib/statement-month";
import { notFound } from "~/server/http.server";
import { monthlyStatementCsv } from "~/server/ledger/statement-csv.server";
import { parseStatementMonth } from "~/server/ledger/statements.server";
import { requireClient } from "~/server/session.server";

/** /statements/2026-10.csv: the statement's rows as CSV, streamed. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireClient(request, context);
  const period = parseStatementMonth(params.month ?? "");
  if (typeof period === "string") notFound(STATEMENT_REFUSALS[period]);
  return new Response(monthlyStatementCsv(context.db, user.id, period), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="statement-${period.month}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
