import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireStatementMonth } from "~/server/ledger/statement-address.server";
import { monthlyStatementDownload } from "~/server/statement-pdf/statement-download.server";

/** /statements/2026-10.pdf: the month's statement as a PDF, to keep. */
export async function loader(args: LoaderFunctionArgs) {
  const { user, period, now } = await requireStatementMonth(args);
  return monthlyStatementDownload(args.context, user, period, now);
}
