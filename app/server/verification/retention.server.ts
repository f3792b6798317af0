/**
 * The end of kept verification evidence (docs/product.md, "Identity verification", "Retention"): a case whose
 * account ended is kept, with its documents, until `retain_until` (five years after the end); then the scheduled
 * purge deletes the files from the bucket and the rows from D1, each case with an audit row. The files go first:
 * should the rows' batch fail, the next run finds the case again and deletes what is left (deleting a missing
 * object is no error), so nothing is ever left in the bucket without its row.
 */
import { sql } from "drizzle-orm";
import { type Actor, auditInsert } from "../audit.server";
import type { Db } from "../db.server";
import { writeTogether } from "../db.server";

/** Cases purged per run: a run every minute drains any backlog without a long run. */
const PURGE_BATCH = 20;
/** The scheduler's name in the audit log. */
const CRON: Actor = { id: "cron" };

export async function purgeExpiredVerifications(db: Db, bucket: R2Bucket, now = Date.now()): Promise<number> {
  const due = await db.all<{ id: number }>(
    sql`SELECT id FROM verification_cases WHERE retain_until IS NOT NULL AND retain_until <= ${now}
        ORDER BY retain_until LIMIT ${PURGE_BATCH}`,
  );
  for (const { id } of due) {
    // The case's documents and the access-recovery photos checked against them.
    const documents = await db.all<{ object_key: string }>(
      sql`SELECT object_key FROM verification_documents WHERE case_id = ${id}
          UNION ALL SELECT object_key FROM access_recovery_files WHERE case_id = ${id}`,
    );
    if (documents.length > 0) await bucket.delete(documents.map((d) => d.object_key));
    const expired = sql`verification_cases WHERE id = ${id} AND retain_until <= ${now}`;
    await writeTogether(db, {
      // Written before the rows go, from the case itself: no case, no audit row.
      audit: auditInsert({
        actor: CRON,
        action: "verification.purge",
        target: `verification:${id}`,
        detail: sql`'client', user_id, 'status', status, 'endedAt', ended_at, 'retainUntil', retain_until,
                    'documents', (SELECT count(*) FROM verification_documents WHERE case_id = ${id})`,
        from: expired,
        at: now,
      }),
      documents: sql`DELETE FROM verification_documents
                     WHERE case_id = ${id} AND EXISTS (SELECT 1 FROM ${expired})`,
      recoveryPhotos: sql`DELETE FROM access_recovery_files
                          WHERE case_id = ${id} AND EXISTS (SELECT 1 FROM ${expired})`,
      verificationCase: sql`DELETE FROM ${expired}`,
    });
  }
  return due.length;
}
