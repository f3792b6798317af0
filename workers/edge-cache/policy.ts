import { deviceCookie } from "../../app/server/auth/sign-in.server";
import { readCookies } from "../../app/server/cookies.server";
import { bookmarkCookieName } from "../../app/server/db-session.server";
import type { AppEnv } from "../../app/server/env.server";

/**
 * The public pages a visitor may be answered from the edge cache, with their single-fetch data requests
 * (`/about-us.data`, `/_.data` for `/`): a client-side navigation between them is as cacheable as a
 * full load, under the same rules. What these pages read from the request: the URL (the key holds it
 * whole), the session, toast and theme cookies (any one means no cache, below: a visitor who chose a theme
 * gets a page rendered in it), and nothing else: no Accept-Language, no country. So no request header is part
 * of the key. The
 * user agent only decides whether the document streams (crawlers get it whole), not what it says.
 */
const CACHEABLE_PATHS = [
  /^\/(?:_\.data)?$/,
  /^\/(?:about-us|privacy|terms-of-service|contact-us|trading-plan|stocks)(?:\.data)?$/,
  /^\/stocks\/[^/.]+(?:\.data)?$/,
];

export const isCacheablePath = (pathname: string) => CACHEABLE_PATHS.some((pattern) => pattern.test(pathname));

/** The D1 bookmark cookie, under either of its names: where a visitor's reads start, never what a page shows. */
export const BOOKMARK_COOKIES = new Set([
  bookmarkCookieName({ ENVIRONMENT: "production" }),
  bookmarkCookieName({ ENVIRONMENT: "development" }),
]);

/**
 * Cookies that never change what these pages render, so they do not keep a visitor from the cache: the D1
 * bookmark; the device cookie, read only when signing in; Google Translate's language choice and the live
 * chat's visitor ids, read only by those scripts in the browser; Cloudflare's own bot and load-balancer cookies.
 * Any other cookie (the session, the toast, a sign-in in progress, one added later) sends the request past
 * the cache: a cookie nobody listed here is assumed to change the page.
 */
function ignoredCookie(name: string, deviceCookieName: string): boolean {
  return (
    BOOKMARK_COOKIES.has(name) ||
    name === deviceCookieName ||
    name === "googtrans" ||
    name === "TawkConnectionTime" ||
    name.startsWith("twk_") ||
    ["__cf_bm", "cf_clearance", "_cfuvid", "__cflb"].includes(name)
  );
}

const cookieNames = (header: string | null) => Object.keys(readCookies(header));

/** Whether the request carries a cookie that may change the page (a session's above all). */
export function carriesPageCookie(env: AppEnv, request: Request): boolean {
  const names = cookieNames(request.headers.get("Cookie"));
  if (names.length === 0) return false;
  const deviceCookieName = deviceCookie(env).name;
  return names.some((name) => !ignoredCookie(name, deviceCookieName));
}

/**
 * Fresh for 10 minutes, then served stale for up to a day while one request renders it anew in the
 * background. The pages change only with a deploy or a configuration change, and both change the key, so the
 * fresh window only bounds what changes outside them (the footer's year); the long stale window means that a
 * quiet page never makes a visitor wait for a render.
 */
export const FRESH_SECONDS = 600;
export const STALE_SECONDS = 86_400;

/**
 * What browsers and shared caches are told. Browsers keep nothing (max-age=0): a visitor who signs in must see
 * the signed-in header on the next load, not a copy from before. Shared caches may keep it as we do, and
 * `Vary: Cookie` (set beside it) tells them the answer differs when cookies do.
 */
export const PUBLIC_CACHE_CONTROL = `public, max-age=0, s-maxage=${FRESH_SECONDS}, stale-while-revalidate=${STALE_SECONDS}`;

/** Whether a rendered response may be kept: a plain 200 that sets no cookie but the bookmark, and not private. */
export function isStorable(response: Response): boolean {
  if (response.status !== 200) return false;
  const cacheControl = response.headers.get("Cache-Control") ?? "";
  if (/private|no-store|no-cache/i.test(cacheControl)) return false;
  return response.headers.getSetCookie().every((cookie) => BOOKMARK_COOKIES.has(cookie.split("=")[0]?.trim() ?? ""));
}
