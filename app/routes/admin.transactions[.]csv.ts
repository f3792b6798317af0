import { parseAdminTransactionFilters } from "~/lib/admin-transaction-filters";
import { adminTransactionsCsv } from "~/server/admin/transactions.server";
import { csvDownload, refusedDownload } from "~/server/csv.server";
import { requirePermission } from "~/server/session.server";
import type { Route } from "./+types/admin.transactions[.]csv";

/** /admin/transactions as CSV: the same filters, every matching row, newest first, streamed. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "exportData");
  const { filters, errors } = parseAdminTransactionFilters(new URL(request.url).searchParams);
  // A download never guesses: a bad filter is refused with its message rather than exporting everything.
  if (errors.length > 0) return refusedDownload(errors);
  return csvDownload(adminTransactionsCsv(context.db, filters), "transactions.csv");
}
