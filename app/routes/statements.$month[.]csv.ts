import { csvDownload } from "~/server/csv.server";
import { requireStatementMonth } from "~/server/ledger/statement-address.server";
import { monthlyStatementCsv } from "~/server/ledger/statement-csv.server";
import type { Route } from "./+types/statements.$month[.]csv";

/** /statements/2026-10.csv: the statement's rows as CSV, streamed. */
export async function loader(args: Route.LoaderArgs) {
  const { user, period } = await requireStatementMonth(args);
  return csvDownload(monthlyStatementCsv(args.context.db, user.id, period), `statement-${period.month}.csv`);
}
