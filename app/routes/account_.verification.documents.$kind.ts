import { redirect } from "react-router";
import { notFound } from "~/server/http.server";
import { getSessionUser } from "~/server/session.server";
import { redirectWithToast } from "~/server/toast.server";
import { uploadOf } from "~/server/verification/checked-upload.server";
import { storeDocument } from "~/server/verification/documents.server";
import { DOCUMENT_KINDS, type DocumentKind } from "../../db/enums";
import type { Route } from "./+types/account_.verification.documents.$kind";

const PAGE = "/account/verification";

/** The verification page's document slots post here; there is nothing to show. */
export async function loader() {
  return redirect(PAGE);
}

/**
 * One document of the signed-in client's case, `kind` from the address (never an id: the case is the client's own).
 * The page sends the file itself as the body (`?name=` its file name), streamed to storage, and reads the JSON
 * answer; without JavaScript the slot's form posts it as multipart and comes back to the page with a toast.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await getSessionUser(request, context);
  if (user?.role !== "user")
    return Response.json({ error: "Sign in as a client to upload your documents." }, { status: 401 });
  if (!DOCUMENT_KINDS.includes(params.kind as DocumentKind)) notFound();
  const upload = await uploadOf(request);
  const result = upload.ok ? await storeDocument(context, user.id, params.kind as DocumentKind, upload.file) : upload;
  if (upload.multipart) {
    const toast = result.ok
      ? { type: "success" as const, description: "Document uploaded." }
      : { type: "error" as const, description: result.error };
    return redirectWithToast(context.env, PAGE, toast);
  }
  return result.ok
    ? Response.json({ document: result.document })
    : Response.json({ error: result.error }, { status: result.status });
}
