import { readDayRange } from "~/lib/history-filters";
import { csvDownload, rangedFileName, refusedDownload } from "~/server/csv.server";
import { alertsCsv } from "~/server/monitoring/alert-reads.server";
import { requirePermission } from "~/server/session.server";
import type { Route } from "./+types/admin.alerts[.]csv";

/**
 * /admin/alerts as CSV: every alert written in a range of UTC days (`from`, `to`, both optional, both included) with
 * its decision, oldest first, streamed. A bad date is refused with its message rather than exporting everything.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  // An export of the alerts: the roles that review them and the roles that export, both.
  await requirePermission(request, context, "exportData", "reviewAlerts");
  const params = new URL(request.url).searchParams;
  const blankless = (key: string) => params.get(key)?.trim() || undefined;
  const { range, errors } = readDayRange(blankless("from"), blankless("to"));
  if (errors.length > 0) return refusedDownload(errors);
  return csvDownload(alertsCsv(context.db, range), rangedFileName("alerts", range), "private, no-store");
}
