import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuditFilters } from "~/lib/audit-filters";
import { auditCsv } from "~/server/admin/audit-csv.server";
import { listAudit } from "~/server/admin/audit-log.server";
import { readVerifiedObject, sha256HexOf } from "~/server/archive-objects.server";
import { type ArchivedAuditRow, archiveOldAuditRows, auditArchiveCutoff } from "~/server/audit-archive.server";
import worker from "../../workers/app";
import { untilSettled } from "../support/archive-runs";
import { countRows, createUser, db, dbRefusal, getPage, signedInAdmin } from "../support/fixtures";
import { csvRows } from "../support/tables";

const DAY = 86_400_000;
/** The archive's clock: rows of months up to January 2026 are archived, February 2026 on stay in D1. */
const NOW = Date.UTC(2027, 2, 15, 12);
const CUTOFF = auditArchiveCutoff(NOW);
const ACTIONS = ["client.suspend", "client.activate", "ledger.entry", "proposal.expire"] as const;

/** Deterministic pseudo-random numbers, so a failure can be run again as it was. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

type NewRow = Omit<ArchivedAuditRow, "id">;

/** Inserts rows as stored (a statement per row, one batch per 100), and returns their ids in order. */
async function insertRows(rows: NewRow[]): Promise<number[]> {
  const insert = env.DB.prepare(
    "INSERT INTO audit_log (actor_id, action, target, detail, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
  );
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 100) {
    const results = await env.DB.batch<{ id: number }>(
      rows.slice(i, i + 100).map((r) => insert.bind(r.actorId, r.action, r.target, r.detail, r.createdAt)),
    );
    ids.push(...results.map((result) => result.results[0]?.id as number));
  }
  return ids;
}

/** Runs the cron's step until nothing is left, as successive minutes would. */
const archiveAll = (bucket: R2Bucket = env.AUDIT_ARCHIVE, now = NOW) =>
  untilSettled(() => archiveOldAuditRows(db, bucket, now));

/**
 * Every entry of /admin/audit's list for `filters`, page after page by its `next` links, as the page's loader reads
 * them. The pages themselves may differ once archived: a page ends early when it has opened its share of objects.
 */
async function allPages(filters: AuditFilters, pageSize: number) {
  const entries = [];
  let before: number | undefined;
  for (let n = 0; n < 500; n++) {
    const page = await listAudit(db, env.AUDIT_ARCHIVE, filters, before, pageSize);
    entries.push(...page.entries);
    if (page.next === null) return entries;
    before = page.next;
  }
  throw new Error("the pages did not end");
}

const csvOf = async (filters: AuditFilters) => new Response(auditCsv(db, env.AUDIT_ARCHIVE, filters)).text();

const day = (at: number) => new Date(at).toISOString().slice(0, 10);

async function recordedObjects() {
  return env.DB.prepare("SELECT * FROM audit_archives ORDER BY id").all<{
    object_key: string;
    sha256: string;
    month: string;
    first_id: number;
    last_id: number;
    row_count: number;
  }>();
}

let client: { id: string; email: string };
let admin: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  admin = await signedInAdmin();
  client = await createUser({ firstName: "Archie", email: "archie.audit@example.com" });
});

