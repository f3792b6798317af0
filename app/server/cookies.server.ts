/**
 * Every cookie the app sets, by one rule: HttpOnly, SameSite=Lax, path /, and in production Secure with the
 * `__Host-` prefix, so that a browser refuses it unless it is Secure, for path / and without a Domain (no
 * subdomain or plain-HTTP page can plant or read one). Signed values and JSON go through React Router's cookies; a plain
 * value (the D1 bookmark) through Hono's. Reading a raw Cookie header is Hono's parser, never a hand-written one.
 */

import { generateCookie } from "hono/cookie";
import { parse } from "hono/utils/cookie";
import { type CookieOptions, createCookie } from "react-router";

/** Production or not: the validated configuration or the raw bindings (middleware before configuration). */
type CookieEnv = { ENVIRONMENT?: string };

const inProduction = (env: CookieEnv) => env.ENVIRONMENT === "production";

/** A cookie's name as the browser holds it: `__Host-{name}` in production, `{name}` elsewhere (plain HTTP). */
export const cookieName = (env: CookieEnv, name: string) => (inProduction(env) ? `__Host-${name}` : name);

/**
 * A React Router cookie under the rule: `maxAge` in seconds (none: it ends with the browser session); `secret` signs its
 * value, so a changed one reads as absent.
 */
export function appCookie(env: CookieEnv, name: string, options: { maxAge?: number; secret?: string } = {}) {
  const settings: CookieOptions = {
    httpOnly: true,
    sameSite: "lax",
    secure: inProduction(env),
    path: "/",
    ...(options.maxAge === undefined ? {} : { maxAge: options.maxAge }),
    ...(options.secret === undefined ? {} : { secrets: [options.secret] }),
  };
  return createCookie(cookieName(env, name), settings);
}

/** A plain value's Set-Cookie header under the rule (Hono writes the `__Host-` prefix and what it requires). */
export function plainSetCookie(env: CookieEnv, name: string, value: string, maxAgeSeconds: number): string {
  const options = { maxAge: maxAgeSeconds, httpOnly: true, sameSite: "Lax", path: "/" } as const;
  return inProduction(env)
    ? generateCookie(name, value, { ...options, prefix: "host" })
    : generateCookie(name, value, options);
}

/** The cookies of a Cookie header, by name (values URI-decoded); empty for none. */
export const readCookies = (header: string | null | undefined): Record<string, string> => (header ? parse(header) : {});
