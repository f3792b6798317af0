import { DurableObject } from "cloudflare:workers";
import { and, asc, eq, gt } from "drizzle-orm";
import { type FeedEvent, type FeedHub, feedTransactionColumns } from "../../app/lib/realtime";
import { createDb, schema } from "../../app/server/db.server";
import { isWellFormedBookmark } from "../../app/server/db-session.server";
import type { WorkerBindings } from "../../app/server/env.server";
import { liveSessionIds } from "../../app/server/session.server";

/** Close codes a peer may report but nobody may send (RFC 6455 §7.4.1). */
const RESERVED_CLOSE_CODES = new Set([1005, 1006, 1015]);

export const LISTENER_ROLE_HEADER = "X-Listener-Role";
export const LISTENER_ID_HEADER = "X-Listener-Id";
/** The listener's session (its stored id) and when it ends at the latest: a socket never outlives it. */
export const LISTENER_SESSION_HEADER = "X-Listener-Session";
export const LISTENER_EXPIRES_HEADER = "X-Listener-Expires";
/** How often the sockets' sessions are checked again when nothing is published (the idle timeout's scale). */
const SESSION_CHECK_MS = 5 * 60 * 1000;
/** Close code for a listener whose session ended: the page does not come back. */
const SESSION_ENDED = 4001;

interface SocketSession {
  sessionId: string;
  expiresAt: number;
}
/** For a client feed: whose transactions to replay to a socket that reconnects with `?since=`. */
export const FEED_OWNER_HEADER = "X-Feed-Owner";
/** The D1 bookmark of the Worker's request that opened the socket: the replay reads at least that fresh. */
export const FEED_BOOKMARK_HEADER = "X-Feed-Bookmark";
const MAX_REPLAY = 500;

/**
 * A broadcast hub on the hibernation API: sockets survive the object being evicted, heartbeats are
 * answered without waking it, and each socket is tagged with who listens so that a sign-out or a
 * suspension can close exactly that listener's sockets. The Worker checks session and role before it
 * forwards an upgrade here; the object trusts the tags it is given. D1 stays the source of truth:
 * events are hints that make pages refresh what they show.
 *
 * A socket lives no longer than the session that opened it: it carries the session's id and absolute expiry,
 * and before each publish (and on an alarm while nothing is published) the object asks D1 which of its
 * sockets' sessions are still alive, closing the others. A sign-out, a password change or reset, a
 * suspension, a deletion or an expiry thus stops the events even on an admin's socket on a client's feed.
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
    const sessionId = request.headers.get(LISTENER_SESSION_HEADER);
    this.ctx.acceptWebSocket(server, [
      `role:${role}`,
      `listener:${listenerId}`,
      ...(sessionId ? [`session:${sessionId}`] : []),
    ]);
    const expiresAt = Number(request.headers.get(LISTENER_EXPIRES_HEADER));
    if (sessionId && Number.isFinite(expiresAt)) {
      server.serializeAttachment({ sessionId, expiresAt } satisfies SocketSession);
      await this.scheduleCheck(Math.min(expiresAt, Date.now() + SESSION_CHECK_MS));
    }

    // Catch-up: the socket is accepted first, so a row committed from now on arrives live; the rows committed
    // before are read from D1. The page merges by id, so a row that comes both ways is shown once.
    const owner = request.headers.get(FEED_OWNER_HEADER);
    const since = Number(new URL(request.url).searchParams.get("since"));
    if (owner && Number.isInteger(since) && since >= 0 && new URL(request.url).searchParams.has("since")) {
      const bookmark = request.headers.get(FEED_BOOKMARK_HEADER);
      this.ctx.waitUntil(this.replay(server, owner, since, isWellFormedBookmark(bookmark) ? bookmark : null));
    }
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * Reads from a replica at least as fresh as the page that opened the socket (its bookmark), so a row the
   * page could see is not missed; anything newer arrives live. Without a bookmark, the replay reads anywhere.
   */
  private async replay(socket: WebSocket, owner: string, since: number, bookmark: string | null): Promise<void> {
    const t = schema.transactions;
    const rows = await createDb(this.env.DB.withSession(bookmark ?? "first-unconstrained"))
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

  async publish(event: FeedEvent): Promise<number> {
    const message = JSON.stringify(event);
    let delivered = 0;
    for (const socket of await this.liveSockets()) {
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
    for (const socket of sockets) socket.close(SESSION_ENDED, reason);
    return sockets.length;
  }

  /** Closes the sockets one session opened (a sign-out ends one session; the user's others stay live). */
  disconnectSession(sessionId: string, reason = "Session ended"): number {
    const sockets = this.ctx.getWebSockets(`session:${sessionId}`);
    for (const socket of sockets) socket.close(SESSION_ENDED, reason);
    return sockets.length;
  }

  /**
   * The sockets whose session is still alive; the others are closed. Sockets opened without a session (only
   * the Worker opens sockets here, always with one) are not checked.
   */
  private async liveSockets(now = Date.now()): Promise<WebSocket[]> {
    const sockets = this.ctx.getWebSockets().map((socket) => ({
      socket,
      session: socket.deserializeAttachment() as SocketSession | null,
    }));
    const ids = [...new Set(sockets.flatMap(({ session }) => (session ? [session.sessionId] : [])))];
    // At the primary: a replica that has not yet seen a new sign-in would close that session's sockets.
    const alive = await liveSessionIds(createDb(this.env.DB.withSession("first-primary")), ids, now);
    const live: WebSocket[] = [];
    for (const { socket, session } of sockets) {
      if (!session || (session.expiresAt > now && alive.has(session.sessionId))) live.push(socket);
      else socket.close(SESSION_ENDED, session.expiresAt > now ? "Session ended" : "Session expired");
    }
    return live;
  }

  private async scheduleCheck(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
  }

  /** Closes the sockets whose session ended or expired while nothing was published, then checks again later. */
  async alarm(): Promise<void> {
    const live = await this.liveSockets();
    const sessions = live.flatMap((socket) => {
      const session = socket.deserializeAttachment() as SocketSession | null;
      return session ? [session] : [];
    });
    if (sessions.length === 0) return;
    const soonest = Math.min(...sessions.map((session) => session.expiresAt));
    await this.scheduleCheck(Math.min(soonest, Date.now() + SESSION_CHECK_MS));
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
