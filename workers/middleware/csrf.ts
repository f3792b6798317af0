import type { MiddlewareHandler } from "hono";
import type { AppBindings } from "../types";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests sent by another site. Browsers label every request with
 * Sec-Fetch-Site; older ones at least send Origin on a POST. A request carrying neither did not come
 * from a browser, so it cannot ride on a visitor's cookies and is left to the route's own auth. Why this is
 * not `hono/csrf`: docs/decisions/0009-worker-plumbing-from-hono-and-oslo.md.
 */
export function csrfProtection(): MiddlewareHandler<AppBindings> {
  return async function csrfMiddleware(c, next) {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const fetchSite = c.req.header("Sec-Fetch-Site");
    const origin = c.req.header("Origin");
    const sameOrigin = new URL(c.req.url).origin;
    const allowed = fetchSite
      ? fetchSite === "same-origin" || fetchSite === "none"
      : origin === undefined || origin === sameOrigin;
    if (!allowed) return c.text("Cross-site request refused", 403);
    return next();
  };
}
