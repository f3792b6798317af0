import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { readDayRange } from "~/lib/history-filters";
import { may } from "~/lib/permissions";
import { forbidden } from "~/server/http.server";
import { alertsCsv } from "~/server/monitoring/alert-reads.server";
import { requirePermission } from "~/server/session.server";

/**
 * /admin/alerts as CSV: every alert written in a range of UTC days (`from`, `to`, both optional, both included) with
 * its decision, oldest first, streamed. A bad date is refused with its message rather than exporting everything.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  // An export of the alerts: the roles that review them and the roles that export, both.
  const admin = await requirePermission(request, context, "exportData");
  if (!may(admin.roles, "reviewAlerts")) forbidden();
  const params = new URL(request.url).searchParams;
  const blankless = (key: string) => params.get(key)?.trim() || undefined;
  const { range, errors } = readDayRange(blankless("from"), blankless("to"));
  if (errors.length > 0) {
    return new Response(errors.join("\n"), { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const span = [range.from, range.to].filter(Boolean).join("-to-");
  return new Response(alertsCsv(context.db, range), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="alerts${span ? `-${span}` : ""}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
