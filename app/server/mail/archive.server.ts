/**
 * Delivered mail leaves D1 after 30 days (docs/decisions/0075): the cron moves its bodies to the private
 * MAIL_ARCHIVE bucket, one gzipped NDJSON object per batch under the month the mails were queued, and keeps a
 * compact outbox row (recipient, template, times, provider id, dedupe key) pointing at the object.
 *
 * The object is written first, then one D1 batch records it (key, row count, SHA-256) and strips the rows, each
 * only while its body is still the one archived. A crash between the two loses nothing: the rows keep their
 * bodies and the next run archives them again. Objects are named by their content and never overwritten.
 */
import { sql } from "drizzle-orm";
import { monthOf, storeBatchOnce, withinBoundBudget } from "../archive-objects.server";
import type { Db } from "../db.server";
import { returning, writeTogether } from "../db.server";

/** A delivered mail's body stays in D1 this long after it was queued. */
export const MAIL_ARCHIVE_AFTER_MS = 30 * 24 * 60 * 60_000;
/** Rows read per batch at most: their bodies travel once more as one bound JSON value (`withinBoundBudget`). */
const BATCH_ROWS = 200;
/** Batches per cron run: a minute's run drains up to 1,000 mails, so a backlog clears within a day. */
const BATCHES_PER_RUN = 5;

/** One archived mail, one NDJSON line: the outbox row as it was, its body as stored. */
export interface ArchivedMail {
  id: number;
  toAddress: string;
  template: string;
  status: string;
  attempts: number;
  providerId: string | null;
  dedupeKey: string | null;
  createdAt: number;
  sentAt: number | null;
  payload: unknown;
}

interface Candidate extends Omit<ArchivedMail, "payload"> {
  /** The stored JSON text, compared as it is when the row is stripped. */
  payload: string;
}

/** Delivered rows whose body is still here and old enough, oldest first (the partial `email_outbox_unarchived_idx`). */
function candidates(db: Db, cutoff: number) {
  return db.all<Candidate>(
    sql`SELECT id, to_address AS toAddress, template, status, attempts, provider_id AS providerId,
               dedupe_key AS dedupeKey, created_at AS createdAt, sent_at AS sentAt, payload
        FROM email_outbox
        WHERE status IN ('sent', 'captured') AND archive_id IS NULL AND created_at < ${cutoff}
        ORDER BY created_at, id LIMIT ${BATCH_ROWS}`,
  );
}

/** One month's rows as an object: put unless already there (same key, same bytes), then recorded in D1. */
async function archiveMonth(db: Db, bucket: R2Bucket, month: string, rows: Candidate[], now: number) {
  const records: ArchivedMail[] = rows.map((row) => ({ ...row, payload: JSON.parse(row.payload) }));
  const { objectKey, sha256, bytes } = await storeBatchOnce(bucket, "mail", month, records);
  const bodies = JSON.stringify(Object.fromEntries(rows.map((row) => [String(row.id), row.payload])));
  const { stripped } = await writeTogether(db, {
    recorded: sql`INSERT INTO mail_archives (object_key, month, row_count, sha256, bytes, created_at)
          VALUES (${objectKey}, ${month}, ${rows.length}, ${sha256}, ${bytes}, ${now})
          ON CONFLICT (object_key) DO NOTHING`,
    // Only rows still delivered, not archived, and holding the very body the object holds.
    stripped: returning<{ id: number }>(
      sql`UPDATE email_outbox
          SET payload = NULL, archive_id = (SELECT id FROM mail_archives WHERE object_key = ${objectKey})
          WHERE id IN (SELECT CAST(key AS INTEGER) FROM json_each(${bodies}))
            AND status IN ('sent', 'captured') AND archive_id IS NULL
            AND payload = (SELECT value FROM json_each(${bodies}) WHERE key = CAST(email_outbox.id AS TEXT))
          RETURNING id`,
    ),
  });
  return stripped.length;
}

/**
 * The cron's step: archives delivered mail queued more than 30 days before `now`, a bounded number of rows per
 * run. Returns how many rows were stripped. Safe to run again at any point, and beside another run.
 */
export async function archiveDeliveredMail(db: Db, bucket: R2Bucket, now = Date.now()): Promise<number> {
  const cutoff = now - MAIL_ARCHIVE_AFTER_MS;
  let archived = 0;
  for (let batch = 0; batch < BATCHES_PER_RUN; batch++) {
    const read = await candidates(db, cutoff);
    if (read.length === 0) break;
    // The bodies bound again to strip the rows: `[id, body]` pairs, as `archiveMonth` binds them.
    const rows = withinBoundBudget(read, (row) => [String(row.id), row.payload]);
    const months = new Map<string, Candidate[]>();
    for (const row of rows) {
      const month = monthOf(row.createdAt);
      months.set(month, months.get(month) ?? []);
      months.get(month)?.push(row);
    }
    let stripped = 0;
    for (const [month, group] of months) stripped += await archiveMonth(db, bucket, month, group, now);
    archived += stripped;
    // Nothing stripped: the rows changed under us (or another run has them); the next run looks again. Fewer read
    // than asked, and none left out for their size: nothing is left.
    if (stripped === 0 || (read.length < BATCH_ROWS && rows.length === read.length)) break;
  }
  return archived;
}
