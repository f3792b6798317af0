import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { MAIL_SEARCH_MESSAGES } from "~/server/admin/mail-search.server";
import { archiveDeliveredMail } from "~/server/mail/archive.server";
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
const removeAll = (now = NOW) => untilSettled(() => removeOldArchivedMailRows(db, env.MAIL_ARCHIVE, now), 50);
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
