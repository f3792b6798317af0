/**
 * Archived mail's compact rows leave D1 13 months on (docs/decisions/0075, its update), as audit rows do (0077).
 * An archive object already holds its mails whole; once its month ended 13 months ago, the object is read back and
 * its checksum verified, and one D1 batch lists who its mails went to (`mail_archive_recipients`), deletes the rows
 * it holds that still point at it, and marks it emptied. The database refuses to delete an archived row whose
 * recipient is not listed for its object (`email_outbox_leaves_only_findable`), so /admin/mail's search by
 * recipient and month finds every mail, in D1 or in its object; and no row leaves for an object that cannot be read.
 *
 * A mail's dedupe key leaves with its row: a key exists so that a retried event (a decision clicked twice, a form
 * sent again, the cron's next run) mails once, and no event is retried 13 months on.
 */
import { sql } from "drizzle-orm";
import { monthOf, monthStartBefore } from "../archive-objects.server";
import type { Db } from "../db.server";
import { returning, writeTogether } from "../db.server";
import { readArchiveObject } from "./archive-read.server";

/** Compact rows stay in D1 at least this many whole months: the search reads its recent past from D1 alone. */
export const MAIL_ROWS_KEPT_IN_D1_MONTHS = 13;
/** Objects emptied per cron run: each a read of at most about 1 MB and one batch. */
const OBJECTS_PER_RUN = 5;
/** Objects looked at per run: one that cannot be read is passed over, and does not hold back the ones after it. */
const OBJECTS_LOOKED_AT = 20;

/** The first month whose rows stay: the UTC month 13 months before `now`'s. */
export function firstMonthKeptInD1(now: number): string {
  return monthOf(monthStartBefore(now, MAIL_ROWS_KEPT_IN_D1_MONTHS));
}

/**
 * The cron's step: empties the oldest archive objects whose month ended 13 months before `now`, a bounded number
 * per run. Returns how many objects it emptied and how many rows left D1 (an object may hold none still pointing at
 * it: two archive runs at once can write overlapping objects). An object that cannot be read back is left as it
 * is, its rows in D1, and said in the log. Safe to run again at any point, and beside another run.
 */
export async function removeOldArchivedMailRows(
  db: Db,
  bucket: R2Bucket,
  now = Date.now(),
): Promise<{ emptied: number; removed: number }> {
  const objects = await db.all<{ id: number; objectKey: string; month: string; sha256: string; bytes: number }>(
    sql`SELECT id, object_key AS objectKey, month, sha256, bytes FROM mail_archives
        WHERE rows_left_at IS NULL AND month < ${firstMonthKeptInD1(now)}
        ORDER BY month, id LIMIT ${OBJECTS_LOOKED_AT}`,
  );
  let removed = 0;
  let emptied = 0;
  for (const object of objects) {
    if (emptied === OBJECTS_PER_RUN) break;
    const read = await readArchiveObject(bucket, object);
    if (!read.ok) {
      console.error(`mail archive ${object.objectKey}: ${read.problem}; its rows stay in D1`);
      continue;
    }
    // The rows the object holds that still point at it: an object's mails are found by what it holds, not its name.
    const ids = JSON.stringify(read.rows.map((mail) => mail.id));
    const rows = sql`email_outbox WHERE id IN (SELECT value FROM json_each(${ids})) AND archive_id = ${object.id}`;
    const { deleted } = await writeTogether(db, {
      listed: sql`INSERT OR IGNORE INTO mail_archive_recipients (to_address, month, archive_id)
                  SELECT DISTINCT to_address, ${object.month}, ${object.id} FROM ${rows}`,
      deleted: returning<{ id: number }>(sql`DELETE FROM ${rows} RETURNING id`),
      marked: sql`UPDATE mail_archives SET rows_left_at = ${now} WHERE id = ${object.id} AND rows_left_at IS NULL`,
    });
    removed += deleted.length;
    emptied++;
  }
  return { emptied, removed };
}
