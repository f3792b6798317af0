import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { transactionReference } from "~/lib/reference";
import { listen, until } from "../support/feeds";
import { createUser, getPage, insertTransaction, postForm, sessionCookieFor, signedInAdmin } from "../support/fixtures";
import { bellCount, notificationsOf } from "../support/notifications";
import { testIdTexts } from "../support/places";

/**
 * The client's notification centre: the list (their own, newest first, linked to each subject), marking one or all
 * read (only their own), the bell's count on every page, and the feed that tells their open pages to read it again.
 */
type Admin = Awaited<ReturnType<typeof signedInAdmin>>;
let admin: Admin;

beforeAll(async () => {
  admin = await signedInAdmin();
});

/** A client with `count` approved deposits, each notified; their cookie and the transactions' ids. */
async function notifiedClient(count: number) {
  const client = await createUser();
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const id = await insertTransaction(client.id, { amountCents: 1_000 * (i + 1) });
    const decided = await postForm(
      `/user/${client.id}`,
      { intent: "approve", transactionId: String(id) },
      { cookie: admin.cookie },
    );
    expect(decided.status).toBe(200);
    ids.push(id);
  }
  return { ...client, ids, cookie: await sessionCookieFor(client.id) };
}

describe("/notifications", () => {
  it("lists the client's own, newest first, each linked to its subject and marked unread", async () => {
    const client = await notifiedClient(2);
    const other = await notifiedClient(1);
    const page = await getPage("/notifications", client.cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    const links = [...html.matchAll(/href="\/transactions\?reference=(TX-[0-9A-Z]{6})"/g)].map((m) => m[1]);
    expect(links).toEqual([transactionReference(client.ids[1] ?? 0), transactionReference(client.ids[0] ?? 0)]);
    // Another client's request is theirs alone: its reference reaches this page nowhere, its data included.
    expect(html).not.toContain(transactionReference(other.ids[0] ?? 0));
    const items = testIdTexts(html, "notification");
    expect(items.filter((item) => item.startsWith("Unread"))).toHaveLength(2);
    for (const item of items) expect(item).toContain("Deposit request approved");
  });

  it("pages by keyset, 20 a page", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const values = Array.from(
      { length: 23 },
      (_, i) => `('${client.id}', 'security_notice', 'security:new_browser', '{"event":"new_browser"}', ${1_000 + i})`,
    );
    await env.DB.prepare(
      `INSERT INTO notifications (user_id, kind, subject, data, created_at) VALUES ${values.join(", ")}`,
    ).run();
    const first = await (await getPage("/notifications", cookie)).text();
    expect(first.match(/data-testid="notification"/g)).toHaveLength(20);
    const next = /href="[^"]*\?after=([0-9.]+)"/.exec(first)?.[1];
    expect(next).toBeTruthy();
    const second = await (await getPage(`/notifications?after=${next}`, cookie)).text();
    expect(second.match(/data-testid="notification"/g)).toHaveLength(3);
    expect(second).toContain('rel="prev"');
  });

  it("sends a signed-out visitor to sign in and an admin to the back office", async () => {
    const signedOut = await getPage("/notifications");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/login/);
    const asAdmin = await getPage("/notifications", admin.cookie);
    expect(asAdmin.status).toBe(302);
    expect(asAdmin.headers.get("Location")).toBe("/admin");
  });
});

describe("marking read", () => {
  it("marks one of the client's own read, and the bell counts one fewer", async () => {
    const client = await notifiedClient(2);
    expect(bellCount(await (await getPage("/dashboard", client.cookie)).text())).toBe(2);
    const [first] = await notificationsOf(client.id);
    const done = await postForm("/notifications", { intent: "read", id: String(first?.id) }, { cookie: client.cookie });
    expect(done.status).toBe(200);
    expect((await notificationsOf(client.id)).map((n) => n.readAt !== null)).toEqual([true, false]);
    expect(bellCount(await (await getPage("/dashboard", client.cookie)).text())).toBe(1);
  });

  it("changes nothing for another client's notification, nor for a signed-out request", async () => {
    const client = await notifiedClient(1);
    const other = await notifiedClient(1);
    const [theirs] = await notificationsOf(other.id);
    const refused = await postForm(
      "/notifications",
      { intent: "read", id: String(theirs?.id) },
      { cookie: client.cookie },
    );
    expect(refused.status).toBe(404);
    const signedOut = await postForm("/notifications", { intent: "read", id: String(theirs?.id) });
    expect(signedOut.status).toBe(302);
    const allBySomeoneElse = await postForm("/notifications", { intent: "read-all" }, { cookie: client.cookie });
    expect(allBySomeoneElse.status).toBe(200);
    expect((await notificationsOf(other.id)).map((n) => n.readAt)).toEqual([null]);
    expect((await notificationsOf(client.id)).map((n) => n.readAt !== null)).toEqual([true]);
  });

  it("refuses an id that is not a number and an unknown intent", async () => {
    const client = await notifiedClient(1);
    expect(
      (await postForm("/notifications", { intent: "read", id: "1 OR 1=1" }, { cookie: client.cookie })).status,
    ).toBe(404);
    expect((await postForm("/notifications", { intent: "delete" }, { cookie: client.cookie })).status).toBe(400);
    expect((await notificationsOf(client.id)).map((n) => n.readAt)).toEqual([null]);
  });

  it("marks all of them read, and the bell shows none", async () => {
    const client = await notifiedClient(3);
    const done = await postForm("/notifications", { intent: "read-all" }, { cookie: client.cookie });
    expect(done.status).toBe(200);
    expect((await notificationsOf(client.id)).every((n) => n.readAt !== null)).toBe(true);
    expect(bellCount(await (await getPage("/dashboard", client.cookie)).text())).toBe(0);
  });
});

describe("the bell", () => {
  it("is a client's only: a visitor and an admin have none", async () => {
    expect(bellCount(await (await getPage("/about-us")).text())).toBeNull();
    expect(bellCount(await (await getPage("/admin", admin.cookie)).text())).toBeNull();
  });
});

describe("the client's feed", () => {
  it("tells the client's open pages of a decision (they read the count again) and of notifications read", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const feed = await listen(`/ws/clients/${client.id}`, cookie);
    expect(feed.status).toBe(101);
    const id = await insertTransaction(client.id, { amountCents: 5_000 });
    await postForm(`/user/${client.id}`, { intent: "approve", transactionId: String(id) }, { cookie: admin.cookie });
    await until(() => feed.events.length === 1, "the decision's event");
    expect(feed.events[0]).toMatchObject({ type: "transaction.updated" });
    // What the page reads again on that event: the bell has risen.
    expect(bellCount(await (await getPage("/transactions", cookie)).text())).toBe(1);

    await postForm("/notifications", { intent: "read-all" }, { cookie });
    await until(() => feed.events.length === 2, "the read event");
    expect(feed.events[1]).toEqual({ type: "notifications.changed", userId: client.id });
  });
});
