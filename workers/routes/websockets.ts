import { type Context, Hono } from "hono";
import { may } from "../../app/lib/permissions";
import { ADMIN_DESK_NAME } from "../../app/server/realtime.server";
import { getSessionUser, mustSetUpTwoFactor, type SessionUser } from "../../app/server/session.server";
import {
  FEED_BOOKMARK_HEADER,
  FEED_OWNER_HEADER,
  LISTENER_EXPIRES_HEADER,
  LISTENER_ID_HEADER,
  LISTENER_ROLE_HEADER,
  LISTENER_SESSION_HEADER,
} from "../realtime/feed-object";
import type { AppBindings } from "../types";

/**
 * Websocket upgrades. Origin, session and role are checked here, before anything reaches a Durable Object:
 * admins whose roles read clients (app/lib/permissions.ts) may listen to any client's feed and to the desk; a
 * client only to their own feed.
 */
const readsClients = (user: SessionUser) => user.role === "admin" && may(user.roles, "readClients");

type Gate = { ok: true; user: SessionUser } | { ok: false; response: Response };

async function gate(c: Context<AppBindings>, allowed: (user: SessionUser) => boolean): Promise<Gate> {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
    return { ok: false, response: c.json({ error: "Expected a websocket upgrade" }, 426) };
  }
  // Browsers always send Origin on a websocket handshake; another site's page must not ride on our cookie.
  if (c.req.header("Origin") !== new URL(c.req.url).origin) {
    return { ok: false, response: c.json({ error: "Cross-origin upgrade refused" }, 403) };
  }
  const user = await getSessionUser(c.req.raw, { db: c.var.db, env: c.var.env });
  if (!user) return { ok: false, response: c.json({ error: "Not signed in" }, 401) };
  // An admin who has not set up two-factor sign-in yet may open nothing else, feeds included.
  if (mustSetUpTwoFactor(user)) {
    return { ok: false, response: c.json({ error: "Two-factor authentication must be set up first" }, 403) };
  }
  if (!allowed(user)) return { ok: false, response: c.json({ error: "Forbidden" }, 403) };
  return { ok: true, user };
}

async function forward(c: Context<AppBindings>, stub: DurableObjectStub, user: SessionUser, owner?: string) {
  const headers = new Headers({
    Upgrade: "websocket",
    [LISTENER_ROLE_HEADER]: user.role,
    [LISTENER_ID_HEADER]: user.id,
    [LISTENER_SESSION_HEADER]: user.sessionId,
    [LISTENER_EXPIRES_HEADER]: String(user.expiresAt),
  });
  if (owner) headers.set(FEED_OWNER_HEADER, owner);
  const bookmark = c.var.d1Bookmark();
  if (bookmark) headers.set(FEED_BOOKMARK_HEADER, bookmark);
  const answer = await stub.fetch(new Request(c.req.url, { headers }));
  // A response fetched from the object has immutable headers: the Worker answers with its own copy, which
  // the security headers middleware completes like any other response.
  return new Response(answer.body, { status: answer.status, headers: answer.headers, webSocket: answer.webSocket });
}

export const websockets = new Hono<AppBindings>()
  .get("/clients/:id", async (c) => {
    const clientId = c.req.param("id");
    const checked = await gate(c, (user) => readsClients(user) || user.id === clientId);
    if (!checked.ok) return checked.response;
    const stub = c.env.CLIENT_FEED.get(c.env.CLIENT_FEED.idFromName(clientId));
    return forward(c, stub, checked.user, clientId);
  })
  .get("/admin", async (c) => {
    const checked = await gate(c, readsClients);
    if (!checked.ok) return checked.response;
    return forward(c, c.env.ADMIN_DESK.get(c.env.ADMIN_DESK.idFromName(ADMIN_DESK_NAME)), checked.user);
  })
  .all("*", (c) => c.json({ error: "Not found" }, 404));
