import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type FeedEvent, mergeTransactions, parseFeedEvent } from "~/lib/realtime";
import worker from "../../workers/app";
import { listen, until } from "../support/feeds";
import {
  createUser,
  ensureDepositWallets,
  formRequest,
  insertTransaction,
  postForm,
  sessionCookieFor,
} from "../support/fixtures";

beforeAll(async () => {
  await ensureDepositWallets();
});

const transactionEvents = (events: FeedEvent[]) =>
  events.flatMap((e) => ("transaction" in e ? [{ type: e.type, ...e.transaction }] : []));

describe("realtime feeds", () => {
  it("tell an admin watching a client about the client's deposit, then about its approval", async () => {
    const admin = await createUser({ role: "admin" });
    const client = await createUser();
    const adminCookie = await sessionCookieFor(admin.id);
    const watcher = await listen(`/ws/clients/${client.id}`, adminCookie);
    const desk = await listen("/ws/admin", adminCookie);
    expect(watcher.status).toBe(101);
    expect(desk.status).toBe(101);

    const deposit = await postForm(
      "/deposit",
      { amount: "42.50", walletType: "BTC", idempotencyKey: crypto.randomUUID() },
      { cookie: await sessionCookieFor(client.id) },
    );
    expect(deposit.status).toBe(302);
    await until(() => watcher.events.length === 1 && desk.events.length === 1, "the created event");
    const [created] = transactionEvents(watcher.events);
    expect(created).toMatchObject({
      type: "transaction.created",
      userId: client.id,
      amountCents: 4_250,
      status: "pending",
    });

    await postForm(
      `/user/${client.id}`,
      { intent: "approve", transactionId: String(created?.id) },
      { cookie: adminCookie },
    );
    await until(() => watcher.events.length === 2, "the updated event");
    expect(transactionEvents(watcher.events)[1]).toMatchObject({
      type: "transaction.updated",
      id: created?.id,
      status: "approved",
    });
    expect(desk.events.map((e) => e.type)).toEqual(["transaction.created", "transaction.updated"]);
  });

  it("let a client listen to their own feed only", async () => {
    const client = await createUser();
    const other = await createUser();
    const cookie = await sessionCookieFor(client.id);
    expect((await listen(`/ws/clients/${client.id}`, cookie)).status).toBe(101);
    const refused = await listen(`/ws/clients/${other.id}`, cookie);
    expect(refused.status).toBe(403);
    expect(refused.socket).toBeFalsy();
    expect((await listen("/ws/admin", cookie)).status).toBe(403);
  });

  it("refuse a visitor and a cross-origin upgrade", async () => {
    const client = await createUser();
    expect((await listen(`/ws/clients/${client.id}`, null)).status).toBe(401);
    const cookie = await sessionCookieFor(client.id);
    expect((await listen(`/ws/clients/${client.id}`, cookie, "https://evil.example")).status).toBe(403);
    expect((await listen(`/ws/clients/${client.id}`, cookie, null)).status).toBe(403);
  });

  it("replay exactly the rows after `since` on reconnect, then live ones, without duplicates", async () => {
    const admin = await createUser({ role: "admin" });
    const client = await createUser();
    const ids: number[] = [];
    for (let i = 1; i <= 5; i++) ids.push(await insertTransaction(client.id, { amountCents: i * 100 }));
    const since = ids[1] ?? 0;
    const watcher = await listen(`/ws/clients/${client.id}?since=${since}`, await sessionCookieFor(admin.id));
    await until(() => watcher.events.length === 3, "the replay");
    expect(transactionEvents(watcher.events).map((e) => e.id)).toEqual(ids.slice(2));

    await postForm(
      "/deposit",
      { amount: "9.99", walletType: "ETH", idempotencyKey: crypto.randomUUID() },
      { cookie: await sessionCookieFor(client.id) },
    );
    await until(() => watcher.events.length === 4, "the live event");
    const seen = transactionEvents(watcher.events).map((e) => e.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, 3)).toEqual(ids.slice(2));
    expect(seen[3]).toBeGreaterThan(ids[4] ?? 0);
  });

  it("close a client's sockets when they sign out", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const own = await listen(`/ws/clients/${client.id}`, cookie);
    const closed = new Promise<number>((resolve) => own.socket?.addEventListener("close", (e) => resolve(e.code)));
    await postForm("/logout", {}, { cookie });
    expect(await closed).toBe(4001);
  });

  it("never fail the write when publishing fails", async () => {
    const client = await createUser();
    const broken = {
      idFromName: () => {
        throw new Error("Durable Object unavailable");
      },
    } as unknown as DurableObjectNamespace;
    const ctx = createExecutionContext();
    const request = formRequest(
      "/deposit",
      { amount: "15", walletType: "BTC", idempotencyKey: crypto.randomUUID() },
      { cookie: await sessionCookieFor(client.id) },
    );
    const response = await worker.fetch(request, { ...env, CLIENT_FEED: broken, ADMIN_DESK: broken }, ctx);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(302);
    const row = await env.DB.prepare("SELECT amount_cents, status FROM transactions WHERE user_id = ?")
      .bind(client.id)
      .first();
    expect(row).toEqual({ amount_cents: 1_500, status: "pending" });
  });
});

describe("feed events", () => {
  const transaction = {
    id: 7,
    userId: "u1",
    transactionType: "deposit",
    amountCents: 100,
    status: "pending",
    createdAt: 1,
    tradingPair: null,
    stock: null,
  };

  it("accept well-formed events and drop unknown fields", () => {
    expect(parseFeedEvent({ type: "transaction.created", transaction: { ...transaction, extra: "x" } })).toEqual({
      type: "transaction.created",
      transaction,
    });
    expect(parseFeedEvent({ type: "client.deleted", userId: "u1" })).toEqual({ type: "client.deleted", userId: "u1" });
  });

  it.each([
    ["an unknown type", { type: "transaction.deleted", transaction }],
    ["a negative amount", { type: "transaction.created", transaction: { ...transaction, amountCents: -1 } }],
    ["an unknown status", { type: "transaction.updated", transaction: { ...transaction, status: "void" } }],
    ["a missing transaction", { type: "transaction.created" }],
    ["not an object", "ping"],
  ])("refuse %s", (_name, value) => {
    expect(parseFeedEvent(value)).toBeNull();
  });
});

describe("merging feed rows", () => {
  it("puts new rows on top, replaces updated ones in place, and never shows a row twice", () => {
    const rows = [
      { id: 3, status: "pending" },
      { id: 1, status: "approved" },
    ];
    const merged = mergeTransactions(rows, [
      { id: 4, status: "pending" },
      { id: 3, status: "approved" },
      { id: 4, status: "rejected" },
      { id: 5, status: "pending" },
    ]);
    expect(merged).toEqual([
      { id: 5, status: "pending" },
      { id: 4, status: "rejected" },
      { id: 3, status: "approved" },
      { id: 1, status: "approved" },
    ]);
  });
});
