import { DurableObject } from "cloudflare:workers";
import { and, asc, eq, gt } from "drizzle-orm";
import { type FeedEvent, type FeedHub, feedTransactionColumns } from "../../app/lib/realtime";
import { createDb, schema } from "../../app/server/db.server";
import type { WorkerBindings } from "../../app/server/env.server";

/** Close codes a peer may report but nobody may send (RFC 6455 §7.4.1). */
const RESERVED_CLOSE_CODES = new Set([1005, 1006, 1015]);

export const LISTENER_ROLE_HEADER = "X-Listener-Role";
export const LISTENER_ID_HEADER = "X-Listener-Id";
/** For a client feed: whose transactions to replay to a socket that reconnects with `?since=`. */
export const FEED_OWNER_HEADER = "X-Feed-Owner";
const MAX_REPLAY = 500;

/**
 * A broadcast hub on the hibernation API: sockets survive the object being evicted, heartbeats are
 * answered without waking it, and each socket is tagged with who listens so that a sign-out or a
 * suspension can close exactly that listener's sockets. The Worker checks session and role before it
 * forwards an upgrade here; the object trusts the tags it is given. D1 stays the source of truth:
 * events are hints that make pages refresh what they show.
 */
export class FeedObject extends DurableObject<WorkerBindings> implements FeedHub {
  constructor(ctx: DurableObjectState, env: WorkerBindings) {
    super(ctx, env);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a websocket upgrade", { status: 426 });
    }
    const role = request.headers.get(LISTENER_ROLE_HEADER) ?? "unknown";
    const listenerId = request.headers.get(LISTENER_ID_HEADER) ?? "unknown";
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [`role:${role}`, `listener:${listenerId}`]);

    // Catch-up: the socket is accepted first, so a row committed from now on arrives live; the rows committed
    // before are read from D1. The page merges by id, so a row that comes both ways is shown once.
    const owner = request.headers.get(FEED_OWNER_HEADER);
    const since = Number(new URL(request.url).searchParams.get("since"));
    if (owner && Number.isInteger(since) && since >= 0 && new URL(request.url).searchParams.has("since")) {
      this.ctx.waitUntil(this.replay(server, owner, since));
    }
    return new Response(null, { status: 101, webSocket: client });
  }

  private async replay(socket: WebSocket, owner: string, since: number): Promise<void> {
    const t = schema.transactions;
    const rows = await createDb(this.env.DB)
      .select(feedTransactionColumns(t))
      .from(t)
      .where(and(eq(t.userId, owner), gt(t.id, since)))
      .orderBy(asc(t.id))
      .limit(MAX_REPLAY);
    for (const transaction of rows) {
      const event: FeedEvent = { type: "transaction.created", transaction };
      try {
        socket.send(JSON.stringify(event));
      } catch {
        return; // closed meanwhile
      }
    }
  }

  publish(event: FeedEvent): number {
    const message = JSON.stringify(event);
    let delivered = 0;
    for (const socket of this.ctx.getWebSockets()) {
      try {
        socket.send(message);
        delivered++;
      } catch {
        // A socket that is closing cannot receive; its close handler cleans it up.
      }
    }
    return delivered;
  }

  disconnectListener(listenerId: string, reason = "Session ended"): number {
    const sockets = this.ctx.getWebSockets(`listener:${listenerId}`);
    for (const socket of sockets) socket.close(4001, reason);
    return sockets.length;
  }

  listenerCount(): number {
    return this.ctx.getWebSockets().length;
  }

  async webSocketMessage(): Promise<void> {
    // Listeners only receive. Heartbeats ("ping") are answered by the auto-response without waking us.
  }

  async webSocketClose(socket: WebSocket, code: number, reason: string): Promise<void> {
    socket.close(RESERVED_CLOSE_CODES.has(code) ? 1000 : code, reason);
  }

  async webSocketError(socket: WebSocket): Promise<void> {
    socket.close(1011, "Socket error");
  }
}

/** One per client, addressed by idFromName(user id): that client's transaction feed. */
export class ClientFeed extends FeedObject {}

/** A single instance (idFromName("desk")): pending requests and decisions for the admin desk. */
export class AdminDesk extends FeedObject {}
