import { requireStatementMonth } from "~/server/ledger/statement-address.server";
import { monthlyStatementDownload } from "~/server/statement-pdf/statement-download.server";
import type { Route } from "./+types/statements.$month[.]pdf";

/** /statements/2026-10.pdf: the month's statement as a PDF, to keep. */
export async function loader(args: Route.LoaderArgs) {
  const { user, period, now } = await requireStatementMonth(args);
  return monthlyStatementDownload(args.context, user, period, now);
}
