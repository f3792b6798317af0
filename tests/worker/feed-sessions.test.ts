import { runDurableObjectAlarm } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type FeedEvent, parseFeedEvent } from "~/lib/realtime";
import { sha256Hex } from "~/server/crypto.server";
import { createUser, ORIGIN, postForm, sessionCookieFor } from "../support/fixtures";

const newKey = () => crypto.randomUUID();

/** The stored id of the session behind a cookie (the hash of the token the cookie carries). */
async function sessionIdOf(cookie: string) {
  const value = decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1));
  return sha256Hex(JSON.parse(atob(value)) as string);
}

/** A socket on a feed through the Worker, as a page opens it, with what it receives and how it closes. */
async function listen(path: string, cookie: string) {
  const response = await exports.default.fetch(`${ORIGIN}${path}`, {
    headers: { Upgrade: "websocket", Cookie: cookie, Origin: ORIGIN },
  });
  const socket = response.webSocket;
  if (!socket) throw new Error(`no websocket for ${path}: ${response.status}`);
  socket.accept();
  const events: FeedEvent[] = [];
  socket.addEventListener("message", (message) => {
    const parsed = parseFeedEvent(JSON.parse(String(message.data)));
    if (parsed) events.push(parsed);
  });
  const closed = new Promise<number>((resolve) => socket.addEventListener("close", (event) => resolve(event.code)));
  return { socket, events, closed };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

/** An admin's entry on the client's ledger: one event on the client's feed and on the desk. */
async function entryFor(clientId: string, adminCookie: string) {
  const response = await postForm(
    `/user/${clientId}`,
    { intent: "entry", type: "deposit", amount: "5.00", idempotencyKey: newKey() },
    { cookie: adminCookie },
  );
  expect(response.status).toBe(200);
}

describe("a live feed and the session behind it", () => {
  it("stops when a password reset ends the session that opened it", async () => {
    const admin = await createUser({ role: "admin" });
    const adminCookie = await sessionCookieFor(admin.id);
    const victim = await createUser();
    const stolen = await listen(`/ws/clients/${victim.id}`, await sessionCookieFor(victim.id));

    await postForm("/forgot-password", { email: victim.email });
    const row = await env.DB.prepare(
      "SELECT payload FROM email_outbox WHERE to_address = ? AND template = 'password_reset' ORDER BY id DESC",
    )
      .bind(victim.email)
      .first<{ payload: string }>();
    const token = new URL(JSON.parse(row?.payload ?? "{}").resetUrl).searchParams.get("token") ?? "";
    await postForm("/reset-password", { token, password: "a-new-password", confirmPassword: "a-new-password" });

    await entryFor(victim.id, adminCookie);
    expect(await stolen.closed).toBe(4001);
    await settle();
    expect(stolen.events).toEqual([]);
  });

  it("closes only the signed-out device's socket: the same user's other device stays live", async () => {
    const admin = await createUser({ role: "admin" });
    const adminCookie = await sessionCookieFor(admin.id);
    const client = await createUser();
    const phone = await sessionCookieFor(client.id);
    const laptop = await sessionCookieFor(client.id);
    const phoneSocket = await listen(`/ws/clients/${client.id}`, phone);
    const laptopSocket = await listen(`/ws/clients/${client.id}`, laptop);
    await postForm("/logout", {}, { cookie: phone });
    expect(await phoneSocket.closed).toBe(4001);

    await entryFor(client.id, adminCookie);
    for (let i = 0; i < 100 && laptopSocket.events.length === 0; i++) await settle();
    expect(laptopSocket.events.map((event) => event.type)).toEqual(["transaction.created"]);
  });

  it("stops an admin's socket on a client's page when the admin signs out", async () => {
    const admin = await createUser({ role: "admin" });
    const watching = await sessionCookieFor(admin.id);
    const other = await sessionCookieFor((await createUser({ role: "admin" })).id);
    const client = await createUser();
    const socket = await listen(`/ws/clients/${client.id}`, watching);
    await postForm("/logout", {}, { cookie: watching });

    await entryFor(client.id, other);
    expect(await socket.closed).toBe(4001);
    await settle();
    expect(socket.events).toEqual([]);
  });

  it("keeps a socket whose session is alive, and closes one whose session expired, at the next event", async () => {
    const admin = await createUser({ role: "admin" });
    const adminCookie = await sessionCookieFor(admin.id);
    const client = await createUser();
    const alive = await listen(`/ws/clients/${client.id}`, await sessionCookieFor(client.id));
    const expiringCookie = await sessionCookieFor(client.id);
    const expiring = await listen(`/ws/clients/${client.id}`, expiringCookie);
    // The second session passes its absolute limit (as 12 hours later would).
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, await sessionIdOf(expiringCookie))
      .run();

    await entryFor(client.id, adminCookie);
    expect(await expiring.closed).toBe(4001);
    for (let i = 0; i < 100 && alive.events.length === 0; i++) await settle();
    expect(alive.events.map((event) => event.type)).toEqual(["transaction.created"]);
    expect(expiring.events).toEqual([]);
  });

  it("closes the socket of a session that went idle even when nothing is published", async () => {
    const client = await createUser();
    const socket = await listen(`/ws/clients/${client.id}`, await sessionCookieFor(client.id));
    await env.DB.prepare("UPDATE sessions SET last_seen_at = ? WHERE user_id = ?")
      .bind(Date.now() - 31 * 60 * 1000, client.id)
      .run();
    const feed = env.CLIENT_FEED.get(env.CLIENT_FEED.idFromName(client.id));
    expect(await runDurableObjectAlarm(feed)).toBe(true);
    expect(await socket.closed).toBe(4001);
  });
});
