/**
 * The archive objects of R2, one way for every archive (delivered mail, docs/decisions/0075; old audit rows, 0077):
 * a batch of rows of one UTC month as one gzipped NDJSON object in a private bucket, named by its content, written
 * once, and believed only after its bytes match the SHA-256 that D1 recorded for it.
 *
 * The key holds the batch's first and last id and a prefix of the digest, so the same rows make the same key: a
 * run that crashed after its put and is run again finds the object already there (`head` before `put`), and no
 * object is ever overwritten.
 */
import { encodeHexLowerCase } from "@oslojs/encoding";

/** The UTC month of an instant, "YYYY-MM": the folder an archived row's object is filed under. */
export const monthOf = (at: number) => new Date(at).toISOString().slice(0, 7);

/** The start of the UTC month `months` before `now`'s: where the whole months a table keeps in D1 begin. */
export function monthStartBefore(now: number, months: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - months, 1);
}

export async function sha256HexOf(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return encodeHexLowerCase(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

export async function gzip(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function gunzip(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}

/**
 * D1 refuses a bound value over 2,000,000 bytes (its limit on a string or row; local D1 does not enforce it). A
 * batch's rows are bound once more as one JSON value to record and delete exactly them, so a batch is cut where
 * that value would pass half the limit: a month of unusually large rows archives in smaller batches instead of
 * failing the same batch on every run.
 */
export const BOUND_JSON_BUDGET = 1_000_000;

/** The longest first part of `rows` whose JSON, as `boundJsonOf` gives each row, fits the budget; never empty. */
export function withinBoundBudget<Row>(rows: Row[], boundJsonOf: (row: Row) => unknown, budget = BOUND_JSON_BUDGET) {
  const encoder = new TextEncoder();
  let bytes = 2;
  for (const [index, row] of rows.entries()) {
    // Each row's JSON and its separator; UTF-8, as D1 counts the value.
    bytes += encoder.encode(JSON.stringify(boundJsonOf(row))).length + 1;
    if (bytes > budget && index > 0) return rows.slice(0, index);
  }
  return rows;
}

/** What D1 records of a stored object: where it is, and the digest and size of the bytes stored there. */
export interface StoredObject {
  objectKey: string;
  sha256: string;
  bytes: number;
}

/**
 * Stores one batch (rows with ids, in the batch's order) as `<prefix>/<month>/<first id>-<last id>-<sha256
 * prefix>.ndjson.gz`, unless that very object is already there (other bytes there: under that name with a random
 * suffix). Only after this resolves, and under the key it returns, may D1 forget the rows.
 */
export async function storeBatchOnce(
  bucket: R2Bucket,
  prefix: string,
  month: string,
  records: ReadonlyArray<{ id: number }>,
): Promise<StoredObject> {
  const bytes = await gzip(records.map((record) => `${JSON.stringify(record)}\n`).join(""));
  const sha256 = await sha256HexOf(bytes);
  const name = `${prefix}/${month}/${records[0]?.id}-${records.at(-1)?.id}-${sha256.slice(0, 16)}`;
  let objectKey = `${name}.ndjson.gz`;
  const there = await bucket.head(objectKey);
  if (there) {
    // Kept only if it is these very bytes, as a crashed run leaves them: the name is worked out from the rows,
    // so anyone who can write the bucket can put other bytes there first, and D1 must not forget rows for them.
    const same = there.size === bytes.byteLength && (await storedDigest(bucket, objectKey)) === sha256;
    if (same) return { objectKey, sha256, bytes: bytes.byteLength };
    // The bucket's lock keeps that object for years: the batch goes under a name no one could foresee instead,
    // rather than the archive stopping until the lock lets the stray object go.
    console.error(`archive: ${objectKey} holds other bytes than its batch; stored under another name`);
    objectKey = `${name}-${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}.ndjson.gz`;
  }
  // R2 checks the bytes it received against the digest, so a corrupted upload fails here, before D1 changes.
  await bucket.put(objectKey, bytes, {
    sha256,
    httpMetadata: { contentType: "application/gzip" },
    customMetadata: { month, rows: String(records.length) },
  });
  return { objectKey, sha256, bytes: bytes.byteLength };
}

/** The SHA-256 of the bytes stored under `objectKey`, or null when there are none. */
async function storedDigest(bucket: R2Bucket, objectKey: string): Promise<string | null> {
  const object = await bucket.get(objectKey);
  return object ? sha256HexOf(new Uint8Array(await object.arrayBuffer())) : null;
}

export type ObjectRead<Row> =
  | { ok: true; rows: Row[] }
  /** No such object in the bucket (or the bucket did not give it), or its bytes are not the ones recorded. */
  | { ok: false; problem: "missing" | "checksum" };

/**
 * Every row of one archive object, its checksum verified before a byte of it is believed. Given the recorded
 * size, an object of another size is refused before its body is read: whatever stands in its place, however
 * large, is never held in memory.
 */
export async function readVerifiedObject<Row>(
  bucket: R2Bucket,
  archive: { objectKey: string; sha256: string; bytes?: number },
): Promise<ObjectRead<Row>> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    const object = await bucket.get(archive.objectKey);
    if (!object) return { ok: false, problem: "missing" };
    if (archive.bytes !== undefined && object.size !== archive.bytes) return { ok: false, problem: "checksum" };
    bytes = new Uint8Array(await object.arrayBuffer());
  } catch (error) {
    // The bucket failed or its stream broke off: said like a missing object, never a page's error.
    console.error(`archive: ${archive.objectKey} could not be read:`, error);
    return { ok: false, problem: "missing" };
  }
  if ((await sha256HexOf(bytes)) !== archive.sha256) return { ok: false, problem: "checksum" };
  try {
    const text = await gunzip(bytes);
    return {
      ok: true,
      rows: text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Row),
    };
  } catch {
    // The recorded bytes themselves do not read: as untrustworthy as other bytes.
    return { ok: false, problem: "checksum" };
  }
}
