import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { MAIL_SEARCH_MESSAGES, searchMail } from "~/server/admin/mail-search.server";
import { storeBatchOnce } from "~/server/archive-objects.server";
import { type ArchivedMail, archiveDeliveredMail } from "~/server/mail/archive.server";
import { mailBody } from "~/server/mail/archive-read.server";
import { firstMonthKeptInD1, removeOldArchivedMailRows } from "~/server/mail/old-rows.server";
import { delivered, mail, untilSettled } from "../support/archive-runs";
import { createUser, db, dbRefusal, getPage, sessionCookieFor } from "../support/fixtures";
import { decodeEntities } from "../support/tables";

/**
 * Archived mail's compact rows leave D1 once their month ended 13 months ago: the archive object keeps each mail
 * whole, `mail_archive_recipients` says which objects hold a recipient's mail of a month, and /admin/mail's search
 * finds and opens them as before. Younger rows, and rows not archived, stay.
 */
const NOW = Date.now();
const DAY = 86_400_000;
/** A month that ended 13 months ago (its rows leave), and one inside the 13 months (its rows stay). */
const OLD = Date.UTC(new Date(NOW).getUTCFullYear(), new Date(NOW).getUTCMonth() - 15, 10, 9);
const KEPT = Date.UTC(new Date(NOW).getUTCFullYear(), new Date(NOW).getUTCMonth() - 11, 10, 9);
const monthOf = (at: number) => new Date(at).toISOString().slice(0, 7);

const archiveAll = () => untilSettled(() => archiveDeliveredMail(db, env.MAIL_ARCHIVE, NOW), 50);
/** Runs the cron's step until it empties no more objects, as successive minutes would; the rows that left. */
async function removeAll(now = NOW) {
  let removed = 0;
  for (let run = 0; run < 50; run++) {
    const step = await removeOldArchivedMailRows(db, env.MAIL_ARCHIVE, now);
    removed += step.removed;
    if (step.emptied === 0) return removed;
  }
  throw new Error("the step did not settle");
}
const inD1 = async (ids: number[]) =>
  (await db.all<{ id: number }>(sql`SELECT id FROM email_outbox WHERE id IN ${ids} ORDER BY id`)).map((r) => r.id);
const search = async (cookie: string, to: string, month: string, open?: number) =>
  decodeEntities(
    await (
      await getPage(
        `/admin/mail?${new URLSearchParams({ to, month, ...(open ? { open: String(open) } : {}) })}`,
        cookie,
      )
    ).text(),
  );

let cookie: string;
beforeAll(async () => {
  const owner = await createUser({ role: "admin" });
  cookie = await sessionCookieFor(owner.id);
});

