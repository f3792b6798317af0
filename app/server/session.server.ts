import { and, eq, gt, inArray, lt, ne, type SQL } from "drizzle-orm";
import { redirect } from "react-router";
import { may, type Permission } from "~/lib/permissions";
import { BACK_OFFICE_ROLES, type BackOfficeRole, type SecondFactorMethod } from "../../db/enums";
import type { ClientMeta } from "./auth/client-meta.server";
import { sessionUserRead } from "./auth/session-user-read.server";
import { appCookie, cookieName } from "./cookies.server";
import { randomToken, sha256Hex } from "./crypto.server";
import type { Db } from "./db.server";
import { schema } from "./db.server";
import type { AppEnv } from "./env.server";
import { forbidden } from "./http.server";
import { pageAddress } from "./page-address.server";

/** Signed out after 30 minutes without activity, and after 12 hours whatever happens (docs/product.md, "Constants"). */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** Sliding expiry is written at most this often, so browsing does not cost a D1 write per request. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export interface SessionUser {
  id: string;
  email: string;
  role: "user" | "admin";
  firstName: string;
  lastName: string;
  /** The client's profile status; null for an account whose data was deleted (no profile until next sign-in). */
  profileStatus: "active" | "suspended" | null;
  sessionId: string;
  /** When the session ends whatever happens (the absolute limit). */
  expiresAt: number;
  /** Two-factor sign-in is on: an authenticator app's enrolment confirmed, or a passkey. */
  twoFactorEnabled: boolean;
  /** The account holds a passkey (it may prove the second factor with it). */
  hasPasskey: boolean;
  /** The account has a confirmed authenticator app (a passkey-only account is asked for its passkey, never a code). */
  hasAuthenticatorApp: boolean;
  /** When and how this session last proved a second factor (step-up: 10 minutes after an authenticator's code). */
  secondFactorAt: number | null;
  secondFactorMethod: SecondFactorMethod | null;
  /** When two-factor sign-in was last turned off with a recovery code (the step-up hold counts from it). */
  secondFactorResetAt: number | null;
  /** The back-office roles an admin holds (none for a client): what they may do is app/lib/permissions.ts. */
  roles: BackOfficeRole[];
  /** The header bell's count: the client's unread notifications (one partial index; always 0 for an admin). */
  unreadNotifications: number;
}

/** The second factor a sign-in (or a step-up) proved, and when. */
export interface SecondFactorProof {
  at: number;
  method: SecondFactorMethod;
}

/**
 * The cookie holds only an opaque random token; the database holds its SHA-256 hash.
 * No Max-Age: like the old app's session storage, it ends with the browser session.
 */
/** `__Host-session` in production (app/server/cookies.server.ts); no Max-Age. */
export const sessionCookieName = (env: AppEnv) => cookieName(env, "session");

export function sessionCookie(env: AppEnv) {
  return appCookie(env, "session");
}

/**
 * A new session for a user: the token for the cookie and the row (holding only its hash) to insert.
 * Callers that create a session as part of a larger change put `insertSession` in their batch.
 */
export async function newSession(
  env: AppEnv,
  userId: string,
  now = Date.now(),
  options: { meta?: ClientMeta; secondFactor?: SecondFactorProof; signInMethod?: string } = {},
) {
  const token = randomToken(32);
  const row = {
    id: await sha256Hex(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + SESSION_ABSOLUTE_MS,
    userAgent: options.meta?.userAgent ?? null,
    country: options.meta?.country ?? null,
    city: options.meta?.city ?? null,
    // What the sign-in's second step took: step-up reads it (only an authenticator's code counts there).
    secondFactorAt: options.secondFactor?.at ?? null,
    secondFactorMethod: options.secondFactor?.method ?? null,
    signInMethod: options.signInMethod ?? null,
  };
  return { token, row, setCookie: await sessionCookie(env).serialize(token) };
}

export function insertSession(db: Db, row: typeof schema.sessions.$inferInsert) {
  return db.insert(schema.sessions).values(row);
}

export async function createSession(db: Db, env: AppEnv, userId: string, now = Date.now()) {
  const session = await newSession(env, userId, now);
  await insertSession(db, session.row);
  return { token: session.token, setCookie: session.setCookie };
}

/**
 * Ends every session of a user, or every one but `keepSessionId` (a password change keeps the current one):
 * the one way a user is signed out everywhere, as part of the batch that causes it. `userId` may be an SQL
 * expression (the owner of a reset token). `onlyIf` ties it to an earlier statement of the batch (a suspension
 * that really happened). Open sockets close through `afterCommit`'s `signedOut`.
 */
export function endSessionsOf(db: Db, userId: string | SQL, keepSessionId?: string, onlyIf?: SQL) {
  const { sessions } = schema;
  return db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), keepSessionId ? ne(sessions.id, keepSessionId) : undefined, onlyIf));
}

async function readToken(request: Request, env: AppEnv): Promise<string | null> {
  const value: unknown = await sessionCookie(env).parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** `quiet`: the request is not the user's activity (a page's own timer), so it keeps no idle session open. */
type SessionContext = { db: Db; env: AppEnv; ctx?: ExecutionContext; quiet?: boolean };

/**
 * One lookup per page load: the root loader and the page's loader both ask for the user, with the same
 * load context (React Router hands each loader its own Request). Only reads are shared; after an action the
 * session may have changed, so a POST always looks again.
 */
const lookupsOfLoad = new WeakMap<object, { cookie: string | null; user: Promise<SessionUser | null> }>();

