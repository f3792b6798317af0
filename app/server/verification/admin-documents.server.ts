/**
 * How an admin sees a client's identity document (docs/product.md, "Identity verification"): only through
 * /admin/documents/{id}, with the bytes from the private bucket and headers that keep the file inert and
 * uncached. A file is evidence, never a page: whatever it was crafted to hold (HTML in an image, script in a PDF),
 * the browser is told its type (from D1, decided from its first bytes at upload), told not to guess another
 * (nosniff), and given a policy under which nothing runs (sandbox, no script source). Every view writes an audit
 * row (who, which document, when) before the bytes leave.
 */
import { eq } from "drizzle-orm";
import { DOCUMENT_EXTENSIONS } from "~/lib/verification";
import type { DocumentContentType } from "../../../db/enums";
import { auditInsert } from "../audit.server";
import type { Db } from "../db.server";
import { schema, writeTogether } from "../db.server";
import type { WorkerBindings } from "../env.server";
import { forbidden } from "../http.server";
import { assertMay, type BackOfficeActor } from "../permissions.server";

const { verificationDocuments } = schema;

/** The policy of a document response: nothing may run, load or frame it; inline styles only for the viewer. */
export const DOCUMENT_CSP =
  "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox";

/** A document id as the upload makes them: random letters, digits, '-' and '_'; anything else names nothing. */
export const DOCUMENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Images are shown inline (the review page puts them in an <img>); a PDF is always downloaded: a browser's PDF
 * viewer is a page of its own, and the sandbox that keeps a crafted PDF inert also keeps Chromium's viewer from
 * opening it, so the reviewer opens it in their own reader.
 */
const disposition = (contentType: DocumentContentType) => (contentType === "application/pdf" ? "attachment" : "inline");

export const documentHeaders = (document: { id: string; kind: string; contentType: DocumentContentType }) => ({
  "Content-Type": document.contentType,
  // Our own name, never the client's: it could say anything, in any characters.
  "Content-Disposition": `${disposition(document.contentType)}; filename="${document.kind}-${document.id}.${DOCUMENT_EXTENSIONS[document.contentType]}"`,
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "private, no-store",
  "Content-Security-Policy": DOCUMENT_CSP,
});

/**
 * One view of a document by an admin: the audit row, then the response with the file; null when there is no such
 * document (or its object is gone), and nothing is written then.
 */
export async function viewDocument(
  context: { db: Db; bindings: Pick<WorkerBindings, "DOCUMENTS"> },
  admin: BackOfficeActor,
  documentId: string,
  now = Date.now(),
): Promise<Response | null> {
  if (!assertMay(admin, "viewDocuments").ok) forbidden();
  if (!DOCUMENT_ID.test(documentId)) return null;
  const document = await context.db
    .select({
      id: verificationDocuments.id,
      caseId: verificationDocuments.caseId,
      userId: verificationDocuments.userId,
      kind: verificationDocuments.kind,
      objectKey: verificationDocuments.objectKey,
      contentType: verificationDocuments.contentType,
      sha256: verificationDocuments.sha256,
    })
    .from(verificationDocuments)
    .where(eq(verificationDocuments.id, documentId))
    .get();
  if (!document) return null;
  return auditedFile(
    context,
    document,
    auditInsert({
      actor: admin,
      action: "verification.document_view",
      target: `document:${document.id}`,
      detail: { client: document.userId, case: document.caseId, document: document.kind, sha256: document.sha256 },
      at: now,
    }),
  );
}

/**
 * A stored file as an admin's response, its audit row written first: null when its object is gone (nothing is
 * written then); the view of identity documents and of access-recovery photos alike.
 */
export async function auditedFile(
  context: { db: Db; bindings: Pick<WorkerBindings, "DOCUMENTS"> },
  file: { id: string; kind: string; objectKey: string; contentType: DocumentContentType },
  audit: ReturnType<typeof auditInsert>,
): Promise<Response | null> {
  const object = await context.bindings.DOCUMENTS.get(file.objectKey);
  if (!object) return null;
  try {
    await writeTogether(context.db, { audit });
  } catch (error) {
    // No audit row, no view: the body is never read, so the stream is released.
    await object.body.cancel();
    throw error;
  }
  return new Response(object.body, { headers: documentHeaders(file) });
}
