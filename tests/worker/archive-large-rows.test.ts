import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { listAudit } from "~/server/admin/audit-log.server";
import { archiveOldAuditRows } from "~/server/audit-archive.server";
import { schema } from "~/server/db.server";
import { archiveDeliveredMail, MAIL_ARCHIVE_AFTER_MS } from "~/server/mail/archive.server";
import { mailBody } from "~/server/mail/archive-read.server";
import { enqueueEmail } from "~/server/mail/outbox.server";
import { db } from "../support/fixtures";

/**
 * Both archives bind a batch's rows once more as one JSON value, and D1 refuses a value over 2,000,000 bytes
 * (local D1 does not enforce it): a month of unusually large rows must go in smaller batches, not fail the same
 * batch on every run.
 */
const DAY = 86_400_000;
const NOW = Date.UTC(2027, 2, 15, 12);
/** D1's limit on one bound value. */
const D1_VALUE_LIMIT = 2_000_000;
/** About 60 kB of text: 40 of them are 2.4 MB, more than one bound value may carry. */
const large = (i: number) => `${"Large ".repeat(10_000)}${i}`;
const ROWS = 40;

describe("an archive of very large rows", () => {
  it("moves delivered mail in several objects, each within what D1 binds as one value, in one run, and loses no body", async () => {
    const createdAt = NOW - MAIL_ARCHIVE_AFTER_MS - 5 * DAY;
    const names = new Map<number, string>();
    for (let i = 0; i < ROWS; i++) {
      const [rows] = await db.batch([
        enqueueEmail(db, { to: `large-${i}@example.com`, template: "welcome", data: { name: `Large ${i}` } }),
      ]);
      const id = rows[0]?.id as number;
      await db
        .update(schema.emailOutbox)
        // A body larger than any template writes: what a long notice would be.
        .set({
          payload: { name: large(i) },
          status: "sent",
          createdAt: createdAt + i,
          sentAt: createdAt + i + 1_000,
          providerId: `re_${i}`,
        })
        .where(eq(schema.emailOutbox.id, id));
      names.set(id, large(i));
    }
    expect(await archiveDeliveredMail(db, env.MAIL_ARCHIVE, NOW)).toBe(ROWS);
    const archives = await db.select().from(schema.mailArchives);
    expect(archives.length).toBeGreaterThan(1);
    for (const archive of archives) expect(archive.rowCount * 60_000).toBeLessThan(D1_VALUE_LIMIT);
    for (const [id, name] of names) {
      expect(await mailBody(db, env.MAIL_ARCHIVE, id), `row ${id}`).toEqual({
        ok: true,
        template: "welcome",
        payload: { name },
        archived: true,
      });
    }
  });

  it("moves audit rows in several objects, each within what D1 binds as one value, and the audit log still shows every one", async () => {
    const month = Date.UTC(2025, 5, 10);
    const insert = env.DB.prepare(
      "INSERT INTO audit_log (actor_id, action, target, detail, created_at) VALUES (NULL, 'ledger.entry', ?, ?, ?) RETURNING id",
    );
    const inserted = await env.DB.batch<{ id: number }>(
      Array.from({ length: ROWS }, (_, i) =>
        insert.bind(`large-${i}`, JSON.stringify({ reason: large(i) }), month + i * 60_000),
      ),
    );
    const ids = inserted.map((result) => result.results[0]?.id as number);
    // Up to four batches a run: two runs at most for 40 rows, however they are cut.
    const moved =
      (await archiveOldAuditRows(db, env.AUDIT_ARCHIVE, NOW)) + (await archiveOldAuditRows(db, env.AUDIT_ARCHIVE, NOW));
    expect(moved).toBe(ROWS);
    const objects = await env.DB.prepare("SELECT row_count FROM audit_archives").all<{ row_count: number }>();
    expect(objects.results.length).toBeGreaterThan(1);
    for (const object of objects.results) expect(object.row_count * 60_000).toBeLessThan(D1_VALUE_LIMIT);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE target LIKE 'large-%'").first("n")).toBe(0);

    const page = await listAudit(db, env.AUDIT_ARCHIVE, { from: "2025-06-01", to: "2025-06-30" }, undefined, 50);
    expect(page.entries.map((entry) => entry.id).sort((a, b) => a - b)).toEqual(ids);
  });
});
