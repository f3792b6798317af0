import { parseAuditFilters } from "~/lib/audit-filters";
import { auditCsv, parseCsvBefore } from "~/server/admin/audit-csv.server";
import { csvDownload, rangedFileName, refusedDownload } from "~/server/csv.server";
import { requirePermission } from "~/server/session.server";
import type { Route } from "./+types/admin.audit[.]csv";

/**
 * /admin/audit as CSV: the same filters (a range of UTC days among them), every matching entry, newest first,
 * streamed. A bad date is refused with its message rather than exporting everything. `before` is where a download
 * that stopped at its share of the archive said to go on (`audit-csv.server.ts`).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  // An export of the audit log: the roles that read it and the roles that export, both.
  await requirePermission(request, context, "exportData", "readAuditLog");
  const params = new URL(request.url).searchParams;
  const { filters, errors } = parseAuditFilters(params);
  const after = parseCsvBefore(params.get("before"));
  if (after === "invalid") errors.push("The link to go on with the export is not one it gave.");
  if (errors.length > 0 || after === "invalid") return refusedDownload(errors);
  return csvDownload(
    auditCsv(context.db, context.bindings.AUDIT_ARCHIVE, filters, { after }),
    rangedFileName("audit-log", filters),
    "private, no-store",
  );
}
