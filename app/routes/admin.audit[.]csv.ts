import { parseAuditFilters } from "~/lib/audit-filters";
import { auditCsv } from "~/server/admin/audit-log.server";
import { csvDownload, rangedFileName, refusedDownload } from "~/server/csv.server";
import { requirePermission } from "~/server/session.server";
import type { Route } from "./+types/admin.audit[.]csv";

/**
 * /admin/audit as CSV: the same filters (a range of UTC days among them), every matching entry, newest first,
 * streamed. A bad date is refused with its message rather than exporting everything.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  // An export of the audit log: the roles that read it and the roles that export, both.
  await requirePermission(request, context, "exportData", "readAuditLog");
  const { filters, errors } = parseAuditFilters(new URL(request.url).searchParams);
  if (errors.length > 0) return refusedDownload(errors);
  return csvDownload(
    auditCsv(context.db, context.bindings.AUDIT_ARCHIVE, filters),
    rangedFileName("audit-log", filters),
    "private, no-store",
  );
}
