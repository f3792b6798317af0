import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { sessionCookieName } from "../../app/server/session.server";
import type { AppBindings } from "../types";

/**
 * A response to a signed-in request (or one that signs in or out) depends on that session: it must never be
 * kept by a shared cache nor stay in the browser's cache after sign-out, where the back button or another
 * person at the same computer would find it. Such responses, `.data` ones included, say `private, no-store`.
 */
export function privateWhenSignedIn(): MiddlewareHandler<AppBindings> {
  return async function privateWhenSignedInMiddleware(c, next) {
    await next();
    const name = sessionCookieName(c.var.env);
    // Hono's parser trims names as the session reader does: "session =token" is a session too.
    const signedIn = getCookie(c, name) !== undefined;
    const changesSession = c.res.headers.getSetCookie().some((cookie) => cookie.startsWith(`${name}=`));
    // A websocket upgrade (101) is no page: nothing to cache.
    if ((!signedIn && !changesSession) || c.res.status === 101) return;
    c.res.headers.set("Cache-Control", "private, no-store");
  };
}
