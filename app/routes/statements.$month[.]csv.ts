import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireStatementMonth } from "~/server/ledger/statement-address.server";
import { monthlyStatementCsv } from "~/server/ledger/statement-csv.server";

/** /statements/2026-10.csv: the statement's rows as CSV, streamed. */
export async function loader(args: LoaderFunctionArgs) {
  const { user, period } = await requireStatementMonth(args);
  return new Response(monthlyStatementCsv(args.context.db, user.id, period), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="statement-${period.month}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
