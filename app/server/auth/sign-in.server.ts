import { and, eq, gt, sql } from "drizzle-orm";
import { redirect } from "react-router";
import type { AppContext } from "~/load-context";
import type { SecondFactorMethod } from "../../../db/enums";
import { liveRecoveryRequest, recoveryEndedBySignIn } from "../access-recovery/sign-in.server";
import { appCookie } from "../cookies.server";
import { randomToken, sha256Hex } from "../crypto.server";
import { schema, writeTogether } from "../db.server";
import type { AppEnv } from "../env.server";
import { siteOrigin } from "../http.server";
import { deliverInBackground } from "../mail/outbox.server";
import type { SecurityEvent } from "../mail/templates.server";
import { insertSession, newSession, type SecondFactorProof } from "../session.server";
import { type ClientMeta, clientMeta } from "./client-meta.server";
import { securityNotice } from "./security-notice.server";

/**
 * How every sign-in ends (docs/product.md, "Account security"), whatever passed its first step (a password or
 * an OAuth provider):
 * - with two-factor on, the second step: a half-signed-in record that lives 5 minutes and opens nothing
 *   (`sign_in_challenges`; the browser holds its token in an HttpOnly cookie);
 * - otherwise, or once the code is right, a new session, in one batch with the sign-in's record, the last-login
 *   time, a fresh profile for a client whose data was deleted, and a notice when the browser is new to the account.
 *
 * A browser is recognised by a long-lived random cookie of its own (`device`); the sign-in record keeps its hash.
 */
export const SIGN_IN_CHALLENGE_TTL_MS = 5 * 60 * 1000;
const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;

type SignInContext = Pick<AppContext, "db" | "env" | "ctx" | "cf">;
export type SignInMethod = "password" | "google" | "github" | "register" | "passkey";

export interface SignedInUser {
  id: string;
  email: string;
  role: "user" | "admin";
  firstName: string;
}

/** The columns of a `SignedInUser`, for queries that find who is signing in (join `profiles` on the user). */
export const signedInUserColumns = {
  id: schema.users.id,
  email: schema.users.email,
  role: schema.users.role,
  firstName: sql<string>`coalesce(${schema.profiles.firstName}, '')`,
};

/** The half-signed-in record's token: only while the second step is open (5 minutes). */
export function challengeCookie(env: AppEnv) {
  return appCookie(env, "sign-in-challenge", { maxAge: SIGN_IN_CHALLENGE_TTL_MS / 1000 });
}

export function deviceCookie(env: AppEnv) {
  return appCookie(env, "device", { maxAge: DEVICE_COOKIE_MAX_AGE_S });
}

/** This browser's device id, and the Set-Cookie that gives it one if it had none (or a malformed one). */
export async function deviceOf(request: Request, env: AppEnv): Promise<{ hash: string; setCookie: string | null }> {
  const value: unknown = await deviceCookie(env).parse(request.headers.get("Cookie"));
  if (typeof value === "string" && /^[\w-]{43}$/.test(value)) return { hash: await sha256Hex(value), setCookie: null };
  const id = randomToken(32);
  return { hash: await sha256Hex(id), setCookie: await deviceCookie(env).serialize(id) };
}

/** A sign-in record of a known account (wrong password, wrong code, locked, or success), as an insert. */
export function signInEventInsert(
  context: Pick<SignInContext, "db">,
  event: {
    userId: string;
    result: "success" | "wrong_password" | "wrong_code" | "locked";
    method: SignInMethod;
    /** The second step's proof (for a wrong code, the kind tried); none without a second step. */
    secondFactor?: SecondFactorMethod | null;
    meta: ClientMeta;
    deviceHash?: string | null;
    now: number;
  },
) {
  return context.db.insert(schema.signInEvents).values({
    userId: event.userId,
    result: event.result,
    method: event.method,
    secondFactor: event.secondFactor ?? null,
    userAgent: event.meta.userAgent,
    country: event.meta.country,
    city: event.meta.city,
    deviceHash: event.deviceHash ?? null,
    createdAt: event.now,
  });
}

/**
 * After the first step: the second step when the user has two-factor on, else the session. Returns the
 * redirect to send (to /login/two-factor, or to `redirectTo`).
 */
export async function afterFirstFactor(
  context: SignInContext,
  request: Request,
  user: SignedInUser,
  { method, redirectTo, now = Date.now() }: { method: SignInMethod; redirectTo: string; now?: number },
): Promise<Response> {
  const { twoFactor, signInChallenges } = schema;
  // Two-factor sign-in is on with a confirmed authenticator app or a passkey.
  const enrolled = await context.db
    .select({ userId: twoFactor.userId })
    .from(twoFactor)
    .where(and(eq(twoFactor.userId, user.id), sql`${twoFactor.confirmedAt} IS NOT NULL`))
    .union(
      context.db
        .select({ userId: schema.passkeys.userId })
        .from(schema.passkeys)
        .where(eq(schema.passkeys.userId, user.id)),
    )
    .limit(1)
    .get();
  if (!enrolled) return completeSignIn(context, request, user, { method, redirectTo, now });

  const token = randomToken(32);
  await writeTogether(context.db, {
    // One open second step per account: an older one of this user ends.
    earlier: context.db.delete(signInChallenges).where(eq(signInChallenges.userId, user.id)),
    challenge: context.db.insert(signInChallenges).values({
      id: await sha256Hex(token),
      userId: user.id,
      redirectTo,
      method,
      createdAt: now,
      expiresAt: now + SIGN_IN_CHALLENGE_TTL_MS,
    }),
  });
  return redirect("/login/two-factor", {
    headers: { "Set-Cookie": await challengeCookie(context.env).serialize(token) },
  });
}

