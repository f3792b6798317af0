import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import { statementCsv } from "~/server/admin/statement.server";
import { csvDownload } from "~/server/csv.server";
import { notFound } from "~/server/http.server";
import { requirePermission } from "~/server/session.server";
import type { Route } from "./+types/user.$id.export";

/** The client's statement as CSV: every transaction, oldest first, with the running ledger balance. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "exportData");
  const userId = params.id ?? "";
  const exists = await context.db.query.users.findFirst({
    columns: { id: true },
    where: (u, { eq }) => eq(u.id, userId),
  });
  if (!exists) notFound(ADMIN_MESSAGES.userNotFound);
  return csvDownload(statementCsv(context.db, userId), `statement-${userId}.csv`);
}
