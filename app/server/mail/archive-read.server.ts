/**
 * Reading an archived mail back (docs/decisions/0075): the object its compact row points at (or, once the row left
 * D1, the object the search found it in), checked against the SHA-256 recorded when it was written before a byte
 * of it is believed.
 */
import { sql } from "drizzle-orm";
import { readVerifiedObject } from "../archive-objects.server";
import type { Db } from "../db.server";
import type { ArchivedMail } from "./archive.server";

/** Every mail of one archive object, its checksum verified first. */
export const readArchiveObject = (bucket: R2Bucket, archive: { objectKey: string; sha256: string; bytes?: number }) =>
  readVerifiedObject<ArchivedMail>(bucket, archive);

export type MailBody =
  | { ok: true; template: string; payload: unknown; archived: boolean }
  | { ok: false; problem: "not-found" | "missing" | "checksum" };

/**
 * One mail's body: from its outbox row while the body is there, else from the archive object the row points at;
 * once the row itself left D1 (13 months on), from `archiveId`, the object the search found it in.
 */
export async function mailBody(
  db: Db,
  bucket: R2Bucket,
  id: number,
  archiveId: number | null = null,
): Promise<MailBody> {
  const [row] = await db.all<{
    template: string | null;
    payload: string | null;
    objectKey: string | null;
    sha256: string | null;
    bytes: number | null;
  }>(
    sql`SELECT e.template, e.payload, a.object_key AS objectKey, a.sha256, a.bytes
        FROM email_outbox e LEFT JOIN mail_archives a ON a.id = e.archive_id
        WHERE e.id = ${id}
        UNION ALL
        SELECT NULL, NULL, a.object_key, a.sha256, a.bytes FROM mail_archives a
        WHERE a.id = ${archiveId} AND a.rows_left_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM email_outbox WHERE id = ${id})`,
  );
  if (!row) return { ok: false, problem: "not-found" };
  if (row.payload !== null && row.template !== null)
    return { ok: true, template: row.template, payload: JSON.parse(row.payload), archived: false };
  if (row.objectKey === null || row.sha256 === null) return { ok: false, problem: "missing" };
  const read = await readArchiveObject(bucket, {
    objectKey: row.objectKey,
    sha256: row.sha256,
    bytes: row.bytes ?? undefined,
  });
  if (!read.ok) return read;
  const mail = read.rows.find((m) => m.id === id);
  return mail
    ? { ok: true, template: mail.template, payload: mail.payload, archived: true }
    : { ok: false, problem: "missing" };
}
