/**
 * A client's identity documents: the upload command. A file is checked and streamed to the private bucket as every
 * upload is (./checked-upload.server.ts), then recorded in D1 in one batch that also marks the file it replaces.
 */
import { sql } from "drizzle-orm";
import type { DocumentContentType, DocumentKind } from "../../../db/enums";
import type { CommandContext, Outcome } from "../commands.server";
import { returning, writeTogether } from "../db.server";
import { editableCaseOf, liveCaseStatus } from "./cases.server";
import { type CheckedFile, DOCUMENT_UPLOAD_MESSAGES, type IncomingFile, putCheckedFile } from "./checked-upload.server";

export { DOCUMENT_UPLOAD_MESSAGES, type IncomingFile };

/** What the client sees of a stored file. */
export interface StoredDocument {
  kind: DocumentKind;
  fileName: string;
  contentType: DocumentContentType;
  sizeBytes: number;
  uploadedAt: number;
}

/**
 * Stores one of a client's documents (`kind`), replacing the current file of that kind. Refused, with nothing
 * stored in R2 or D1: the checks of every upload (app/server/verification/checked-upload.server.ts), or a case
 * sent for review or approved (409).
 */
export async function storeDocument(
  context: CommandContext,
  clientId: string,
  kind: DocumentKind,
  file: IncomingFile,
  now = Date.now(),
): Promise<Outcome<{ document: StoredDocument }>> {
  const bucket = context.bindings.DOCUMENTS;
  const put = await putCheckedFile(bucket, file, async () => {
    // For the message only: the batch below checks the case again as it writes.
    const status = await liveCaseStatus(context.db, clientId);
    return status === "submitted" || status === "approved"
      ? { ok: false, error: DOCUMENT_UPLOAD_MESSAGES.caseLocked, status: 409 }
      : null;
  });
  if (!put.ok) return put;
  const row = { id: crypto.randomUUID(), kind, ...put.file };
  let stored: StoredDocument | undefined;
  try {
    stored = (await writeDocumentRow(context, clientId, row, now))[0];
  } catch (error) {
    await bucket.delete(row.objectKey).catch(() => {});
    throw error;
  }
  if (!stored) {
    // The case was sent for review while the file travelled: the object has no row, so it goes.
    await bucket.delete(row.objectKey).catch(() => {});
    return { ok: false, error: DOCUMENT_UPLOAD_MESSAGES.caseLocked, status: 409 };
  }
  return { ok: true, document: stored };
}

/**
 * One batch: the client's case (a draft if there is none yet), the current file of this kind marked replaced, the
 * new row. Every statement names the case only while it may change, so a case sent for review in between gets
 * nothing, and the RETURNING is empty.
 */
function writeDocumentRow(
  context: CommandContext,
  clientId: string,
  row: CheckedFile & { id: string; kind: DocumentKind },
  now: number,
) {
  const editable = editableCaseOf(clientId);
  return writeTogether(context.db, {
    draft: sql`INSERT INTO verification_cases (user_id, created_at, updated_at) VALUES (${clientId}, ${now}, ${now})
               ON CONFLICT (user_id) WHERE ended_at IS NULL DO NOTHING`,
    replaced: sql`UPDATE verification_documents SET replaced_at = ${now}
                  WHERE case_id = (SELECT id FROM ${editable}) AND kind = ${row.kind} AND replaced_at IS NULL`,
    inserted: returning<StoredDocument>(
      sql`INSERT INTO verification_documents (id, case_id, user_id, kind, object_key, file_name, content_type,
                                              size_bytes, sha256, uploaded_at)
          SELECT ${row.id}, id, user_id, ${row.kind}, ${row.objectKey}, ${row.fileName}, ${row.contentType},
                 ${row.sizeBytes}, ${row.sha256}, ${now}
          FROM ${editable}
          RETURNING kind, file_name AS fileName, content_type AS contentType, size_bytes AS sizeBytes,
                    uploaded_at AS uploadedAt`,
    ),
    touched: sql`UPDATE verification_cases SET updated_at = ${now} WHERE id = (SELECT id FROM ${editable})`,
  }).then((result) => result.inserted);
}
