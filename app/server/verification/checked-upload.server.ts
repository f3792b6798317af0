/**
 * How a file from a client reaches the private documents bucket, for every upload that takes one (identity
 * documents, access-recovery photos): checked before anything is stored (its declared length at most 10 MB, its
 * first bytes a JPEG, PNG or PDF), then streamed to R2 under a random key while its SHA-256 is computed. The
 * Worker never holds the whole file (docs/decisions/0033-identity-documents-on-r2.md). The caller writes the row
 * that names the object, and deletes the object when it cannot.
 */
import { MAX_DOCUMENT_BYTES, VERIFICATION_MESSAGES } from "~/lib/verification";
import type { DocumentContentType } from "../../../db/enums";
import { readForm } from "../form.server";
import { cleanFileName, peekStream, sniffDocumentType } from "./file-check.server";

/** A multipart body carries its boundaries and field headers besides the file. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

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

/** A file now in the bucket. */
export interface CheckedFile {
  objectKey: string;
  fileName: string;
  contentType: DocumentContentType;
  sizeBytes: number;
  sha256: string;
}

export type UploadRefusal = { ok: false; error: string; status: number };

/** The body of an upload request as the file: its declared length is the file's, `?name=` its name. */
export function rawFile(request: Request): IncomingFile {
  const declared = request.headers.get("Content-Length");
  return {
    stream: request.body,
    length: declared !== null && /^\d{1,12}$/.test(declared) ? Number(declared) : null,
    fileName: cleanFileName(new URL(request.url).searchParams.get("name")),
  };
}

/**
 * The file of an upload request: the body itself (the page's script sends it so, streamed), or, from a form posted
 * without JavaScript (`multipart`: the page answers it with a redirect), its `file` field, read whole. The form's
 * size must be declared and within the limit before anything is read: a body without a length (chunked) would
 * otherwise be read whole before its file could be refused.
 */
export async function uploadOf(
  request: Request,
): Promise<{ multipart: boolean } & ({ ok: true; file: IncomingFile } | UploadRefusal)> {
  const multipart = (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");
  const raw = rawFile(request);
  if (!multipart) return { multipart, ok: true, file: raw };
  if (raw.length === null) return { multipart, ok: false, error: DOCUMENT_UPLOAD_MESSAGES.lengthRequired, status: 411 };
  if (raw.length > MAX_DOCUMENT_BYTES + MULTIPART_OVERHEAD_BYTES)
    return { multipart, ok: false, error: DOCUMENT_UPLOAD_MESSAGES.fileTooLarge, status: 413 };
  const file = (await readForm(request)).get("file");
  if (!(file instanceof File))
    return { multipart, ok: false, error: DOCUMENT_UPLOAD_MESSAGES.fileRefused, status: 415 };
  return {
    multipart,
    ok: true,
    file: { stream: file.stream(), length: file.size, fileName: cleanFileName(file.name) },
  };
}

/**
 * Checks a file and streams it to the bucket. Refused, with nothing stored: no declared length (411), more than
 * 10 MB (413), an empty file or one whose first bytes are not a JPEG, PNG or PDF (415), or whatever `stillAllowed`
 * answers once the lengths are checked and before a byte is read (the caller's own state, e.g. a case sent meanwhile).
 */
export async function putCheckedFile(
  bucket: R2Bucket,
  file: IncomingFile,
  stillAllowed: () => Promise<UploadRefusal | null> = async () => null,
): Promise<{ ok: true; file: CheckedFile } | UploadRefusal> {
  const refuse = async (error: string, status: number) => {
    await file.stream?.cancel().catch(() => {});
    return { ok: false as const, error, status };
  };
  if (file.length === null || !Number.isSafeInteger(file.length) || file.length < 0)
    return refuse(DOCUMENT_UPLOAD_MESSAGES.lengthRequired, 411);
  if (file.length > MAX_DOCUMENT_BYTES) return refuse(DOCUMENT_UPLOAD_MESSAGES.fileTooLarge, 413);
  if (file.length === 0 || !file.stream) return refuse(DOCUMENT_UPLOAD_MESSAGES.fileRefused, 415);
  const refused = await stillAllowed();
  if (refused) return refuse(refused.error, refused.status);

  const { head, stream } = await peekStream(file.stream);
  const contentType = sniffDocumentType(head);
  if (!contentType) {
    await stream.cancel().catch(() => {});
    return { ok: false, error: DOCUMENT_UPLOAD_MESSAGES.fileRefused, status: 415 };
  }
  // Random, and nothing of the client's in it: the key is all R2 knows of the file.
  const objectKey = `documents/${crypto.randomUUID()}`;
  try {
    const sha256 = await pipeHashed(stream, file.length, (readable) =>
      bucket.put(objectKey, readable, { httpMetadata: { contentType } }),
    );
    return { ok: true, file: { objectKey, fileName: file.fileName, contentType, sizeBytes: file.length, sha256 } };
  } catch {
    await bucket.delete(objectKey).catch(() => {});
    return { ok: false, error: DOCUMENT_UPLOAD_MESSAGES.incomplete, status: 400 };
  }
}

/**
 * Hands `length` bytes to a consumer as a stream of that fixed length (R2 refuses a stream of unknown length),
 * hashing them on the way; the SHA-256 in hex. Backpressure flows from the consumer to the request, so only the
 * chunks in flight are held, whatever the size (measured: tests/worker/verification-upload-memory.test.ts). A body
 * shorter or longer than declared fails.
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
