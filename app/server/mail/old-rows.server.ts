/**
 * Archived mail's compact rows leave D1 13 months on (docs/decisions/0075, its update), as audit rows do (0077).
 * An archive object already holds its mails whole; once its month ended 13 months ago, one D1 batch lists who the
 * object's mails went to (`mail_archive_recipients`), deletes its rows, and marks the object emptied. The database
 * refuses to delete an archived row whose recipient is not listed for its object (`email_outbox_leaves_only_findable`),
 * so /admin/mail's search by recipient and month finds every mail, in D1 or in its object.
 *
 * A mail's dedupe key leaves with its row: a key exists so that a retried event (a decision clicked twice, a form
 * sent again, the cron's next run) mails once, and no event is retried 13 months on.
 */
import { sql } from "drizzle-orm";
import { monthOf } from "../archive-objects.server";
import type { Db } from "../db.server";
import { returning, writeTogether } from "../db.server";

/** Compact rows stay in D1 at least this many whole months: the search reads its recent past from D1 alone. */
export const MAIL_ROWS_KEPT_IN_D1_MONTHS = 13;
/** Objects emptied per cron run: each holds at most a few thousand rows, one bounded delete by id range. */
const OBJECTS_PER_RUN = 5;

/** The first month whose rows stay: the UTC month 13 months before `now`'s. */
export function firstMonthKeptInD1(now: number): string {
  const date = new Date(now);
  return monthOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - MAIL_ROWS_KEPT_IN_D1_MONTHS, 1));
}

/** The id range an object holds, from its key (`mail/YYYY-MM/<first id>-<last id>-<sha256 prefix>.ndjson.gz`). */
export function idRangeOf(objectKey: string): { first: number; last: number } | null {
  const match = /\/(\d+)-(\d+)-[0-9a-f]+\.ndjson\.gz$/.exec(objectKey);
  return match ? { first: Number(match[1]), last: Number(match[2]) } : null;
}

/**
 * The cron's step: empties the oldest archive objects whose month ended 13 months before `now`, a bounded number
 * per run. Returns how many rows left D1. Safe to run again at any point, and beside another run.
 */
export async function removeOldArchivedMailRows(db: Db, now = Date.now()): Promise<number> {
  const objects = await db.all<{ id: number; objectKey: string; month: string }>(
    sql`SELECT id, object_key AS objectKey, month FROM mail_archives
        WHERE rows_left_at IS NULL AND month < ${firstMonthKeptInD1(now)}
        ORDER BY month, id LIMIT ${OBJECTS_PER_RUN}`,
  );
  let removed = 0;
  for (const object of objects) {
    const range = idRangeOf(object.objectKey);
    if (!range) throw new Error(`mail archive ${object.id}: no id range in its key ${object.objectKey}`);
    // The object's own rows: its id range, pointing at it (a row's id is in one object's range at most once).
    const rows = sql`email_outbox WHERE id BETWEEN ${range.first} AND ${range.last} AND archive_id = ${object.id}`;
    const { deleted } = await writeTogether(db, {
      listed: sql`INSERT OR IGNORE INTO mail_archive_recipients (to_address, month, archive_id)
                  SELECT DISTINCT to_address, ${object.month}, ${object.id} FROM ${rows}`,
      deleted: returning<{ id: number }>(sql`DELETE FROM ${rows} RETURNING id`),
      marked: sql`UPDATE mail_archives SET rows_left_at = ${now} WHERE id = ${object.id} AND rows_left_at IS NULL`,
    });
    removed += deleted.length;
  }
  return removed;
}