describe("the audit archive", () => {
  it("loses nothing: random rows over random months, archived, read back equal and in order for random ranges", async () => {
    const next = random(47);
    const start = Date.UTC(2023, 10, 1);
    const rows: NewRow[] = Array.from({ length: 1_400 }, () => {
      // Nearly half the rows in one month, which then fills two objects; the rest spread over 40 months.
      const createdAt =
        next() < 0.45
          ? Date.UTC(2024, 2, 1) + Math.floor(next() * 31 * DAY)
          : start + Math.floor(next() * (NOW - start - DAY));
      const action = ACTIONS[Math.floor(next() * ACTIONS.length)] as string;
      const about = next() < 0.3 ? client.id : `u-${Math.floor(next() * 50)}`;
      return {
        actorId: next() < 0.5 ? admin.id : "cron",
        action,
        target: next() < 0.5 ? `user:${about}` : `transaction:${1 + Math.floor(next() * 1_000)}`,
        detail: next() < 0.1 ? null : JSON.stringify({ client: about, note: `n ${next().toFixed(6)} "ü"` }),
        createdAt,
      };
    });
    const ids = await insertRows(rows);
    // Every row, one client's, one action's, and none (a page then opens its share of objects and goes on).
    const ranges: AuditFilters[] = [{}, { client: client.id }, { action: "ledger.entry" }, { admin: "nobody" }];
    for (let i = 0; i < 6; i++) {
      const [a, b] = [start + next() * (NOW - start), start + next() * (NOW - start)].sort((x, y) => x - y);
      ranges.push({ from: day(a as number), to: day(b as number), ...(i % 2 ? { client: client.id } : {}) });
    }
    const pageSizes = ranges.map(() => 5 + Math.floor(next() * 60));
    const pagesBefore = await Promise.all(ranges.map((f, i) => allPages(f, pageSizes[i] as number)));
    const csvBefore = await Promise.all(ranges.map(csvOf));

    const old = rows.filter((row) => row.createdAt < CUTOFF).length;
    expect(await archiveAll()).toBe(old);
    expect(await countRows("audit_log", "created_at < ?", CUTOFF)).toBe(0);

    for (const [i, filters] of ranges.entries()) {
      expect(await allPages(filters, pageSizes[i] as number), JSON.stringify(filters)).toEqual(pagesBefore[i]);
      expect(await csvOf(filters), JSON.stringify(filters)).toBe(csvBefore[i]);
    }
    // And the objects hold the rows as they were stored, each object one month, checked and complete.
    const held = new Map<number, ArchivedAuditRow>();
    const objects = (await recordedObjects()).results;
    // Not vacuous: some months took several objects, and the ranges read across the archive's boundary.
    expect(objects.length).toBeGreaterThan(new Set(objects.map((o) => o.month)).size);
    expect(csvRows(csvBefore[0] as string).length).toBeGreaterThan(old + 1);
    const sparse = await listAudit(db, env.AUDIT_ARCHIVE, { admin: "nobody" });
    expect(sparse).toMatchObject({ entries: [], next: expect.any(Number) });
    for (const object of objects) {
      const read = await readVerifiedObject<ArchivedAuditRow>(env.AUDIT_ARCHIVE, {
        objectKey: object.object_key,
        sha256: object.sha256,
      });
      if (!read.ok) throw new Error(`${object.object_key}: ${read.problem}`);
      expect(read.rows).toHaveLength(object.row_count);
      for (const row of read.rows) {
        expect(new Date(row.createdAt).toISOString().slice(0, 7)).toBe(object.month);
        held.set(row.id, row);
      }
    }
    for (const [i, row] of rows.entries())
      if (row.createdAt < CUTOFF) expect(held.get(ids[i] as number)).toEqual({ id: ids[i], ...row });
    expect(await archiveAll()).toBe(0);
  }, 180_000);

  it("leaves the rows in D1 when a run stops between R2 and D1, and the next run converges on the same object", async () => {
    const createdAt = Date.UTC(2025, 6, 4, 8);
    const ids = await insertRows([
      { actorId: admin.id, action: "client.suspend", target: `user:${client.id}`, detail: "{}", createdAt },
      { actorId: admin.id, action: "client.activate", target: `user:${client.id}`, detail: "{}", createdAt },
    ]);
    const crashing = new Proxy(env.AUDIT_ARCHIVE, {
      get(target, key) {
        if (key === "put")
          return async (...args: Parameters<R2Bucket["put"]>) => {
            await target.put(...args);
            throw new Error("the isolate was evicted");
          };
        const value = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const keys = async () => (await env.AUDIT_ARCHIVE.list({ prefix: "audit/2025-07/" })).objects.map((o) => o.key);
    const before = await keys();
    await expect(archiveOldAuditRows(db, crashing, NOW)).rejects.toThrow("evicted");
    expect(await countRows("audit_log", `id IN (${ids.join(",")})`)).toBe(2);
    const afterCrash = await keys();
    const written = afterCrash.filter((key) => !before.includes(key));
    expect(written).toHaveLength(1);

    expect(await archiveAll()).toBe(2);
    // The same rows make the same object, under the same key: the crashed run's object is the one recorded.
    expect(await keys()).toEqual(afterCrash);
    expect(await countRows("audit_archives", "object_key = ?", written[0])).toBe(1);
    expect(await countRows("audit_log", `id IN (${ids.join(",")})`)).toBe(0);
  });

  it("refuses an object whose bytes are not the recorded ones, and says so where its rows were", async () => {
    const createdAt = Date.UTC(2024, 8, 9, 10);
    const subject = await createUser({ firstName: "Tamper", email: "tamper.audit@example.com" });
    const [id] = await insertRows([
      { actorId: admin.id, action: "client.suspend", target: `user:${subject.id}`, detail: "{}", createdAt },
    ]);
    await archiveAll();
    const object = (await recordedObjects()).results.find((o) => o.first_id === id && o.last_id === id);
    if (!object) throw new Error("no object");
    const original = await (await env.AUDIT_ARCHIVE.get(object.object_key))?.arrayBuffer();
    const filters = { client: subject.id, from: "2024-09-09", to: "2024-09-09" };
    const expected = `1 archived entries of 2024-09 (ids ${object.first_id} to ${object.last_id})`;

    await env.AUDIT_ARCHIVE.put(object.object_key, new TextEncoder().encode("not the archive"));
    const [tampered] = (await listAudit(db, env.AUDIT_ARCHIVE, filters)).entries;
    expect(tampered).toEqual({
      id: object.last_id,
      createdAt,
      gap: `${expected} are not shown: their archive object does not match its recorded checksum.`,
    });
    expect(csvRows(await csvOf(filters))[1]?.[4]).toContain("does not match its recorded checksum");

    await env.AUDIT_ARCHIVE.delete(object.object_key);
    expect((await listAudit(db, env.AUDIT_ARCHIVE, filters)).entries[0]).toMatchObject({
      gap: `${expected} cannot be shown: their archive object is missing.`,
    });
    await env.AUDIT_ARCHIVE.put(object.object_key, original as ArrayBuffer);
    expect(await sha256HexOf(new Uint8Array(original as ArrayBuffer))).toBe(object.sha256);
    expect((await listAudit(db, env.AUDIT_ARCHIVE, filters)).entries[0]).toMatchObject({ action: "client.suspend" });
  });

  it("is the only way a row leaves D1: the database refuses deleting a row no recorded object holds", async () => {
    const [young, old] = await insertRows([
      { actorId: "cron", action: "proposal.expire", target: null, detail: null, createdAt: NOW - 30 * DAY },
      { actorId: "cron", action: "proposal.expire", target: null, detail: null, createdAt: Date.UTC(2020, 0, 1) },
    ]);
    for (const id of [young, old])
      expect(await dbRefusal(env.DB.prepare("DELETE FROM audit_log WHERE id = ?").bind(id).run())).toMatch(
        /append-only: a row leaves only for a recorded archive object/,
      );
    // An object of another month covering the id does not free it either.
    await env.DB.prepare(
      `INSERT INTO audit_archives (object_key, month, first_id, last_id, oldest_at, newest_at, row_count, sha256, bytes)
       VALUES ('audit/1999-01/x', '1999-01', 0, ?, 0, 0, 1, 'x', 1)`,
    )
      .bind(old)
      .run();
    expect(await dbRefusal(env.DB.prepare("DELETE FROM audit_log WHERE id = ?").bind(old).run())).toMatch(
      /append-only/,
    );
    expect(await dbRefusal(env.DB.prepare("DELETE FROM audit_archives WHERE month = '1999-01'").run())).toMatch(
      /audit_archives is append-only/,
    );
    expect(await dbRefusal(env.DB.prepare("UPDATE audit_archives SET last_id = 0").run())).toMatch(
      /audit_archives is append-only/,
    );
  });
});

describe("the cron", () => {
  it("archives the rows of months that ended 13 months before its run, and no others", async () => {
    const subject = await createUser({ firstName: "Cron", email: "cron.audit@example.com" });
    const target = `user:${subject.id}`;
    const entry = (createdAt: number) => ({
      actorId: "cron",
      action: "client.suspend",
      target,
      detail: null,
      createdAt,
    });
    await insertRows([entry(CUTOFF - 60_000), entry(CUTOFF)]);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: NOW }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await countRows("audit_log", "target = ?", target)).toBe(1);
    expect(await countRows("audit_log", "target = ? AND created_at = ?", target, CUTOFF)).toBe(1);
    const entries = (await listAudit(db, env.AUDIT_ARCHIVE, { client: subject.id, from: "2025-01-01" })).entries;
    expect(entries.map((e) => e.createdAt)).toEqual([CUTOFF, CUTOFF - 60_000]);
  });
});

describe("/admin/audit and its CSV across the archive's boundary", () => {
  it("show the same entries, in the same order and pages, once the older ones are archived", async () => {
    const subject = await createUser({ firstName: "Border", email: "border.audit@example.com" });
    // 35 entries a day apart either side of the cutoff: the first page ends in the archive's months.
    await insertRows(
      Array.from({ length: 70 }, (_, n) => ({
        actorId: admin.id,
        action: n % 2 ? "client.suspend" : "client.activate",
        target: `user:${subject.id}`,
        detail: JSON.stringify({ by: admin.email, before: "active", after: "suspended" }),
        createdAt: CUTOFF + (n - 35) * DAY + 3_600_000,
      })),
    );
    const query = `?client=${subject.id}&from=${day(CUTOFF - 40 * DAY)}&to=${day(CUTOFF + 40 * DAY)}`;
    const read = async () => {
      const first = await (await getPage(`/admin/audit${query}`, admin.cookie)).text();
      const older = first.match(/href="(\/admin\/audit\?[^"]*before=\d+)"/)?.[1]?.replaceAll("&amp;", "&");
      if (!older) throw new Error("no older page");
      const second = await (await getPage(older, admin.cookie)).text();
      const csv = await (await getPage(`/admin/audit.csv${query}`, admin.cookie)).text();
      const body = (html: string) => html.slice(html.indexOf("<tbody"), html.indexOf("</tbody>"));
      return { first: body(first), older, second: body(second), csv };
    };
    const before = await read();
    expect(csvRows(before.csv)).toHaveLength(71);
    await archiveAll();
    expect(await countRows("audit_log", "target = ?", `user:${subject.id}`)).toBe(35);
    expect(await read()).toEqual(before);
  });

  it("a CSV read while the cron archives gives every entry once", async () => {
    const subject = await createUser({ firstName: "Overlap", email: "overlap.audit@example.com" });
    const entry = (createdAt: number) => ({
      actorId: admin.id,
      action: "client.suspend",
      target: `user:${subject.id}`,
      detail: "{}",
      createdAt,
    });
    // An archived month, then older rows written after it (higher ids, not yet archived), and recent ones.
    await insertRows(Array.from({ length: 20 }, (_, n) => entry(Date.UTC(2024, 5, 1 + n))));
    await archiveAll();
    await insertRows(Array.from({ length: 250 }, (_, n) => entry(Date.UTC(2024, 3, 1) + n * 3_600_000)));
    await insertRows(Array.from({ length: 50 }, (_, n) => entry(NOW - (n + 1) * DAY)));
    // From 2024 on: the guard's test recorded an object of 1999 that does not exist, a gap line in any read of it.
    const filters = { client: subject.id, from: "2024-01-01" };
    const expected = await csvOf(filters);
    expect(csvRows(expected)).toHaveLength(321);
    // The cron runs when the download first opens an object: the older rows leave D1 while it reads them.
    let ran = false;
    const racing = new Proxy(env.AUDIT_ARCHIVE, {
      get(target, key) {
        if (key === "get")
          return async (...args: Parameters<R2Bucket["get"]>) => {
            if (!ran) {
              ran = true;
              expect(await archiveAll()).toBe(250);
            }
            return target.get(...args);
          };
        const value = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    // D1 read 100 rows at a time, so the cron archives rows the download has not read from D1 yet.
    expect(await new Response(auditCsv(db, racing, filters, { livePageSize: 100 })).text()).toBe(expected);
    expect(ran).toBe(true);
  });
});
