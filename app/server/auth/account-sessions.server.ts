import { and, asc, desc, eq, exists, inArray, lt, ne, not, sql } from "drizzle-orm";
import { SESSION_MESSAGES } from "~/lib/schemas/sessions";
import { describeBrowser, describeLocation } from "~/lib/user-agent";
import type { SecondFactorMethod, SignInResult } from "../../../db/enums";
import { afterCommit, type CommandContext, type Result } from "../commands.server";
import { type Db, readTogether, schema } from "../db.server";
import { destroySession, getSessionUser, isLiveSession, type SessionUser } from "../session.server";

/**
 * The sessions and sign-in activity on /account (docs/decisions/0021): the user's live sessions, each
 * described by its browser and coarse place, which one is this device; ending one of them or all but this one;
 * the account's latest sign-in records. What is kept, and for how long, is pruned by the cron.
 */
const { sessions, signInEvents } = schema;

/** The sign-in records /account shows, newest first. */
export const SIGN_INS_SHOWN = 20;
/** Sign-in records older than this are deleted by the cron: long enough to look back on a season's sign-ins. */
export const SIGN_IN_EVENTS_KEPT_MS = 90 * 24 * 60 * 60 * 1000;
/** At most this many of the oldest sign-in records are looked at per cron run (it runs every minute). */
const PRUNE_BATCH = 200;

export interface ActiveSession {
  /** The stored id (the token's hash): what the End form sends back. */
  id: string;
  browser: string;
  location: string;
  startedAt: number;
  lastSeenAt: number;
  /** The sign-in that began it was a passkey's (both factors at once). */
  passkeySignIn: boolean;
  /** The session of the request that reads the list. */
  current: boolean;
}

export interface SignInRecord {
  id: number;
  at: number;
  result: SignInResult;
  /** The way in, whole: 'Password + authenticator code', 'Google', 'GitHub + recovery code'. */
  wayIn: string;
  browser: string;
  location: string;
}

type Viewer = Pick<SessionUser, "id" | "sessionId">;

function liveSessionsQuery(db: Db, userId: string, now: number) {
  return db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      country: sessions.country,
      city: sessions.city,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      signInMethod: sessions.signInMethod,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isLiveSession(now)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
}

/** How each first step reads; `register` is the sign-in a registration with a password begins with. */
const FIRST_STEPS: Record<string, string> = {
  password: "Password",
  google: "Google",
  github: "GitHub",
  register: "Registration",
  passkey: "Passkey",
};
const SECOND_STEPS: Record<SecondFactorMethod, string> = {
  totp: "authenticator code",
  recovery_code: "recovery code",
  passkey: "passkey",
};

/** A sign-in's whole way in, as the activity list names it: the first step, then the second step's proof if any. */
export function describeWayIn(method: string, secondFactor: SecondFactorMethod | null): string {
  const first = FIRST_STEPS[method] ?? method;
  // A passkey is both steps at once.
  if (method === "passkey") return first;
  return secondFactor ? `${first} + ${SECOND_STEPS[secondFactor]}` : first;
}

function latestSignInsQuery(db: Db, userId: string) {
  return db
    .select({
      id: signInEvents.id,
      at: signInEvents.createdAt,
      result: signInEvents.result,
      method: signInEvents.method,
      secondFactor: signInEvents.secondFactor,
      userAgent: signInEvents.userAgent,
      country: signInEvents.country,
      city: signInEvents.city,
    })
    .from(signInEvents)
    .where(eq(signInEvents.userId, userId))
    .orderBy(desc(signInEvents.createdAt), desc(signInEvents.id))
    .limit(SIGN_INS_SHOWN);
}

