import type { MiddlewareHandler } from "hono";
import { createDb } from "../../app/server/db.server";
import {
  bookmarkCookieName,
  bookmarkFromCookies,
  bookmarkSetCookie,
  openSession,
  sessionConstraint,
} from "../../app/server/db-session.server";
import { readAppEnv } from "../../app/server/env.server";
import type { AppBindings } from "../types";

/**
 * Validates the configuration and opens one D1 session per request (app/server/db-session.server.ts decides
 * where it starts), for every handler after it to read as `c.var.env` and `c.var.db`. A configuration that
 * does not validate fails here, loudly, before any handler runs.
 *
 * After the response, the session's bookmark goes back to the browser in a cookie, so that its next request
 * reads from a replica at least as fresh as what it just wrote or saw. It is written here rather than by
 * React Router: single fetch merges the headers of every loader of a page, and one cookie must not be set twice.
 */
export function requestContext(): MiddlewareHandler<AppBindings> {
  return async function requestContextMiddleware(c, next) {
    const env = readAppEnv(c.env);
    const cookieName = bookmarkCookieName(env);
    const incoming = bookmarkFromCookies(c.req.header("Cookie"), cookieName);
    const session = openSession(
      c.env.DB,
      sessionConstraint({ method: c.req.method, pathname: c.req.path, bookmark: incoming }),
    );
    c.set("env", env);
    c.set("db", createDb(session.client));
    c.set("d1Bookmark", session.bookmark);
    await next();

    // null: nothing was read (or D1 gives no bookmark). 101: a websocket handshake carries no cookies.
    const bookmark = session.bookmark();
    if (bookmark === null || bookmark === incoming || c.res.status === 101) return;
    const setCookie = bookmarkSetCookie(env, bookmark);
    try {
      c.res.headers.append("Set-Cookie", setCookie);
    } catch {
      // A response passed through from a fetch has immutable headers: answer with a copy.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.append("Set-Cookie", setCookie);
    }
  };
}
