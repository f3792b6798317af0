/**
 * The audit archive (docs/decisions/0077) under attack: what must hold however R2 is found, and what a download
 * may cost. In workerd against real D1 and R2.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { gzip, sha256HexOf } from "~/server/archive-objects.server";
import { type ArchivedAuditRow, archiveOldAuditRows } from "~/server/audit-archive.server";
import { countRows, db, signedInAdmin } from "../support/fixtures";

/** The archive's clock: rows of months up to January 2026 are archived. */
const NOW = Date.UTC(2027, 2, 15, 12);

type NewRow = Omit<ArchivedAuditRow, "id">;

async function insertRow(row: NewRow): Promise<ArchivedAuditRow> {
  const inserted = await env.DB.prepare(
    "INSERT INTO audit_log (actor_id, action, target, detail, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(row.actorId, row.action, row.target, row.detail, row.createdAt)
    .first<{ id: number }>();
  // In the column order the cron reads them in, so the object's bytes are the ones it will make.
  return { id: inserted?.id as number, ...row };
}

let admin: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  admin = await signedInAdmin();
});

describe("the audit archive's writer", () => {
  it("keeps the rows in D1 when the object's name already holds other bytes", async () => {
    const row = await insertRow({
      actorId: admin.id,
      action: "client.suspend",
      target: "user:planted",
      detail: "{}",
      createdAt: Date.UTC(2019, 4, 2),
    });
    // Whoever can write the bucket can plant an object under the name the next batch will take: the name is
    // the batch's ids and its digest, which anyone who reads the rows can work out.
    const bytes = await gzip(`${JSON.stringify(row)}\n`);
    const key = `audit/2019-05/${row.id}-${row.id}-${(await sha256HexOf(bytes)).slice(0, 16)}.ndjson.gz`;
    await env.AUDIT_ARCHIVE.put(key, new TextEncoder().encode("not the rows"));

    await expect(archiveOldAuditRows(db, env.AUDIT_ARCHIVE, NOW)).rejects.toThrow(/other bytes/);
    expect(await countRows("audit_log", "id = ?", row.id)).toBe(1);
    expect(await countRows("audit_archives", "object_key = ?", key)).toBe(0);
  });
});