/** The account's live sessions (this device first) and its latest sign-in records, in one round trip. */
export async function sessionsAndSignIns(
  db: Db,
  viewer: Viewer,
  now = Date.now(),
): Promise<{ sessions: ActiveSession[]; signIns: SignInRecord[] }> {
  const rows = await readTogether(db, {
    sessions: liveSessionsQuery(db, viewer.id, now),
    signIns: latestSignInsQuery(db, viewer.id),
  });
  const listed = rows.sessions.map(
    (row): ActiveSession => ({
      id: row.id,
      browser: describeBrowser(row.userAgent),
      location: describeLocation(row),
      startedAt: row.createdAt,
      passkeySignIn: row.signInMethod === "passkey",
      // This very request is activity: the stored time is refreshed at most once a minute.
      lastSeenAt: row.id === viewer.sessionId ? now : row.lastSeenAt,
      current: row.id === viewer.sessionId,
    }),
  );
  return {
    sessions: [...listed.filter((s) => s.current), ...listed.filter((s) => !s.current)],
    signIns: rows.signIns.map((row) => ({
      id: row.id,
      at: row.at,
      result: row.result,
      wayIn: describeWayIn(row.method, row.secondFactor),
      browser: describeBrowser(row.userAgent),
      location: describeLocation(row),
    })),
  };
}

/**
 * The acting session is still alive when the write runs. Checked by the database in the same statement, so
 * two browsers ending each other at the same moment do not both succeed: the second finds itself ended.
 */
function actorStillSignedIn(db: Db, viewer: Viewer, now: number) {
  const actor = db
    .select({ one: sql`1` })
    .from(sessions)
    .where(and(eq(sessions.id, viewer.sessionId), isLiveSession(now)));
  return exists(actor);
}

/**
 * Ends one of the user's other sessions. Only the user's own: another user's session id, an ended one or
 * an unknown one change nothing and get the same answer. This device's session ends by signing out.
 */
export async function endSession(
  context: CommandContext,
  viewer: Viewer,
  sessionId: string,
  now = Date.now(),
): Promise<Result> {
  if (sessionId === viewer.sessionId) return { ok: false, error: SESSION_MESSAGES.thisDevice };
  const ended = await context.db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, viewer.id), actorStillSignedIn(context.db, viewer, now)))
    .returning({ id: sessions.id });
  if (ended.length === 0) return { ok: false, error: SESSION_MESSAGES.alreadyEnded };
  afterCommit(context, { endedSessions: [{ userId: viewer.id, sessionId }] });
  return { ok: true };
}

/**
 * Ends every session of the user but this one (`endSessionsOf` with the current one kept, plus the check that
 * this one is still signed in). Returns how many ended; their open sockets close.
 */
export async function endOtherSessions(context: CommandContext, viewer: Viewer, now = Date.now()) {
  const ended = await context.db
    .delete(sessions)
    .where(
      and(
        eq(sessions.userId, viewer.id),
        ne(sessions.id, viewer.sessionId),
        actorStillSignedIn(context.db, viewer, now),
      ),
    )
    .returning({ id: sessions.id });
  afterCommit(context, { endedSessions: ended.map((row) => ({ userId: viewer.id, sessionId: row.id })) });
  return { count: ended.length };
}

/**
 * Housekeeping for the cron: sign-in records older than `SIGN_IN_EVENTS_KEPT_MS`. Only the oldest rows (by id,
 * which grows with time) are looked at, a bounded number each run: `created_at` alone has no index, and a full
 * scan every minute would read the whole table.
 */
export function pruneSignInEvents(db: Db, now = Date.now()) {
  const oldest = db.select({ id: signInEvents.id }).from(signInEvents).orderBy(asc(signInEvents.id)).limit(PRUNE_BATCH);
  return db
    .delete(signInEvents)
    .where(and(inArray(signInEvents.id, oldest), lt(signInEvents.createdAt, now - SIGN_IN_EVENTS_KEPT_MS)));
}

/**
 * Housekeeping for the cron: sessions that are no longer alive (past the absolute limit or idle too long) open
 * nothing, but their rows still hold a browser and a place. The table holds only the last 12 hours' sessions.
 */
export function pruneDeadSessions(db: Db, now = Date.now()) {
  return db.delete(sessions).where(not(isLiveSession(now)));
}

/**
 * Sign Out: ends this browser's session on the server, then closes that session's open sockets (only its own: the
 * account's other sessions stay). Answers the cookie that clears it in the browser.
 */
export async function signOut(context: CommandContext, request: Request): Promise<{ clearCookie: string }> {
  const user = await getSessionUser(request, context);
  const clearCookie = await destroySession(request, context);
  if (user) afterCommit(context, { endedSession: { userId: user.id, sessionId: user.sessionId } });
  return { clearCookie };
}
