import { notFound } from "~/server/http.server";
import { requirePermission } from "~/server/session.server";
import { viewDocument } from "~/server/verification/admin-documents.server";
import type { Route } from "./+types/admin.documents.$id";

/**
 * One identity document's file, for admins only: inert (its own no-script, sandboxed policy), never cached, and
 * every view audited (app/server/verification/admin-documents.server.ts).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const admin = await requirePermission(request, context, "viewDocuments");
  const response = await viewDocument(context, admin, params.id ?? "");
  if (!response) notFound("Document not found");
  return response;
}
