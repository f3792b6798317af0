/**
 * Statement PDFs kept in the private STATEMENTS bucket, so that a closed month's PDF is built once rather than on
 * every download (docs/decisions/0049). Its key names the client, the document and a fingerprint of everything the
 * PDF prints but the moment it was generated: a ledger, a name or a layout that changed has another key, so a
 * stale copy is never served, and the copies before it are deleted when the new one is stored.
 */
import { sha256Hex } from "../crypto.server";

/**
 * Part of every fingerprint: raise it when the layout of a stored PDF changes, so that copies laid out the old way
 * are built again.
 */
const LAYOUT_VERSION = 4;

export const PDF_HEADERS = {
  "Content-Type": "application/pdf",
  // A statement is the client's alone: never kept by a browser's or anyone else's cache.
  "Cache-Control": "private, no-store",
  "X-Content-Type-Options": "nosniff",
};

export function pdfResponse(body: Uint8Array | ReadableStream, size: number, fileName: string): Response {
  return new Response(body as BodyInit, {
    headers: {
      ...PDF_HEADERS,
      "Content-Length": String(size),
      "Content-Disposition": `attachment; filename="${fileName}"`,
    },
  });
}

/** Where a client's copies of one document live: `statements/{client}/{document}/`. */
export const storedPdfPrefix = (userId: string, document: string) => `statements/${userId}/${document}/`;

async function fingerprint(content: unknown): Promise<string> {
  return sha256Hex(JSON.stringify({ layout: LAYOUT_VERSION, content }));
}

/**
 * The stored copy of a document whose printed content is `content`, or a new one built and stored (then the
 * older copies of the same document are deleted).
 */
export async function storedOrBuiltPdf(
  bucket: R2Bucket,
  { userId, document, content }: { userId: string; document: string; content: unknown },
  build: () => Promise<Uint8Array>,
): Promise<{ body: Uint8Array | ReadableStream; size: number }> {
  const prefix = storedPdfPrefix(userId, document);
  const key = `${prefix}${await fingerprint(content)}.pdf`;
  const stored = await bucket.get(key);
  if (stored) return { body: stored.body, size: stored.size };
  const bytes = await build();
  await bucket.put(key, bytes, { httpMetadata: { contentType: "application/pdf" } });
  const older = await bucket.list({ prefix });
  const stale = older.objects.map((object) => object.key).filter((other) => other !== key);
  if (stale.length > 0) await bucket.delete(stale);
  return { body: bytes, size: bytes.length };
}

/** Every kept PDF of a client (their data was deleted): a page of keys at a time. */
export async function deleteStoredPdfs(bucket: R2Bucket, userId: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: `statements/${userId}/`, cursor });
    if (page.objects.length > 0) await bucket.delete(page.objects.map((object) => object.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}
