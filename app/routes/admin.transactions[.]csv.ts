import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { parseAdminTransactionFilters } from "~/lib/admin-transaction-filters";
import { adminTransactionsCsv } from "~/server/admin/transactions.server";
import { requirePermission } from "~/server/session.server";

/** /admin/transactions as CSV: the same filters, every matching row, newest first, streamed. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requirePermission(request, context, "exportData");
  const { filters, errors } = parseAdminTransactionFilters(new URL(request.url).searchParams);
  // A download never guesses: a bad filter is refused with its message rather than exporting everything.
  if (errors.length > 0) {
    return new Response(errors.join("\n"), { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  return new Response(adminTransactionsCsv(context.db, filters), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="transactions.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
