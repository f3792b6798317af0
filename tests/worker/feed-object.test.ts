import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LISTENER_ID_HEADER, LISTENER_ROLE_HEADER } from "../../workers/realtime/feed-object";

async function connect(stub: DurableObjectStub, role: string, listenerId: string) {
  const response = await stub.fetch("http://feed/", {
    headers: { Upgrade: "websocket", [LISTENER_ROLE_HEADER]: role, [LISTENER_ID_HEADER]: listenerId },
  });
  expect(response.status).toBe(101);
  const socket = response.webSocket;
  if (!socket) throw new Error("no websocket in the upgrade response");
  socket.accept();
  const messages: string[] = [];
  const closed = new Promise<CloseEvent>((resolve) => socket.addEventListener("close", resolve));
  socket.addEventListener("message", (event) => {
    messages.push(String(event.data));
  });
  return { socket, messages, closed };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe("client feed Durable Object", () => {
  it("broadcasts a published event to every connected socket", async () => {
    const feed = env.CLIENT_FEED.get(env.CLIENT_FEED.idFromName("client-broadcast"));
    const admin = await connect(feed, "admin", "admin-1");
    const client = await connect(feed, "user", "client-1");
    const event = { type: "transaction.created", transaction: { id: 7, amountCents: 1_000 } };

    const delivered = await (feed as unknown as { publish(e: unknown): Promise<number> }).publish(event);
    expect(delivered).toBe(2);
    await until(() => admin.messages.length > 0 && client.messages.length > 0);
    expect(admin.messages.map((m) => JSON.parse(m))).toEqual([event]);
    expect(client.messages.map((m) => JSON.parse(m))).toEqual([event]);
  });

  it("answers heartbeats and closes only the sockets of a listener that is signed out", async () => {
    const feed = env.CLIENT_FEED.get(env.CLIENT_FEED.idFromName("client-disconnect"));
    const stays = await connect(feed, "admin", "admin-2");
    const leaves = await connect(feed, "user", "client-2");
    stays.socket.send("ping");
    await until(() => stays.messages.includes("pong"));
    expect(stays.messages).toContain("pong");

    const rpc = feed as unknown as {
      disconnectListener(id: string): Promise<number>;
      listenerCount(): Promise<number>;
    };
    expect(await rpc.disconnectListener("client-2")).toBe(1);
    const closeEvent = await leaves.closed;
    expect(closeEvent.code).toBe(4001);
    let remaining = await rpc.listenerCount();
    for (let i = 0; i < 50 && remaining !== 1; i++) remaining = await rpc.listenerCount();
    expect(remaining).toBe(1);
  });

  it("refuses a plain request that is not a websocket upgrade", async () => {
    const desk = env.ADMIN_DESK.get(env.ADMIN_DESK.idFromName("desk"));
    const response = await desk.fetch("http://desk/");
    expect(response.status).toBe(426);
  });
});
