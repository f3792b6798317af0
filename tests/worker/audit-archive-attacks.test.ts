/**
 * The audit archive (docs/decisions/0077) under attack: what must hold however R2 is found, and what a download
 * may cost. In workerd against real D1 and R2.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { auditCsv, parseCsvBefore } from "~/server/admin/audit-csv.server";
import { listAudit } from "~/server/admin/audit-log.server";
import { gzip, sha256HexOf } from "~/server/archive-objects.server";
import { type ArchivedAuditRow, archiveOldAuditRows } from "~/server/audit-archive.server";
import { createDb } from "~/server/db.server";
import { untilSettled } from "../support/archive-runs";
import { countRows, db, dbRefusal, getPage, signedInAdmin } from "../support/fixtures";
import { csvRows } from "../support/tables";

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

/** Runs the cron's step until nothing is left, as successive minutes would. */
const archiveAll = () => untilSettled(() => archiveOldAuditRows(db, env.AUDIT_ARCHIVE, NOW));

/** The bucket, counting the objects read through it. */
function countingBucket() {
  const reads = { count: 0 };
  const bucket = new Proxy(env.AUDIT_ARCHIVE, {
    get(target, key) {
      if (key === "get") reads.count++;
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { bucket, reads };
}

let admin: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  admin = await signedInAdmin();
});

describe("the audit archive's writer", () => {
  it("archives a batch under another name when its own already holds other bytes", async () => {
    const row = await insertRow({
      actorId: admin.id,
      action: "client.suspend",
      target: "user:planted",
      detail: "{}",
      createdAt: Date.UTC(2019, 4, 2),
    });
    // Whoever can write the bucket can plant an object under the name the next batch will take: the name is
    // the batch's ids and its digest, which anyone who reads the rows can work out. The bucket's lock then keeps
    // the planted object for years.
    const bytes = await gzip(`${JSON.stringify(row)}\n`);
    const key = `audit/2019-05/${row.id}-${row.id}-${(await sha256HexOf(bytes)).slice(0, 16)}.ndjson.gz`;
    await env.AUDIT_ARCHIVE.put(key, new TextEncoder().encode("not the rows"));

    expect(await archiveOldAuditRows(db, env.AUDIT_ARCHIVE, NOW)).toBe(1);
    expect(await countRows("audit_archives", "object_key = ?", key)).toBe(0);
    const recorded = await env.DB.prepare("SELECT object_key AS key FROM audit_archives WHERE first_id = ?")
      .bind(row.id)
      .first<{ key: string }>();
    expect(recorded?.key).toMatch(new RegExp(`^${key.replace(".ndjson.gz", "")}-[0-9a-f]{16}\\.ndjson\\.gz$`));
    const stored = await env.AUDIT_ARCHIVE.get(recorded?.key as string);
    expect(await sha256HexOf(new Uint8Array(await (stored as R2ObjectBody).arrayBuffer()))).toBe(
      await sha256HexOf(bytes),
    );
    const [entry] = (await listAudit(db, env.AUDIT_ARCHIVE, { client: "planted" })).entries;
    expect(entry).toMatchObject({ id: row.id, action: "client.suspend" });
  });
});

describe("the audit log's guards", () => {
  it("refuse an insert that chooses its id: over a row (a replace), or inside an archived month's id range", async () => {
    const entry = (createdAt: number) => ({
      actorId: "cron",
      action: "proposal.expire",
      target: "user:chosen",
      detail: null,
      createdAt,
    });
    const [a, b] = [await insertRow(entry(Date.UTC(2015, 1, 1))), await insertRow(entry(Date.UTC(2015, 1, 3)))];
    const live = await insertRow(entry(Date.UTC(2026, 10, 1)));
    const chosen = (id: number, createdAt: number, or = "") =>
      env.DB.prepare(
        `INSERT ${or} INTO audit_log (id, actor_id, action, target, detail, created_at) VALUES (?, 'x', 'client.delete', 'user:chosen', '{"forged":true}', ?)`,
      )
        .bind(id, createdAt)
        .run();
    // A replace deletes the row it meets without the delete guard (SQLite runs no delete trigger for it).
    expect(await dbRefusal(chosen(live.id, live.createdAt, "OR REPLACE"))).toMatch(/ids only grow/);
    expect(await env.DB.prepare("SELECT * FROM audit_log WHERE id = ?").bind(live.id).first()).toMatchObject({
      action: "proposal.expire",
      detail: null,
    });
    await archiveAll();
    expect(await countRows("audit_log", "id IN (?, ?)", a.id, b.id)).toBe(0);
    // A row given an archived id of its month would pass the delete guard though no object holds it.
    expect(await dbRefusal(chosen(b.id, Date.UTC(2015, 1, 2)))).toMatch(/ids only grow/);
    expect(await countRows("audit_log", "id = ?", b.id)).toBe(0);
    // A row written late, with an id of its own, is as ever kept until an object holds it.
    const late = await insertRow(entry(Date.UTC(2015, 1, 2)));
    expect(await dbRefusal(env.DB.prepare("DELETE FROM audit_log WHERE id = ?").bind(late.id).run())).toMatch(
      /append-only/,
    );
    await archiveAll();
    expect(await countRows("audit_log", "id = ?", late.id)).toBe(0);
    expect(await countRows("audit_archives", "month = '2015-02' AND first_id = ?", late.id)).toBe(1);
  });
});

describe("two cron runs at once", () => {
  it("never record two objects holding the same row, even when a late row changes one run's batch", async () => {
    const entry = (createdAt: number) => ({
      actorId: "cron",
      action: "proposal.expire",
      target: "user:twice",
      detail: null,
      createdAt,
    });
    const early = [await insertRow(entry(Date.UTC(2016, 6, 1))), await insertRow(entry(Date.UTC(2016, 6, 2)))];
    // The slower run has read its batch and is writing its object when the other one starts, after a row of the
    // same month was written late (a higher id): the other's batch is one row longer, under another name.
    let raced = false;
    const slow = new Proxy(env.AUDIT_ARCHIVE, {
      get(target, key) {
        if (key === "put")
          return async (...args: Parameters<R2Bucket["put"]>) => {
            if (!raced) {
              raced = true;
              await insertRow(entry(Date.UTC(2016, 6, 3)));
              expect(await archiveOldAuditRows(db, env.AUDIT_ARCHIVE, NOW)).toBe(3);
            }
            return target.put(...args);
          };
        const value = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    await archiveOldAuditRows(db, slow, NOW);
    expect(raced).toBe(true);
    const held = await env.DB.prepare(
      "SELECT count(*) AS objects, sum(row_count) AS rows FROM audit_archives WHERE month = '2016-07'",
    ).first<{ objects: number; rows: number }>();
    expect(held).toEqual({ objects: 1, rows: 3 });
    const entries = (await listAudit(db, env.AUDIT_ARCHIVE, { client: "twice" })).entries;
    expect(entries.map((e) => e.id)).toEqual([(early[1]?.id as number) + 1, early[1]?.id, early[0]?.id].map(Number));
  });
});

describe("the audit archive's reader", () => {
  it("refuses an object of another size than recorded without reading it, and a swapped or cut one", async () => {
    const row = (createdAt: number) => ({
      actorId: admin.id,
      action: "client.activate",
      target: "user:big",
      detail: "{}",
      createdAt,
    });
    await insertRow(row(Date.UTC(2017, 2, 3)));
    await insertRow(row(Date.UTC(2017, 3, 3)));
    await archiveAll();
    const recorded = async (month: string) =>
      (await env.DB.prepare("SELECT object_key AS key, bytes FROM audit_archives WHERE month = ?")
        .bind(month)
        .first<{ key: string; bytes: number }>()) as { key: string; bytes: number };
    const [march, april] = [await recorded("2017-03"), await recorded("2017-04")];
    const aprilBytes = await ((await env.AUDIT_ARCHIVE.get(april.key)) as R2ObjectBody).arrayBuffer();
    const marchBytes = await ((await env.AUDIT_ARCHIVE.get(march.key)) as R2ObjectBody).arrayBuffer();
    const filters = { client: "big", from: "2017-03-01", to: "2017-03-31" };
    const gapOf = async (bucket: R2Bucket) => (await listAudit(db, bucket, filters)).entries[0];

    // Another object's bytes under this name, and this object's cut short: both refused and said.
    await env.AUDIT_ARCHIVE.put(march.key, aprilBytes);
    expect(await gapOf(env.AUDIT_ARCHIVE)).toMatchObject({ gap: expect.stringMatching(/recorded checksum/) });
    await env.AUDIT_ARCHIVE.put(march.key, marchBytes.slice(0, march.bytes - 8));
    expect(await gapOf(env.AUDIT_ARCHIVE)).toMatchObject({ gap: expect.stringMatching(/recorded checksum/) });

    // A huge object in its place is refused by its size, before its bytes are held in memory.
    await env.AUDIT_ARCHIVE.put(march.key, new Uint8Array(4 * 1024 * 1024));
    const bodies = { read: 0 };
    const watching = new Proxy(env.AUDIT_ARCHIVE, {
      get(target, key) {
        if (key === "get")
          return async (...args: Parameters<R2Bucket["get"]>) => {
            const object = await target.get(...args);
            if (!object) return object;
            return new Proxy(object, {
              get(body, name) {
                if (name === "arrayBuffer" || name === "body" || name === "text" || name === "bytes") bodies.read++;
                const value = Reflect.get(body, name);
                return typeof value === "function" ? value.bind(body) : value;
              },
            });
          };
        const value = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    expect(await gapOf(watching)).toMatchObject({ gap: expect.stringMatching(/recorded checksum/) });
    expect(bodies.read).toBe(0);
    await env.AUDIT_ARCHIVE.put(march.key, marchBytes);
    expect(await gapOf(watching)).toMatchObject({ action: "client.activate" });
  });
});

describe("/admin/audit.csv over years of archive", () => {
  it("opens a bounded number of objects per download, says where it stopped, and goes on from there", async () => {
    const target = "user:capped";
    // Seven archived months, an object each, and two entries still in D1.
    for (const createdAt of [
      ...Array.from({ length: 7 }, (_, n) => Date.UTC(2020, n, 10)),
      Date.UTC(2026, 5, 1),
      Date.UTC(2026, 6, 1),
    ])
      await insertRow({ actorId: admin.id, action: "client.suspend", target, detail: "{}", createdAt });
    await archiveAll();
    expect(await countRows("audit_log", "target = ?", target)).toBe(2);
    // From 2020 on: the objects of the other tests' months, all before it, are not reached.
    const filters = { client: "capped", from: "2020-01-01" };
    const whole = csvRows(await new Response(auditCsv(db, env.AUDIT_ARCHIVE, filters)).text());
    expect(whole).toHaveLength(10);

    // Three objects a download: the parts, followed by their last lines' links, are the whole, each row once.
    const parts: string[][][] = [];
    let before: string | undefined;
    for (let part = 0; part < 5; part++) {
      const { bucket, reads } = countingBucket();
      const after = before === undefined ? undefined : parseCsvBefore(before);
      if (after === "invalid") throw new Error(`bad link ${before}`);
      const rows = csvRows(await new Response(auditCsv(db, bucket, filters, { after, maxObjects: 3 })).text());
      expect(reads.count).toBeLessThanOrEqual(3);
      parts.push(rows);
      const link = rows.at(-1)?.[4]?.match(/\/admin\/audit\.csv\?(\S*)/)?.[1];
      if (!link) break;
      expect(rows.at(-1)?.[4]).toMatch(/^The export stopped here after reading 3 archive objects/);
      const params = new URLSearchParams(link);
      expect([params.get("client"), params.get("from")]).toEqual(["capped", "2020-01-01"]);
      before = params.get("before") ?? undefined;
    }
    expect(parts.map((rows) => rows.length)).toEqual([1 + 2 + 3 + 1, 1 + 3 + 1, 1 + 1]);
    expect([whole[0], ...parts.flatMap((rows) => rows.slice(1).filter((row) => row[1] !== ""))]).toEqual(whole);

    // The route takes the link as it is given, and refuses a cursor it cannot read.
    const first = csvRows(await (await getPage("/admin/audit.csv?client=capped&from=2020-01-01", admin.cookie)).text());
    expect(first).toEqual(whole);
    const resumed = await getPage(
      `/admin/audit.csv?client=capped&from=2020-01-01&before=${Date.UTC(2020, 3, 1)}.1000000`,
      admin.cookie,
    );
    expect(csvRows(await resumed.text()).slice(1)).toEqual(whole.slice(-3));
    expect((await getPage("/admin/audit.csv?client=capped&before=12", admin.cookie)).status).toBe(400);
  });
});

describe("/admin/audit's own cursor", () => {
  it("reads a forged `before` as a place in the list or as none, never as a failure", async () => {
    for (const before of ["1e400", "-1", "99999999999999999999", "1.5", "0x10", "Infinity", "abc"]) {
      const response = await getPage(`/admin/audit?before=${before}`, admin.cookie);
      expect(response.status, before).toBe(200);
    }
  });
});

/** D1, counting the rows of `audit_archives` each statement gives back. */
function countingArchiveRecords() {
  const read = { records: 0 };
  const counted = <T>(query: string, rows: T): T => {
    if (/from "audit_archives"/.test(query)) read.records += (rows as unknown[]).length;
    return rows;
  };
  const statement = (query: string, inner: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(inner, {
      get(target, key) {
        if (key === "bind") return (...values: unknown[]) => statement(query, target.bind(...values));
        if (key === "raw") return async (...args: [never]) => counted(query, await target.raw(...args));
        if (key === "all")
          return async () => {
            const result = await target.all();
            counted(query, result.results);
            return result;
          };
        const value = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  const client = new Proxy(env.DB, {
    get(target, key) {
      if (key === "prepare") return (query: string) => statement(query, target.prepare(query));
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db: createDb(client), read };
}

describe("a page over years of archive", () => {
  it("reads the records of the objects it can open, not of every object of the range", async () => {
    for (let month = 0; month < 40; month++)
      await insertRow({
        actorId: admin.id,
        action: "client.suspend",
        target: "user:many",
        detail: "{}",
        createdAt: Date.UTC(2010, month, 5),
      });
    await archiveAll();
    const counting = countingArchiveRecords();
    const page = await listAudit(counting.db, env.AUDIT_ARCHIVE, { client: "many" });
    // The page's 20 objects hold 20 of the 40 entries; the records read are theirs and the one it pauses at.
    expect(page.entries).toHaveLength(20);
    expect(counting.read.records).toBeLessThanOrEqual(21);
    const next = await listAudit(counting.db, env.AUDIT_ARCHIVE, { client: "many" }, page.next as number);
    expect(next.entries.map((e) => e.createdAt)).toEqual(
      Array.from({ length: 20 }, (_, n) => Date.UTC(2010, 19 - n, 5)),
    );
  });
});