/** The open second step of this browser, if any: the user it is for and where the sign-in was going. */
export async function openChallenge(context: Pick<SignInContext, "db" | "env">, request: Request, now = Date.now()) {
  const token: unknown = await challengeCookie(context.env).parse(request.headers.get("Cookie"));
  if (typeof token !== "string" || !token) return null;
  const { signInChallenges, users, profiles } = schema;
  const id = await sha256Hex(token);
  const row = await context.db
    .select({
      id: signInChallenges.id,
      redirectTo: signInChallenges.redirectTo,
      method: signInChallenges.method,
      user: signedInUserColumns,
    })
    .from(signInChallenges)
    .innerJoin(users, eq(users.id, signInChallenges.userId))
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(signInChallenges.id, id), gt(signInChallenges.expiresAt, now)))
    .get();
  return row ? { ...row, method: row.method as SignInMethod } : null;
}

/** Clears the second step's cookie (after success, or when it has expired). */
export function clearChallengeCookie(env: AppEnv) {
  return challengeCookie(env).serialize("", { maxAge: 0 });
}

/**
 * The session of a completed sign-in, with its record and, for a browser new to the account, a security
 * notice; one batch. `secondFactor` is what the sign-in's second step took (step-up reads it).
 * `notices` are the security notices it causes (a recovery code used), delivered after the batch like the
 * new-browser one.
 * Returns the redirect, carrying the session's cookie (and the device's, the first time).
 */
export async function completeSignIn(
  context: SignInContext,
  request: Request,
  user: SignedInUser,
  options: {
    method: SignInMethod;
    redirectTo: string;
    secondFactor?: SecondFactorProof;
    notices?: SecurityEvent[];
    extraCookies?: string[];
    now?: number;
  },
): Promise<Response> {
  const now = options.now ?? Date.now();
  const meta = clientMeta(request, context.cf);
  const device = await deviceOf(request, context.env);
  const { signInEvents, users } = schema;
  const seenBefore = await context.db
    .select({ id: signInEvents.id })
    .from(signInEvents)
    .where(
      and(
        eq(signInEvents.userId, user.id),
        eq(signInEvents.deviceHash, device.hash),
        eq(signInEvents.result, "success"),
      ),
    )
    .limit(1)
    .get();
  // A second factor proved: a request to have the factors removed ends here (a password-only sign-in keeps it).
  const recovery = options.secondFactor ? await liveRecoveryRequest(context.db, user.id) : undefined;
  const session = await newSession(context.env, user.id, now, {
    meta,
    secondFactor: options.secondFactor,
    signInMethod: options.method,
  });
  const notices = Object.fromEntries(
    (options.notices ?? []).map((event) => [
      `notice:${event}`,
      securityNotice(context.db, { to: user.email, name: user.firstName, event, meta, at: now }),
    ]),
  );
  const written = await writeTogether(context.db, {
    ...notices,
    ...(recovery ? recoveryEndedBySignIn(recovery, siteOrigin(context.env, request), now) : {}),
    session: insertSession(context.db, session.row),
    lastLogin: context.db.update(users).set({ lastLoginAt: now }).where(eq(users.id, user.id)),
    freshProfile: freshProfileInsert(user.id, now),
    event: signInEventInsert(context, {
      userId: user.id,
      result: "success",
      method: options.method,
      secondFactor: options.secondFactor?.method ?? null,
      meta,
      deviceHash: device.hash,
      now,
    }),
    // A registration's own browser is where the account began: nothing to report.
    notice:
      seenBefore || options.method === "register"
        ? undefined
        : securityNotice(context.db, { to: user.email, name: user.firstName, event: "new_browser", meta, at: now }),
  });
  const noticeIds = ["notice", "recoveryNotice", ...Object.keys(notices)].flatMap(
    (name) =>
      ((written as Record<string, unknown>)[name] as Array<{ id: number }> | undefined)?.map((row) => row.id) ?? [],
  );
  if (noticeIds.length > 0 && context.ctx) deliverInBackground(context.ctx, context.db, context.env, noticeIds);

  const headers = new Headers();
  headers.append("Set-Cookie", session.setCookie);
  if (device.setCookie) headers.append("Set-Cookie", device.setCookie);
  for (const cookie of options.extraCookies ?? []) headers.append("Set-Cookie", cookie);
  return redirect(options.redirectTo, { headers });
}

/** A client whose data an admin deleted gets a profile again at sign-in, from what they registered with. */
function freshProfileInsert(userId: string, now: number) {
  return sql`
    INSERT INTO profiles (user_id, email, first_name, last_name, phone_number, username, country, referral_id,
                          role, status, created_at, updated_at)
    SELECT u.id, u.email, coalesce(a.first_name, ''), coalesce(a.last_name, ''), a.phone_number, a.username,
           a.country, a.referral_id, u.role, 'active', ${now}, ${now}
    FROM users u
    LEFT JOIN (SELECT * FROM profiles_archive WHERE user_id = ${userId}
               ORDER BY archived_at DESC, archive_id DESC LIMIT 1) a ON a.user_id = u.id
    WHERE u.id = ${userId}
    ON CONFLICT (user_id) DO NOTHING`;
}
