import { env } from "cloudflare:workers";
import { eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { MAIL_SEARCH_MESSAGES } from "~/server/admin/mail-search.server";
import { monthOf, sha256HexOf } from "~/server/archive-objects.server";
import { schema } from "~/server/db.server";
import { archiveDeliveredMail, MAIL_ARCHIVE_AFTER_MS } from "~/server/mail/archive.server";
import { mailBody, readArchiveObject } from "~/server/mail/archive-read.server";
import { delivered, mail, untilSettled } from "../support/archive-runs";
import { createUser, db, dbRefusal, getPage, sessionCookieFor } from "../support/fixtures";
import { decodeEntities } from "../support/tables";

const { emailOutbox, mailArchives } = schema;
const DAY = 86_400_000;
const NOW = Date.UTC(2027, 2, 15, 12);

/** Deterministic pseudo-random numbers, so a failure can be run again as it was. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The rows of `ids`, a statement per 90 (D1 binds at most 100 values a statement). */
async function rowsOf(ids: number[]) {
  const rows = [];
  for (let i = 0; i < ids.length; i += 90)
    rows.push(
      ...(await db
        .select()
        .from(emailOutbox)
        .where(inArray(emailOutbox.id, ids.slice(i, i + 90)))),
    );
  return rows;
}

/** Runs the cron's step until nothing is left, as successive minutes would. */
const archiveAll = (bucket: R2Bucket = env.MAIL_ARCHIVE, now = NOW) =>
  untilSettled(() => archiveDeliveredMail(db, bucket, now), 50);

async function objectKeys() {
  return (await env.MAIL_ARCHIVE.list({ prefix: "mail/" })).objects.map((o) => o.key).sort();
}

describe("the mail archive", () => {
  it("reads back every mail as it was, over random mails across months, each object under its mails' month", async () => {
    const next = random(20_270_315);
    const names = ["Sam", "Zoë O'Brien", 'Ana "the" Ledger', "李雷", "<b>Bold</b> & co", "x".repeat(120)];
    const expected = new Map<number, { name: string; createdAt: number }>();
    for (let i = 0; i < 260; i++) {
      // From 31 to 400 days before NOW: every one old enough, spread over about 13 months.
      const createdAt = NOW - MAIL_ARCHIVE_AFTER_MS - DAY - Math.floor(next() * 370 * DAY);
      const name = `${names[Math.floor(next() * names.length)]} ${i}`;
      const id = await mail(
        `random-${i % 7}@example.com`,
        name,
        delivered(createdAt, next() < 0.3 ? "captured" : "sent"),
      );
      expected.set(id, { name, createdAt });
    }
    expect(await archiveAll()).toBeGreaterThanOrEqual(expected.size);

    const rows = await rowsOf([...expected.keys()]);
    for (const row of rows) {
      expect(row.payload, `row ${row.id}`).toBeNull();
      expect(row.archiveId, `row ${row.id}`).not.toBeNull();
      const body = await mailBody(db, env.MAIL_ARCHIVE, row.id);
      expect(body, `row ${row.id}`).toEqual({
        ok: true,
        template: "welcome",
        payload: { name: expected.get(row.id)?.name },
        archived: true,
      });
    }
    const archives = await db.select().from(mailArchives);
    for (const archive of archives) {
      expect(archive.objectKey.startsWith(`mail/${archive.month}/`)).toBe(true);
      const read = await readArchiveObject(env.MAIL_ARCHIVE, archive);
      if (!read.ok) throw new Error(`${archive.objectKey}: ${read.problem}`);
      expect(read.rows).toHaveLength(archive.rowCount);
      for (const archived of read.rows) expect(monthOf(archived.createdAt)).toBe(archive.month);
    }
    // Every archived row points at an object that holds it, and each object's recorded checksum is its bytes'.
    for (const archive of archives) {
      const object = await env.MAIL_ARCHIVE.get(archive.objectKey);
      const bytes = new Uint8Array(await (object as R2ObjectBody).arrayBuffer());
      expect(await sha256HexOf(bytes)).toBe(archive.sha256);
      expect(bytes.byteLength).toBe(archive.bytes);
    }
    expect(new Set(archives.map((a) => a.month)).size).toBeGreaterThanOrEqual(12);
  });

  it("changes nothing when run again: no object written, no row recorded, none stripped", async () => {
    await mail("again@example.com", "Again", delivered(NOW - 40 * DAY));
    await archiveAll();
    const keys = await objectKeys();
    const archives = await db.$count(mailArchives);
    expect(await archiveDeliveredMail(db, env.MAIL_ARCHIVE, NOW)).toBe(0);
    expect(await archiveDeliveredMail(db, env.MAIL_ARCHIVE, NOW + DAY)).toBe(0);
    expect(await objectKeys()).toEqual(keys);
    expect(await db.$count(mailArchives)).toBe(archives);
  });

  it("loses nothing when the run stops between the object's put and the D1 update, and then writes no second copy", async () => {
    await archiveAll();
    const ids = [
      await mail("crash@example.com", "Crash one", delivered(NOW - 45 * DAY)),
      await mail("crash@example.com", "Crash two", delivered(NOW - 44 * DAY)),
    ];
    const before = await objectKeys();
    // The bucket takes the object, then the Worker dies before D1 hears of it.
    const crashing = new Proxy(env.MAIL_ARCHIVE, {
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
    await expect(archiveDeliveredMail(db, crashing, NOW)).rejects.toThrow("evicted");
    for (const row of await rowsOf(ids)) expect(row).toMatchObject({ archiveId: null, payload: expect.any(Object) });
    const afterCrash = await objectKeys();
    expect(afterCrash.length).toBe(before.length + 1);

    expect(await archiveAll()).toBe(2);
    // The same rows make the same object, under the same key: the crashed run's object is the one recorded.
    expect(await objectKeys()).toEqual(afterCrash);
    for (const id of ids) expect(await mailBody(db, env.MAIL_ARCHIVE, id)).toMatchObject({ ok: true, archived: true });
  });

  it("refuses to read an object whose bytes are not the recorded ones", async () => {
    const id = await mail("tampered@example.com", "Tampered", delivered(NOW - 50 * DAY));
    await archiveAll();
    const [archive] = await db
      .select()
      .from(mailArchives)
      .where(sql`${mailArchives.id} = (SELECT archive_id FROM email_outbox WHERE id = ${id})`);
    if (!archive) throw new Error("not archived");
    expect(archive.sha256).toMatch(/^[0-9a-f]{64}$/);
    const original = await (await env.MAIL_ARCHIVE.get(archive.objectKey))?.arrayBuffer();
    await env.MAIL_ARCHIVE.put(archive.objectKey, new TextEncoder().encode("not the archive"));
    expect(await mailBody(db, env.MAIL_ARCHIVE, id)).toEqual({ ok: false, problem: "checksum" });
    await env.MAIL_ARCHIVE.delete(archive.objectKey);
    expect(await mailBody(db, env.MAIL_ARCHIVE, id)).toEqual({ ok: false, problem: "missing" });
    await env.MAIL_ARCHIVE.put(archive.objectKey, original as ArrayBuffer);
    expect(await mailBody(db, env.MAIL_ARCHIVE, id)).toMatchObject({ ok: true, payload: { name: "Tampered" } });
  });

  it("leaves alone what is younger than 30 days or not delivered", async () => {
    const kept = [
      await mail("kept@example.com", "Young", delivered(NOW - MAIL_ARCHIVE_AFTER_MS + 60_000)),
      await mail("kept@example.com", "Pending", { status: "pending", createdAt: NOW - 60 * DAY }),
      await mail("kept@example.com", "Failed", {
        status: "failed",
        createdAt: NOW - 60 * DAY,
        failedAt: NOW - 57 * DAY,
      }),
    ];
    await archiveAll();
    const rows = await rowsOf(kept);
    expect(rows.map((row) => [row.archiveId, row.payload])).toEqual([
      [null, { name: "Young" }],
      [null, { name: "Pending" }],
      [null, { name: "Failed" }],
    ]);
  });

  it("lets the database refuse a row without its body unless an archive holds it", async () => {
    const id = await mail("guard@example.com", "Guard", delivered(NOW - 2 * DAY));
    expect(await dbRefusal(db.update(emailOutbox).set({ payload: null }).where(eq(emailOutbox.id, id)))).toMatch(
      /CHECK constraint failed/,
    );
  });
});

describe("/admin/mail's search", () => {
  let cookie: string;
  beforeAll(async () => {
    const admin = await createUser({ role: "admin" });
    cookie = await sessionCookieFor(admin.id);
  });

  it("finds an archived mail by recipient and month, and opens its text from the archive", async () => {
    const createdAt = Date.UTC(2026, 9, 12, 9);
    const id = await mail("found@example.com", "Findable Name", delivered(createdAt));
    const other = await mail("found@example.com", "Other Month", delivered(Date.UTC(2026, 10, 2)));
    await archiveAll(env.MAIL_ARCHIVE, Date.now());

    const page = decodeEntities(await (await getPage("/admin/mail?to=Found@Example.com&month=2026-10", cookie)).text());
    expect(page).toContain("Find a mail");
    expect(page).toContain(`Open #${id}`);
    expect(page).not.toContain(`Open #${other}`);
    expect(page).not.toContain("Findable Name");

    const opened = decodeEntities(
      await (await getPage(`/admin/mail?to=found%40example.com&month=2026-10&open=${id}`, cookie)).text(),
    );
    expect(opened).toContain("Findable Name");
    // A mail of another month is not opened from this list.
    const elsewhere = await (
      await getPage(`/admin/mail?to=found%40example.com&month=2026-10&open=${other}`, cookie)
    ).text();
    expect(elsewhere).not.toContain("Other Month");
  });

  it("says what is wrong with the search, and that a recent mail's text waits for the archive", async () => {
    const bad = decodeEntities(await (await getPage("/admin/mail?to=nobody&month=2026-10", cookie)).text());
    expect(bad).toContain(MAIL_SEARCH_MESSAGES.recipient);
    const badMonth = decodeEntities(
      await (await getPage("/admin/mail?to=a%40example.com&month=2026-13", cookie)).text(),
    );
    expect(badMonth).toContain(MAIL_SEARCH_MESSAGES.month);
    // A year of two digits written with four is not a month any mail was queued in.
    const ancient = decodeEntities(
      await (await getPage("/admin/mail?to=a%40example.com&month=0026-10", cookie)).text(),
    );
    expect(ancient).toContain(MAIL_SEARCH_MESSAGES.month);
    const recent = Date.now();
    await mail("recent@example.com", "Recent Name", delivered(recent));
    const month = monthOf(recent);
    const page = decodeEntities(
      await (await getPage(`/admin/mail?to=recent%40example.com&month=${month}`, cookie)).text(),
    );
    expect(page).toContain("In the outbox");
    expect(page).not.toContain("Recent Name");
  });
});