/** The signed-in user of this request, or null. Expired sessions count as none. */
export function getSessionUser(request: Request, context: SessionContext, now?: number): Promise<SessionUser | null> {
  const cookie = request.headers.get("Cookie");
  const shareable = now === undefined && (request.method === "GET" || request.method === "HEAD");
  if (!shareable) return lookUpSessionUser(request, context, now ?? Date.now());
  const earlier = lookupsOfLoad.get(context);
  if (earlier && earlier.cookie === cookie) return earlier.user;
  const user = lookUpSessionUser(request, context, Date.now());
  lookupsOfLoad.set(context, { cookie, user });
  return user;
}

async function lookUpSessionUser(request: Request, context: SessionContext, now: number): Promise<SessionUser | null> {
  const token = await readToken(request, context.env);
  if (!token) return null;
  const sessionId = await sha256Hex(token);
  const row = await sessionUserRead(context.db, { sessionId, now, idleSince: now - SESSION_IDLE_MS }).get();
  if (!row) return null;

  if (!context.quiet && now - row.lastSeenAt > TOUCH_INTERVAL_MS) {
    const { sessions } = schema;
    const touch = context.db
      .update(sessions)
      .set({ lastSeenAt: now })
      .where(and(eq(sessions.id, sessionId), lt(sessions.lastSeenAt, now)));
    if (context.ctx) context.ctx.waitUntil(touch.run());
    else await touch.run();
  }
  const { lastSeenAt: _ignored, twoFactorEnabled, hasPasskey, hasAuthenticatorApp, roles, ...user } = row;
  return {
    ...user,
    twoFactorEnabled: Boolean(twoFactorEnabled),
    hasPasskey: Boolean(hasPasskey),
    hasAuthenticatorApp: Boolean(hasAuthenticatorApp),
    roles: rolesOf(roles),
    sessionId,
  };
}

/**
 * A stored session that is still alive at `now`, as a condition on `sessions`: not past the absolute limit, not
 * idle too long (an ended session has no row). The realtime feeds and the sessions list on /account use it.
 */
export function isLiveSession(now: number): SQL {
  const { sessions } = schema;
  return and(gt(sessions.expiresAt, now), gt(sessions.lastSeenAt, now - SESSION_IDLE_MS)) as SQL;
}

/**
 * Which of these sessions (by stored id) are still alive now: not ended, not past the absolute limit, not
 * idle too long. The realtime feeds ask before they send, so a socket outlives no session.
 */
export async function liveSessionIds(db: Db, sessionIds: string[], now = Date.now()): Promise<Set<string>> {
  if (sessionIds.length === 0) return new Set();
  const { sessions } = schema;
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(inArray(sessions.id, sessionIds), isLiveSession(now)));
  return new Set(rows.map((row) => row.id));
}

/** Ends the request's session server-side and returns the Set-Cookie header that clears it. */
export async function destroySession(request: Request, context: { db: Db; env: AppEnv }): Promise<string> {
  const token = await readToken(request, context.env);
  if (token) {
    await context.db.delete(schema.sessions).where(eq(schema.sessions.id, await sha256Hex(token)));
  }
  return sessionCookie(context.env).serialize("", { maxAge: 0 });
}

/** Where an admin without two-factor sign-in is sent, whatever they open: its set-up. */
export const TWO_FACTOR_SETUP_PATH = "/account/two-factor";

/**
 * Admins must use two-factor sign-in (docs/product.md, "Account security"): until it is on, an admin's session
 * opens nothing but its set-up page and Sign Out. Every guard below and the websocket upgrades ask this.
 */
export function mustSetUpTwoFactor(user: Pick<SessionUser, "role" | "twoFactorEnabled">): boolean {
  return user.role === "admin" && !user.twoFactorEnabled;
}

/**
 * The signed-in user, or a redirect: by default to /login, remembering where the user was going.
 * Some pages send signed-out visitors elsewhere (the dashboard goes to /): pass `signedOutTo`.
 * An admin without two-factor sign-in goes to its set-up, except on that page (`twoFactorSetup`).
 */
export async function requireUser(
  request: Request,
  context: SessionContext,
  options: { signedOutTo?: string; twoFactorSetup?: boolean } = {},
) {
  const user = await getSessionUser(request, context);
  if (!user) {
    if (options.signedOutTo) throw redirect(options.signedOutTo);
    // A data request's page, not its ".data" address: the address the browser returns to after signing in.
    throw redirect(`/login?redirectTo=${encodeURIComponent(pageAddress(new URL(request.url)))}`);
  }
  if (mustSetUpTwoFactor(user) && !options.twoFactorSetup) throw redirect(TWO_FACTOR_SETUP_PATH);
  return user;
}

/** A signed-in client (not an admin): the client pages send admins to their back office. */
export async function requireClient(request: Request, context: SessionContext, options: { signedOutTo?: string } = {}) {
  const user = await requireUser(request, context, options);
  if (user.role === "admin") throw redirect("/admin");
  return user;
}

/** An admin; anyone else signed in goes to /dashboard. */
export async function requireAdmin(request: Request, context: SessionContext) {
  const user = await requireUser(request, context);
  if (user.role !== "admin") throw redirect("/dashboard");
  return user;
}

/** The roles a stored list names (`group_concat`), only those the table knows. */
const rolesOf = (list: string | null): BackOfficeRole[] =>
  BACK_OFFICE_ROLES.filter((role) => (list ?? "").split(",").includes(role));

/**
 * An admin whose roles allow `permission` (app/lib/permissions.ts), and each of `alsoNeeded` (an export of the
 * alerts needs both the export's and the alerts' permission): a visitor goes to sign in, a client to their
 * dashboard, an admin without the role gets 403 and nothing is done.
 */
export async function requirePermission(
  request: Request,
  context: SessionContext,
  permission: Permission,
  ...alsoNeeded: Permission[]
) {
  const admin = await requireAdmin(request, context);
  if (![permission, ...alsoNeeded].every((needed) => may(admin.roles, needed))) throw forbidden();
  return admin;
}
