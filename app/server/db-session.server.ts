import { cookieName, plainSetCookie, readCookies } from "./cookies.server";
import type { D1Client } from "./db.server";
import { pagePath } from "./page-address.server";

/**
 * D1 read replication through the Sessions API: one session per request. A session started from a bookmark
 * reads from any replica at least as fresh as that bookmark, so a browser that carries the bookmark of its
 * last response sees its own writes; "first-primary" starts at the primary; "first-unconstrained" anywhere.
 */

/**
 * `__Host-d1-bookmark` in production (app/server/cookies.server.ts). Takes the validated configuration or the raw
 * bindings (middleware that runs before the configuration is read).
 */
export const bookmarkCookieName = (env: { ENVIRONMENT?: string }) => cookieName(env, "d1-bookmark");

/** Long enough for a working session; an older bookmark only asks for data the replicas have long had. */
export const BOOKMARK_MAX_AGE_SECONDS = 4 * 60 * 60;

/**
 * D1's bookmarks are dash-separated hexadecimal groups ("0000000a-00000003-00004f5e-4c1b…"). Anything else
 * (a forged or truncated cookie) is never passed to D1: the request starts unconstrained instead.
 */
const BOOKMARK_PATTERN = /^[0-9a-f]{1,64}(?:-[0-9a-f]{1,64}){0,7}$/i;
const BOOKMARK_MAX_LENGTH = 256;

export const isWellFormedBookmark = (value: string | null | undefined): value is string =>
  typeof value === "string" && value.length <= BOOKMARK_MAX_LENGTH && BOOKMARK_PATTERN.test(value);

/**
 * Pages whose loaders decide money or change state, read at the primary even for a GET: the admin's desk and
 * its tables (/admin…), the admin's client pages and their exports (/user…), and the links that consume a
 * token or finish a sign-in (their loaders write, then read what they wrote). Matched as React Router matches routes,
 * whatever the case and with or without a trailing slash: /ADMIN and /Confirm-Email/ are the same screens.
 */
const PRIMARY_PAGES = [
  /^\/admin(?:\/|$)/i,
  /^\/user(?:\/|$)/i,
  /^\/confirm-email\/?$/i,
  /^\/auth\/[^/]+\/callback\/?$/i,
  /^\/account\/link\/?$/i,
];

export type SessionStart = D1SessionConstraint | { bookmark: string };

/**
 * Where a request's first query reads: actions (any method but GET and HEAD) and the decision screens at the
 * primary; other pages at the browser's bookmark when it holds a well-formed one, else anywhere.
 */
export function sessionConstraint(request: {
  method: string;
  pathname: string;
  bookmark: string | null | undefined;
}): SessionStart {
  const method = request.method.toUpperCase();
  if (method !== "GET" && method !== "HEAD") return "first-primary";
  const path = pagePath(request.pathname);
  if (PRIMARY_PAGES.some((pattern) => pattern.test(path))) return "first-primary";
  return isWellFormedBookmark(request.bookmark) ? { bookmark: request.bookmark } : "first-unconstrained";
}

/** The bookmark cookie's value in a Cookie header, or null. */
export function bookmarkFromCookies(cookieHeader: string | null | undefined, name: string): string | null {
  return readCookies(cookieHeader)[name] ?? null;
}

/** The Set-Cookie header that hands the browser its bookmark. */
export function bookmarkSetCookie(env: { ENVIRONMENT?: string }, bookmark: string): string {
  return plainSetCookie(env, "d1-bookmark", bookmark, BOOKMARK_MAX_AGE_SECONDS);
}

/** A request's D1 session: the client drizzle queries through, and the bookmark after its queries. */
export interface RequestSession {
  client: D1Client;
  /** The latest bookmark of the session's queries; null before any query ran (or where D1 gives none). */
  bookmark(): string | null;
}

/**
 * Opens the request's session. One started from a bookmark that D1 refuses (a well-formed but forged one, or
 * one of another database) is opened again unconstrained and its query retried once, so a bad cookie costs
 * a retry, never an error page.
 */
export function openSession(d1: D1Database, start: SessionStart): RequestSession {
  if (typeof start === "string") {
    const session = d1.withSession(start);
    return { client: session, bookmark: () => session.getBookmark() };
  }
  const fromBookmark = d1.withSession(start.bookmark);
  let session = fromBookmark;
  const attempt = async <T>(query: (current: D1DatabaseSession) => Promise<T>): Promise<T> => {
    const current = session;
    try {
      return await query(current);
    } catch (error) {
      if (current !== fromBookmark || !isBookmarkRefusal(error)) throw error;
      // Queries that ran side by side all fail on the refused session; the first one opens the new session.
      if (session === fromBookmark) session = d1.withSession("first-unconstrained");
      return query(session);
    }
  };
  return { client: retryingClient(attempt), bookmark: () => session.getBookmark() };
}

/** D1 names the bookmark (or the session it started) in the error it gives for one it cannot serve. */
const isBookmarkRefusal = (error: unknown) => error instanceof Error && /bookmark|D1_SESSION/i.test(error.message);

type Attempt = <T>(query: (session: D1DatabaseSession) => Promise<T>) => Promise<T>;

/**
 * A statement of a bookmark session: it records its SQL and bound values, and is prepared on whichever session
 * is current when it runs, so that a retry on a new session can replay it.
 */
class DeferredStatement {
  constructor(
    private readonly attempt: Attempt,
    readonly sql: string,
    readonly values: unknown[],
  ) {}
  on(session: D1DatabaseSession): D1PreparedStatement {
    return session.prepare(this.sql).bind(...this.values);
  }
  bind(...values: unknown[]) {
    return new DeferredStatement(this.attempt, this.sql, values);
  }
  first(column?: string) {
    return this.attempt((session) =>
      column === undefined ? this.on(session).first() : this.on(session).first(column),
    );
  }
  run() {
    return this.attempt((session) => this.on(session).run());
  }
  all() {
    return this.attempt((session) => this.on(session).all());
  }
  raw(options?: { columnNames?: boolean }) {
    return this.attempt((session) =>
      options?.columnNames ? this.on(session).raw({ columnNames: true }) : this.on(session).raw(),
    );
  }
}

function retryingClient(attempt: Attempt): D1Client {
  return {
    prepare: (sql: string) => new DeferredStatement(attempt, sql, []) as unknown as D1PreparedStatement,
    batch: <T>(statements: D1PreparedStatement[]) =>
      attempt((session) =>
        session.batch<T>(statements.map((statement) => (statement as unknown as DeferredStatement).on(session))),
      ),
  };
}
