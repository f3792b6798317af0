/**
 * What an uploaded file is, decided by its first bytes (its magic number), never by its name or the type the
 * browser claims: a renamed executable or a text file is refused before anything is stored. Three formats are
 * accepted, so three signatures are all it takes (docs/decisions/0033-identity-documents-on-r2.md).
 */
import { withoutForbiddenCharacters } from "~/lib/forms";
import type { DocumentContentType } from "../../../db/enums";

const SIGNATURES: ReadonlyArray<readonly [DocumentContentType, readonly number[]]> = [
  ["image/jpeg", [0xff, 0xd8, 0xff]],
  ["image/png", [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  // "%PDF-"
  ["application/pdf", [0x25, 0x50, 0x44, 0x46, 0x2d]],
];

/** How many leading bytes decide the type. */
export const SIGNATURE_BYTES = Math.max(...SIGNATURES.map(([, bytes]) => bytes.length));

/** The accepted type the bytes begin with, or null. */
export function sniffDocumentType(head: Uint8Array): DocumentContentType | null {
  for (const [type, signature] of SIGNATURES) {
    if (signature.every((byte, i) => head[i] === byte)) return type;
  }
  return null;
}

/**
 * Reads just enough of a stream to see its first bytes, and gives back a stream of the whole content (the bytes
 * already read first, then the rest as it arrives), so nothing beyond the first chunk is held to look.
 */
export async function peekStream(
  body: ReadableStream<Uint8Array>,
  bytes = SIGNATURE_BYTES,
): Promise<{ head: Uint8Array; stream: ReadableStream<Uint8Array> }> {
  const reader = body.getReader();
  const seen: Uint8Array[] = [];
  let length = 0;
  while (length < bytes) {
    const { done, value } = await reader.read();
    if (done) break;
    seen.push(value);
    length += value.byteLength;
  }
  const head = new Uint8Array(Math.min(length, bytes));
  let offset = 0;
  for (const chunk of seen) {
    if (offset >= head.length) break;
    const part = chunk.subarray(0, head.length - offset);
    head.set(part, offset);
    offset += part.length;
  }
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of seen) controller.enqueue(chunk);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { head, stream };
}

/**
 * A client's file name as we keep it (shown to the client and the reviewer, never used as a key): its last path
 * part, without the control, direction and invisible characters the forms refuse, at most 200 characters;
 * 'document' when nothing is left.
 */
export function cleanFileName(name: string | null | undefined): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  const clean = withoutForbiddenCharacters(base).trim();
  return clean.slice(0, 200) || "document";
}
