import { redirect } from "react-router";
import { MAX_DOCUMENT_BYTES } from "~/lib/verification";
import { readForm } from "~/server/form.server";
import { notFound } from "~/server/http.server";
import { getSessionUser } from "~/server/session.server";
import { redirectWithToast } from "~/server/toast.server";
import { DOCUMENT_UPLOAD_MESSAGES, type IncomingFile, storeDocument } from "~/server/verification/documents.server";
import { cleanFileName } from "~/server/verification/file-check.server";
import { DOCUMENT_KINDS, type DocumentKind } from "../../db/enums";
import type { Route } from "./+types/account_.verification.documents.$kind";

const PAGE = "/account/verification";
/** A multipart body carries its boundaries and field headers besides the file. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** The verification page's document slots post here; there is nothing to show. */
export async function loader() {
  return redirect(PAGE);
}

/**
 * One document of the signed-in client's case, `kind` from the address (never an id: the case is the client's own).
 * The page sends the file itself as the body (`?name=` its file name), streamed to storage, and reads the JSON
 * answer; without JavaScript the slot's form posts it as multipart (the file is then read whole) and comes back
 * to the page with a toast.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await getSessionUser(request, context);
  if (user?.role !== "user")
    return Response.json({ error: "Sign in as a client to upload your documents." }, { status: 401 });
  if (!DOCUMENT_KINDS.includes(params.kind as DocumentKind)) notFound();
  const kind = params.kind as DocumentKind;

  const multipart = (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");
  if (!multipart) {
    const result = await storeDocument(context, user.id, kind, rawFile(request));
    return result.ok
      ? Response.json({ document: result.document })
      : Response.json({ error: result.error }, { status: result.status });
  }

  const back = (type: "success" | "error", description: string) =>
    redirectWithToast(context.env, PAGE, { type, description });
  // The form's size must be declared and within the limit before anything is read: a body without a length
  // (chunked) would otherwise be read whole before its file could be refused.
  const declared = rawFile(request).length;
  if (declared === null) return back("error", DOCUMENT_UPLOAD_MESSAGES.lengthRequired);
  if (declared > MAX_DOCUMENT_BYTES + MULTIPART_OVERHEAD_BYTES)
    return back("error", DOCUMENT_UPLOAD_MESSAGES.fileTooLarge);
  const file = (await readForm(request)).get("file");
  if (!(file instanceof File)) return back("error", DOCUMENT_UPLOAD_MESSAGES.fileRefused);
  const result = await storeDocument(context, user.id, kind, {
    stream: file.stream(),
    length: file.size,
    fileName: cleanFileName(file.name),
  });
  return result.ok ? back("success", "Document uploaded.") : back("error", result.error);
}

/** The request's body is the file; its declared length is the file's. */
function rawFile(request: Request): IncomingFile {
  const declared = request.headers.get("Content-Length");
  return {
    stream: request.body,
    length: declared !== null && /^\d{1,12}$/.test(declared) ? Number(declared) : null,
    fileName: cleanFileName(new URL(request.url).searchParams.get("name")),
  };
}
