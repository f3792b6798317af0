import { parseHistoryFilters } from "~/lib/history-filters";
import { csvDownload } from "~/server/csv.server";
import { clientHistoryCsv } from "~/server/ledger/client-history.server";
import { requireClient } from "~/server/session.server";
import type { Route } from "./+types/transactions[.]csv";

/**
 * The client's history as CSV, with the filters of the page it was downloaded from, streamed. A bad filter is
 * refused with its message rather than answered with every row, which is not what was asked for.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireClient(request, context);
  const { filters, errors } = parseHistoryFilters(new URL(request.url).searchParams);
  if (errors.length > 0) {
    return new Response(`${errors.join("\n")}\n`, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  }
  const day = new Date().toISOString().slice(0, 10);
  return csvDownload(clientHistoryCsv(context.db, user.id, filters), `transactions-${day}.csv`, "private, no-store");
}
