import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAIL_CATEGORY_LIST, MAIL_PREFERENCE_MESSAGES } from "~/lib/mail-preferences";
import { deleteClientData } from "~/server/admin/deletion.server";
import { emailTemplates } from "~/server/mail/templates.server";
import {
  createUser,
  db,
  getPage,
  insertTransaction,
  postForm,
  sessionCookieFor,
  signedInAdmin,
} from "../support/fixtures";
import { changePassword, mailsTo, notificationsOf } from "../support/notifications";
import { statuses } from "../support/places";

/**
 * Mail preferences: a client turns optional mails off on /account; the outbox then does not queue them, while the
 * notification is written all the same; security and legal notices always go, whatever a form says.
 */
const savePreferences = (cookie: string, fields: Record<string, string>) =>
  postForm("/account", { intent: "mail-preferences", ...fields }, { cookie });

const stored = (userId: string) =>
  env.DB.prepare("SELECT category, wanted FROM mail_preferences WHERE user_id = ? ORDER BY category")
    .bind(userId)
    .all<{ category: string; wanted: number }>()
    .then((r) => r.results);

describe("saving preferences", () => {
  it("stores each category, says so, and shows the choice again", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const before = await (await getPage("/account", cookie)).text();
    expect(before).toMatch(/id="mail-requests"[^>]*checked/);

    const saved = await savePreferences(cookie, { entries: "on" });
    expect(saved.status).toBe(200);
    expect(statuses(await saved.text())).toContain(MAIL_PREFERENCE_MESSAGES.saved);
    expect(await stored(client.id)).toEqual([
      { category: "entries", wanted: 1 },
      { category: "orders", wanted: 0 },
      { category: "requests", wanted: 0 },
      { category: "verification", wanted: 0 },
    ]);
    const after = await (await getPage("/account", cookie)).text();
    expect(after).not.toMatch(/id="mail-requests"[^>]*checked/);
    expect(after).toMatch(/id="mail-entries"[^>]*checked/);
  });

  it("is a client's: an admin's form changes nothing", async () => {
    const admin = await signedInAdmin();
    const refused = await savePreferences(admin.cookie, {});
    expect(refused.status).toBe(400);
    expect(await stored(admin.id)).toEqual([]);
  });
});

describe("the outbox", () => {
  it("does not queue a request decision turned off, and still writes its notification", async () => {
    const admin = await signedInAdmin();
    const client = await createUser();
    await savePreferences(await sessionCookieFor(client.id), { entries: "on", verification: "on" });
    const id = await insertTransaction(client.id, { amountCents: 2_000 });
    const decided = await postForm(
      `/user/${client.id}`,
      { intent: "approve", transactionId: String(id) },
      { cookie: admin.cookie },
    );
    expect(decided.status).toBe(200);
    expect(await mailsTo(client.email, "request_decided")).toEqual([]);
    expect((await notificationsOf(client.id)).map((n) => n.subject)).toEqual([`transaction:${id}`]);
    // Retried, it still writes nothing more.
    await postForm(`/user/${client.id}`, { intent: "approve", transactionId: String(id) }, { cookie: admin.cookie });
    expect(await notificationsOf(client.id)).toHaveLength(1);
  });

  it("always queues a security notice, even after a forged form tried to turn it off", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const forged = await savePreferences(cookie, { security: "off", security_notice: "", legal: "off" });
    expect(forged.status).toBe(200);
    expect((await stored(client.id)).map((row) => row.category)).toEqual([
      "entries",
      "orders",
      "requests",
      "verification",
    ]);
    const changed = await changePassword(cookie, "another-pass-2026");
    expect(changed.status).toBe(200);
    expect(await mailsTo(client.email, "security_notice")).toHaveLength(1);
  });

  it("holds back exactly the optional templates of a category turned off, and no other template", async () => {
    const client = await createUser();
    await savePreferences(await sessionCookieFor(client.id), {});
    const optional = new Set(MAIL_CATEGORY_LIST.flatMap((category) => category.templates));
    for (const template of Object.keys(emailTemplates)) {
      // The trigger reads only the address and the template: a raw insert is enough to see what it holds back.
      await env.DB.prepare("INSERT INTO email_outbox (to_address, template, payload) VALUES (?, ?, '{}')")
        .bind(client.email, template)
        .run();
      const queued = (await mailsTo(client.email, template)).length;
      expect({ template, queued }).toEqual({ template, queued: optional.has(template) ? 0 : 1 });
    }
  });

  it("queues every optional template of a category the client wants", async () => {
    const client = await createUser();
    const categories = Object.fromEntries(MAIL_CATEGORY_LIST.map(({ category }) => [category, "on"]));
    await savePreferences(await sessionCookieFor(client.id), categories);
    for (const template of MAIL_CATEGORY_LIST.flatMap((category) => category.templates)) {
      await env.DB.prepare("INSERT INTO email_outbox (to_address, template, payload) VALUES (?, ?, '{}')")
        .bind(client.email, template)
        .run();
      expect(await mailsTo(client.email, template)).toHaveLength(1);
    }
  });
});

describe("deleting a client's data", () => {
  it("forgets their mail choices: a client who comes back is mailed as a new one", async () => {
    const client = await createUser();
    await savePreferences(await sessionCookieFor(client.id), {});
    expect(await stored(client.id)).toHaveLength(MAIL_CATEGORY_LIST.length);

    const admin = await createUser({ role: "admin" });
    expect(await deleteClientData(db, { id: admin.id, email: admin.email }, client.id)).toEqual({ ok: true });
    expect(await stored(client.id)).toEqual([]);
  });
});
