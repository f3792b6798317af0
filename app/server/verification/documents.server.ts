/**
 * A client's identity documents: the upload command. A file is checked before anything is stored (its declared
 * length at most 10 MB, its first bytes a JPEG, PNG or PDF), then streamed to the private R2 bucket under a random
 * key while its SHA-256 is computed, and recorded in D1 in one batch that also marks the file it replaces. The
 * Worker never holds the whole file (docs/decisions/0033-identity-documents-on-r2.md).
 */
import { sql } from "drizzle-orm";
import { MAX_DOCUMENT_BYTES, VERIFICATION_MESSAGES } from "~/lib/verification";
import type { DocumentContentType, DocumentKind } from "../../../db/enums";
import type { CommandContext, Outcome } from "../commands.server";
import { returning, writeTogether } from "../db.server";
import { editableCaseOf, liveCaseStatus } from "./cases.server";
import { peekStream, sniffDocumentType } from "./file-check.server";

export const DOCUMENT_UPLOAD_MESSAGES = {
  ...VERIFICATION_MESSAGES,
  lengthRequired: "The file's size was not sent. Please choose the file again.",
  incomplete: "The file did not arrive whole. Please try again.",
} as const;

/** A file as it arrives: its bytes as a stream, the length the request declared, and the client's name for it. */
export interface IncomingFile {
  stream: ReadableStream<Uint8Array> | null;
  length: number | null;
  fileName: string;
}

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
 * stored in R2 or D1: no declared length (411), an empty file or one whose first bytes are not a JPEG, PNG or PDF
 * (415), more than 10 MB (413), a case sent for review or approved (409).
 */
export async function storeDocument(
  context: CommandContext,
  clientId: string,
  kind: DocumentKind,
  file: IncomingFile,
  now = Date.now(),
): Promise<Outcome<{ document: StoredDocument }>> {
  const refuse = async (error: string, status: number) => {
    await file.stream?.cancel().catch(() => {});
    return { ok: false as const, error, status };
  };
  if (file.length === null || !Number.isSafeInteger(file.length) || file.length < 0)
    return refuse(DOCUMENT_UPLOAD_MESSAGES.lengthRequired, 411);
  if (file.length > MAX_DOCUMENT_BYTES) return refuse(DOCUMENT_UPLOAD_MESSAGES.fileTooLarge, 413);
  if (file.length === 0 || !file.stream) return refuse(DOCUMENT_UPLOAD_MESSAGES.fileRefused, 415);
  // For the message only: the batch below checks the case again as it writes.
  const status = await liveCaseStatus(context.db, clientId);
  if (status === "submitted" || status === "approved") return refuse(DOCUMENT_UPLOAD_MESSAGES.caseLocked, 409);

  const { head, stream } = await peekStream(file.stream);
  const contentType = sniffDocumentType(head);
  if (!contentType) {
    await stream.cancel().catch(() => {});
    return { ok: false, error: DOCUMENT_UPLOAD_MESSAGES.fileRefused, status: 415 };
  }

  // Random, and nothing of the client's in it: the key is all R2 knows of the file.
  const objectKey = `documents/${crypto.randomUUID()}`;
  let sha256: string;
  try {
    sha256 = await putStreaming(context.bindings.DOCUMENTS, objectKey, stream, file.length, contentType);
  } catch {
    await context.bindings.DOCUMENTS.delete(objectKey).catch(() => {});
    return { ok: false, error: DOCUMENT_UPLOAD_MESSAGES.incomplete, status: 400 };
  }

  const row = {
    id: crypto.randomUUID(),
    kind,
    objectKey,
    fileName: file.fileName,
    contentType,
    sizeBytes: file.length,
    sha256,
  };
  let stored: StoredDocument | undefined;
  try {
    stored = (await writeDocumentRow(context, clientId, row, now))[0];
  } catch (error) {
    await context.bindings.DOCUMENTS.delete(objectKey).catch(() => {});
    throw error;
  }
  if (!stored) {
    // The case was sent for review while the file travelled: the object has no row, so it goes.
    await context.bindings.DOCUMENTS.delete(objectKey).catch(() => {});
    return { ok: false, error: DOCUMENT_UPLOAD_MESSAGES.caseLocked, status: 409 };
  }
  return { ok: true, document: stored };
}

/** Streams `length` bytes to R2 with the length known up front (R2 refuses a stream of unknown length). */
function putStreaming(
  bucket: R2Bucket,
  key: string,
  body: ReadableStream<Uint8Array>,
  length: number,
  contentType: DocumentContentType,
): Promise<string> {
  return pipeHashed(body, length, (readable) => bucket.put(key, readable, { httpMetadata: { contentType } }));
}

/**
 * Hands `length` bytes to a consumer as a stream of that fixed length, hashing them on the way; the SHA-256 in hex.
 * Backpressure flows from the consumer to the request, so only the chunks in flight are held, whatever the size
 * (measured: tests/worker/verification-upload-memory.test.ts). A body shorter or longer than declared fails.
 */
export async function pipeHashed(
  body: ReadableStream<Uint8Array>,
  length: number,
  consume: (readable: ReadableStream<Uint8Array>) => Promise<unknown>,
): Promise<string> {
  // workerd's incremental hash (crypto.DigestStream); the DOM typings of `crypto` do not know it.
  const { DigestStream: Digest } = crypto as unknown as { DigestStream: typeof DigestStream };
  const digest = new Digest("SHA-256");
  const digestWriter = digest.getWriter();
  // A body cut short fails the consumer; the hash it will never finish must not surface as an unhandled rejection.
  const sha256 = digest.digest;
  sha256.catch(() => {});
  const { readable, writable } = new FixedLengthStream(length);
  const hashed = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      async transform(chunk, controller) {
        await digestWriter.write(chunk);
        controller.enqueue(chunk);
      },
      async flush() {
        await digestWriter.close();
      },
    }),
  );
  await Promise.all([hashed.pipeTo(writable), consume(readable)]);
  return [...new Uint8Array(await sha256)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * One batch: the client's case (a draft if there is none yet), the current file of this kind marked replaced, the
 * new row. Every statement names the case only while it may change, so a case sent for review in between gets
 * nothing, and the RETURNING is empty.
 */
function writeDocumentRow(
  context: CommandContext,
  clientId: string,
  row: {
    id: string;
    kind: DocumentKind;
    objectKey: string;
    fileName: string;
    contentType: string;
    sizeBytes: number;
    sha256: string;
  },
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
