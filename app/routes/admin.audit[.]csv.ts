import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { parseAuditFilters } from "~/lib/audit-filters";
import { may } from "~/lib/permissions";
import { auditCsv } from "~/server/admin/audit-log.server";
import { forbidden } from "~/server/http.server";
import { requirePermission } from "~/server/session.server";

/**
 * /admin/audit as CSV: the same filters (a range of UTC days among them), every matching entry, newest first,
 * streamed. A bad date is refused with its message rather than exporting everything.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  // An export of the audit log: the roles that read it and the roles that export, both.
  const admin = await requirePermission(request, context, "exportData");
  if (!may(admin.roles, "readAuditLog")) forbidden();
  const { filters, errors } = parseAuditFilters(new URL(request.url).searchParams);
  if (errors.length > 0) {
    return new Response(errors.join("\n"), { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const span = [filters.from, filters.to].filter(Boolean).join("-to-");
  return new Response(auditCsv(context.db, filters), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-log${span ? `-${span}` : ""}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