describe("archived mail 13 months on", () => {
  it("leaves D1, and the search still lists every mail of the month and opens its text", async () => {
    expect(monthOf(OLD) < firstMonthKeptInD1(NOW)).toBe(true);
    expect(monthOf(KEPT) >= firstMonthKeptInD1(NOW)).toBe(true);
    const old = [
      await mail("leaving@example.com", "First Old", delivered(OLD)),
      await mail("leaving@example.com", "Second Old", delivered(OLD + DAY, "captured")),
      await mail("someone-else@example.com", "Not Theirs", delivered(OLD + 2 * DAY)),
    ];
    const kept = await mail("leaving@example.com", "Kept Name", delivered(KEPT));
    const pending = await mail("leaving@example.com", "Still Pending", { createdAt: OLD + 3 * DAY });
    await archiveAll();
    expect(await removeAll()).toBe(3);

    expect(await inD1([...old, kept, pending])).toEqual([kept, pending]);
    const listed = await db.all<{ toAddress: string; month: string }>(
      sql`SELECT to_address AS toAddress, month FROM mail_archive_recipients ORDER BY to_address`,
    );
    expect(listed).toEqual([
      { toAddress: "leaving@example.com", month: monthOf(OLD) },
      { toAddress: "someone-else@example.com", month: monthOf(OLD) },
    ]);

    const page = await search(cookie, "Leaving@Example.com", monthOf(OLD));
    expect(page).toContain(`Open #${old[0]}`);
    expect(page).toContain(`Open #${old[1]}`);
    expect(page).not.toContain(`Open #${old[2]}`);
    // The pending one is still in D1, found there, and not opened (its body is not archived).
    expect(page).toContain("In the outbox");
    expect(page).not.toContain(`Open #${pending}`);
    expect(page).not.toContain("First Old");
    expect(await search(cookie, "leaving@example.com", monthOf(OLD), old[0])).toContain("First Old");
    expect(await search(cookie, "leaving@example.com", monthOf(OLD), old[1])).toContain("Second Old");
    // Another recipient's mail does not open from this recipient's list.
    expect(await search(cookie, "leaving@example.com", monthOf(OLD), old[2])).not.toContain("Not Theirs");
    expect(await search(cookie, "leaving@example.com", monthOf(KEPT), kept)).toContain("Kept Name");

    // Run again: nothing more leaves; a year later, the kept month's rows go too.
    expect(await removeAll()).toBe(0);
    expect(await removeAll(NOW + 365 * DAY)).toBe(1);
    expect(await inD1([kept])).toEqual([]);
    expect(await search(cookie, "leaving@example.com", monthOf(KEPT), kept)).toContain("Kept Name");
    expect(await mailBody(db, env.MAIL_ARCHIVE, kept)).toEqual({ ok: false, problem: "not-found" });
  });

  it("takes an object's rows by what it holds, whatever the order of their ids and times", async () => {
    // Queued in one order, dated in the other: the object lists them by time, so its first and last are not its
    // lowest and highest ids.
    const later = await mail("shuffled@example.com", "Later", delivered(OLD - 10 * DAY));
    const between = await mail("other-shuffled@example.com", "Between", delivered(OLD - 15 * DAY));
    const earlier = await mail("shuffled@example.com", "Earlier", delivered(OLD - 20 * DAY));
    await archiveAll();
    expect(await removeAll()).toBe(3);
    expect(await inD1([later, between, earlier])).toEqual([]);
    const page = await search(cookie, "shuffled@example.com", monthOf(OLD - 10 * DAY));
    expect(page).toContain(`Open #${later}`);
    expect(page).toContain(`Open #${earlier}`);
    expect(page).not.toContain(`Open #${between}`);
  });

  it("lists each mail once when two archive runs wrote objects that overlap", async () => {
    // Two runs at once: the first strips a and b into its object; the second wrote a, b and c into its own (c
    // delivered in between), and strips only c, a and b being archived already.
    const at = OLD - 100 * DAY;
    const a = await mail("overlap@example.com", "Mail A", delivered(at));
    const b = await mail("overlap@example.com", "Mail B", delivered(at + 60_000));
    const c = await mail("overlap@example.com", "Mail C", { createdAt: at + 120_000 });
    const cDelivered = delivered(at + 120_000);
    const rows = await db.all<ArchivedMail>(
      sql`SELECT id, to_address AS toAddress, template, status, attempts, provider_id AS providerId,
                 dedupe_key AS dedupeKey, created_at AS createdAt, sent_at AS sentAt, payload
          FROM email_outbox WHERE id IN ${[a, b, c]} ORDER BY created_at`,
    );
    const wider = await storeBatchOnce(
      env.MAIL_ARCHIVE,
      "mail",
      monthOf(at),
      rows.map((row) => ({
        ...row,
        ...(row.id === c
          ? { status: "sent", sentAt: cDelivered.sentAt ?? null, providerId: cDelivered.providerId ?? null }
          : {}),
        payload: JSON.parse(row.payload as string),
      })),
    );
    await archiveAll(); // a and b, in the first run's object
    await db.run(
      sql`INSERT INTO mail_archives (object_key, month, row_count, sha256, bytes, created_at)
          VALUES (${wider.objectKey}, ${monthOf(at)}, 3, ${wider.sha256}, ${wider.bytes}, ${NOW})`,
    );
    await db.run(
      sql`UPDATE email_outbox SET status = 'sent', sent_at = ${cDelivered.sentAt}, provider_id = ${cDelivered.providerId},
            payload = NULL, archive_id = (SELECT id FROM mail_archives WHERE object_key = ${wider.objectKey})
          WHERE id = ${c}`,
    );
    expect(await removeAll()).toBe(3);
    const page = await search(cookie, "overlap@example.com", monthOf(at));
    for (const id of [a, b, c]) expect(page.match(new RegExp(`Open #${id}<`, "g"))).toHaveLength(1);
    expect(await search(cookie, "overlap@example.com", monthOf(at), c)).toContain("Mail C");
  });

  it("leaves an object's rows in D1 while the object cannot be read back", async () => {
    const id = await mail("unread@example.com", "Unread Object", delivered(OLD - 60 * DAY));
    await archiveAll();
    const [object] = await db.all<{ objectKey: string }>(
      sql`SELECT a.object_key AS objectKey FROM email_outbox e JOIN mail_archives a ON a.id = e.archive_id
          WHERE e.id = ${id}`,
    );
    if (!object) throw new Error("not archived");
    const bytes = await (await env.MAIL_ARCHIVE.get(object.objectKey))?.arrayBuffer();
    await env.MAIL_ARCHIVE.delete(object.objectKey);
    expect(await removeAll()).toBe(0);
    expect(await inD1([id])).toEqual([id]);
    if (bytes) await env.MAIL_ARCHIVE.put(object.objectKey, bytes);
    expect(await removeAll()).toBe(1);
    expect(await inD1([id])).toEqual([]);
    expect(await search(cookie, "unread@example.com", monthOf(OLD - 60 * DAY), id)).toContain("Unread Object");
  });

  it("says so when an object of the month cannot be read, and lists the rest", async () => {
    const lost = await mail("unlucky@example.com", "Lost Object", delivered(OLD - 40 * DAY));
    await archiveAll();
    await removeAll();
    const [object] = await db.all<{ objectKey: string }>(
      sql`SELECT a.object_key AS objectKey FROM mail_archive_recipients r JOIN mail_archives a ON a.id = r.archive_id
          WHERE r.to_address = 'unlucky@example.com'`,
    );
    if (!object) throw new Error("no archive object listed");
    const bytes = await (await env.MAIL_ARCHIVE.get(object.objectKey))?.arrayBuffer();
    await env.MAIL_ARCHIVE.delete(object.objectKey);
    const page = await search(cookie, "unlucky@example.com", monthOf(OLD - 40 * DAY));
    expect(page).toContain(MAIL_SEARCH_MESSAGES.objectsUnreadable);
    expect(page).not.toContain(`Open #${lost}`);
    if (bytes) await env.MAIL_ARCHIVE.put(object.objectKey, bytes);
    expect(await search(cookie, "unlucky@example.com", monthOf(OLD - 40 * DAY))).toContain(`Open #${lost}`);
    // A bucket that fails (its read breaks off) is said the same way, never a page's error; and no row leaves for it.
    const failing = { get: async () => Promise.reject(new Error("stream broke off")) } as unknown as R2Bucket;
    const found = await searchMail(db, failing, { to: "unlucky@example.com", month: monthOf(OLD - 40 * DAY) });
    expect(found).toMatchObject({ mails: [], unreadable: MAIL_SEARCH_MESSAGES.objectsUnreadable });
    const stays = await mail("unlucky@example.com", "Stays", delivered(OLD - 45 * DAY));
    await archiveAll();
    expect(await removeOldArchivedMailRows(db, failing, NOW)).toEqual({ emptied: 0, removed: 0 });
    expect(await inD1([stays])).toEqual([stays]);
  });

  it("lets the database refuse to delete an archived row whose recipient is not listed for its object", async () => {
    const id = await mail("guarded@example.com", "Guarded", delivered(OLD - 80 * DAY));
    await archiveAll();
    expect(await dbRefusal(db.run(sql`DELETE FROM email_outbox WHERE id = ${id}`))).toMatch(
      /leaves D1 only once its recipient is listed/,
    );
    // Listed for another recipient, or another month, is not enough.
    await db.run(
      sql`INSERT INTO mail_archive_recipients (to_address, month, archive_id)
          SELECT 'someone@example.com', month, archive_id FROM email_outbox JOIN mail_archives a ON a.id = archive_id
          WHERE email_outbox.id = ${id}`,
    );
    expect(await dbRefusal(db.run(sql`DELETE FROM email_outbox WHERE id = ${id}`))).toMatch(/recipient is listed/);
    // A row not archived is not this guard's business.
    const fresh = await mail("guarded@example.com", "Fresh", delivered(NOW));
    await db.run(sql`DELETE FROM email_outbox WHERE id = ${fresh}`);
    expect(await inD1([id, fresh])).toEqual([id]);
  });
});
