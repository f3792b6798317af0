import { viewRecoveryFile } from "~/server/access-recovery/reads.server";
import { notFound } from "~/server/http.server";
import { requirePermission } from "~/server/session.server";
import type { Route } from "./+types/admin.access-recovery.files.$id";

/**
 * One photo of an access-recovery request, for the admins who decide them: inert, never cached, and every view
 * audited, as identity documents are (app/server/verification/admin-documents.server.ts).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const admin = await requirePermission(request, context, "restoreAccess");
  const response = await viewRecoveryFile(context, admin, params.id ?? "");
  if (!response) notFound("File not found");
  return response;
}
