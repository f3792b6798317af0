/**
 * Audit rows leave D1 13 months on (docs/decisions/0077), the way delivered mail does (0075): the cron writes a
 * batch of one UTC month's rows to the private AUDIT_ARCHIVE bucket as one gzipped NDJSON object, then one D1 batch
 * records the object and deletes exactly the rows it holds, each only if it is still as archived.
 *
 * R2 first, D1 second: a crash between them leaves the rows in D1, and the next run writes the same object again
 * (same rows, same key: the one already there is kept). `audit_log_no_delete` refuses any delete of a row that no
 * recorded object holds, so a mistake here can fail, not lose a row.
 */
import { sql } from "drizzle-orm";
import { monthOf, monthStartBefore, storeBatchOnce, withinBoundBudget } from "./archive-objects.server";
import type { Db } from "./db.server";
import { returning, writeTogether } from "./db.server";

/** Rows stay in D1 at least this many months: the audit page's recent past is read from D1 alone. */
export const AUDIT_KEPT_IN_D1_MONTHS = 13;
/** Rows per object at most: about 150 kB of NDJSON bound once more as one JSON value for the delete (fewer when
 * the rows are large: `withinBoundBudget`). */
const BATCH_ROWS = 500;
/** Batches per cron run: up to 2,000 rows a minute, so the first run's backlog of years clears within a day. */
const BATCHES_PER_RUN = 4;

/** One archived audit row, one NDJSON line: the row as stored, its detail as its stored JSON text. */
export interface ArchivedAuditRow {
  id: number;
  actorId: string | null;
  action: string;
  target: string | null;
  detail: string | null;
  createdAt: number;
}

/**
 * The first instant not archived: the start of the UTC month 13 months before `now`'s. Whole months only, so an
 * archived month never gains another archivable row, which is what makes an object's id range cover its month.
 */
export function auditArchiveCutoff(now: number): number {
  return monthStartBefore(now, AUDIT_KEPT_IN_D1_MONTHS);
}

const monthEnd = (at: number) => {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
};

/**
 * The oldest archivable month's rows of lowest id (never a row of another month), in id order, as many as fit
 * one bound JSON value.
 */
async function nextBatch(db: Db, cutoff: number): Promise<ArchivedAuditRow[]> {
  const [oldest] = await db.all<{ at: number | null }>(
    sql`SELECT min(created_at) AS at FROM audit_log WHERE created_at < ${cutoff}`,
  );
  if (oldest?.at == null) return [];
  const month = monthOf(oldest.at);
  const start = Date.parse(`${month}-01T00:00:00Z`);
  const rows = await db.all<ArchivedAuditRow>(
    sql`SELECT id, actor_id AS actorId, action, target, detail, created_at AS createdAt
        FROM audit_log WHERE created_at >= ${start} AND created_at < ${Math.min(monthEnd(start), cutoff)}
        ORDER BY id LIMIT ${BATCH_ROWS}`,
  );
  return withinBoundBudget(rows, (row) => row);
}

/** One batch as an object, then recorded and its rows deleted in one D1 batch. Returns the rows deleted. */
async function archiveBatch(db: Db, bucket: R2Bucket, rows: ArchivedAuditRow[], now: number): Promise<number> {
  const first = rows[0] as ArchivedAuditRow;
  const last = rows.at(-1) as ArchivedAuditRow;
  const month = monthOf(first.createdAt);
  const { objectKey, sha256, bytes } = await storeBatchOnce(bucket, "audit", month, rows);
  const times = rows.map((row) => row.createdAt);
  const held = JSON.stringify(rows);
  // The object's rows still in D1 exactly as read. Rows cannot change (`audit_log_no_update`); the comparison
  // keeps these statements from counting or deleting anything the object does not hold, whatever happens.
  const stillHeld = sql`SELECT json_extract(value, '$.id') FROM json_each(${held})
    WHERE json_extract(value, '$.id') = audit_log.id
      AND json_extract(value, '$.actorId') IS audit_log.actor_id
      AND json_extract(value, '$.action') IS audit_log.action
      AND json_extract(value, '$.target') IS audit_log.target
      AND json_extract(value, '$.detail') IS audit_log.detail
      AND json_extract(value, '$.createdAt') IS audit_log.created_at`;
  const { deleted } = await writeTogether(db, {
    // Recorded only while every row it holds is still in D1: a run that read its batch before another run took
    // some of those rows (a late row of the month gave the other a longer batch, another name) records nothing,
    // so no row is ever held by two recorded objects and read back twice.
    recorded: sql`INSERT INTO audit_archives
          (object_key, month, first_id, last_id, oldest_at, newest_at, row_count, sha256, bytes, created_at)
        SELECT ${objectKey}, ${month}, ${first.id}, ${last.id}, ${Math.min(...times)}, ${Math.max(...times)},
          ${rows.length}, ${sha256}, ${bytes}, ${now}
        WHERE (SELECT count(*) FROM audit_log WHERE id IN (${stillHeld})) = ${rows.length}
        ON CONFLICT (object_key) DO NOTHING`,
    // Exactly the rows the object holds, and only once it is recorded.
    deleted: returning<{ id: number }>(
      sql`DELETE FROM audit_log WHERE id IN (${stillHeld})
            AND EXISTS (SELECT 1 FROM audit_archives WHERE object_key = ${objectKey})
          RETURNING id`,
    ),
  });
  return deleted.length;
}

/**
 * The cron's step: moves audit rows of months that ended 13 months before `now` to the archive, a bounded number
 * per run. Returns how many rows left D1. Safe to run again at any point, and beside another run.
 */
export async function archiveOldAuditRows(db: Db, bucket: R2Bucket, now = Date.now()): Promise<number> {
  const cutoff = auditArchiveCutoff(now);
  let archived = 0;
  for (let batch = 0; batch < BATCHES_PER_RUN; batch++) {
    const rows = await nextBatch(db, cutoff);
    if (rows.length === 0) break;
    const deleted = await archiveBatch(db, bucket, rows, now);
    archived += deleted;
    // Nothing deleted: the rows changed under us or another run has them; the next run looks again.
    if (deleted === 0) break;
  }
  return archived;
}
