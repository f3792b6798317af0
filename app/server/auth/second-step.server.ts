/**
 * The sign-in's second step (docs/product.md, "Account security"): a code or a recovery code for the browser's
 * open challenge, each accepted once, under the account's budget of wrong codes.
 */
import { eq, sql } from "drizzle-orm";
import { TWO_FACTOR_MESSAGES } from "~/lib/schemas/two-factor";
import type { SecondFactorMethod } from "../../../db/enums";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { BUDGETS } from "../rate-limit.server";
import { type ClientMeta, clientMeta } from "./client-meta.server";
import {
  looksLikeTotpCode,
  proveSecondFactor,
  type Refusal,
  refusalOfProof,
  type TwoFactorContext,
} from "./second-factor-proof.server";
import {
  clearChallengeCookie,
  completeSignIn,
  deviceOf,
  type openChallenge,
  type SignInMethod,
  signInEventInsert,
} from "./sign-in.server";

type Challenge = NonNullable<Awaited<ReturnType<typeof openChallenge>>>;
/**
 * The `locked` record of a try the lock refused, unless this lock is recorded already (one per window of the
 * lock): a try while locked costs its sender nothing, and a record for each would let anyone with the password
 * fill the table and push the account's real sign-ins off the 20 that /account shows. One conditional statement,
 * so that tries at once do not each find none recorded yet.
 */
function recordLockOnce(
  db: Db,
  event: { userId: string; method: SignInMethod; meta: ClientMeta; deviceHash: string | null; now: number },
) {
  const { windowMs } = BUDGETS.secondFactorPerAccount;
  return db.run(sql`
    INSERT INTO sign_in_events (user_id, result, method, user_agent, country, city, device_hash, created_at)
    SELECT ${event.userId}, 'locked', ${event.method}, ${event.meta.userAgent}, ${event.meta.country},
           ${event.meta.city}, ${event.deviceHash}, ${event.now}
    WHERE NOT EXISTS (SELECT 1 FROM sign_in_events
                      WHERE user_id = ${event.userId} AND result = 'locked' AND created_at > ${event.now - windowMs})`);
}
/**
 * The sign-in's second step, for the browser's open challenge: a right code ends the challenge and signs in
 * (the session records which kind of code it was; a recovery code also queues its notice, in the same batch). A
 * wrong code is recorded as `wrong_code`, a try while locked as `locked` (once per lock), and the challenge stays
 * open.
 */
export async function completeSecondStep(
  context: TwoFactorContext,
  request: Request,
  challenge: Challenge,
  code: string,
  now = Date.now(),
): Promise<{ ok: true; response: Response } | Refusal> {
  const { db, env } = context;
  const { user } = challenge;
  const proof = await proveSecondFactor(context, user.id, code, now);
  if (!proof.ok) {
    const device = await deviceOf(request, env);
    const event = {
      userId: user.id,
      method: challenge.method,
      meta: clientMeta(request, context.cf),
      // A browser without a device cookie yet has no id to record.
      deviceHash: device.setCookie ? null : device.hash,
      now,
    };
    if (proof.locked) await recordLockOnce(db, event);
    else {
      // The kind of code tried, told apart as the check tells it apart: six digits are the authenticator's.
      const secondFactor = looksLikeTotpCode(code) ? "totp" : "recovery_code";
      await signInEventInsert(context, { ...event, result: "wrong_code", secondFactor });
    }
    return refusalOfProof(proof);
  }
  const method = proof.recoveryCodeUsed ? "recovery_code" : "totp";
  const response = await completeSecondStepWith(context, request, challenge, method, now);
  // Another proof (a passkey, a second tab) completed this second step first.
  if (!response) return { ok: false, error: TWO_FACTOR_MESSAGES.challengeExpired, status: 409 };
  return { ok: true, response };
}

/**
 * The sign-in after a right second factor: the challenge is taken first (deleted, once: of two proofs sent at the
 * same moment, a code and a passkey, only one makes a session), then the session is made; how it was proved goes
 * with the session (a recovery code does not count for step-up, and queues its notice). Null when the challenge
 * was already taken.
 */
export async function completeSecondStepWith(
  context: TwoFactorContext,
  request: Request,
  challenge: Challenge,
  method: SecondFactorMethod,
  now: number,
): Promise<Response | null> {
  const { db, env } = context;
  const { user } = challenge;
  const taken = await db
    .delete(schema.signInChallenges)
    .where(eq(schema.signInChallenges.id, challenge.id))
    .returning({ id: schema.signInChallenges.id });
  if (taken.length === 0) return null;
  return completeSignIn(context, request, user, {
    method: challenge.method,
    redirectTo: challenge.redirectTo ?? (user.role === "admin" ? "/admin" : "/dashboard"),
    secondFactor: { at: now, method },
    notices: method === "recovery_code" ? ["recovery_code_used"] : [],
    extraCookies: [await clearChallengeCookie(env)],
    now,
  });
}

/**
 * What the second step offers this account, in one read: the authenticator app's code (when it is set up), its
 * passkeys, and recovery codes only while some are unused. A passkey-only account is never asked for an app's code.
 */
export async function secondStepWays(db: Db, userId: string) {
  const row = await db.get<{ app: number; passkeys: number; codes: number }>(sql`
    SELECT EXISTS (SELECT 1 FROM two_factor WHERE user_id = ${userId} AND confirmed_at IS NOT NULL) AS app,
           (SELECT count(*) FROM passkeys WHERE user_id = ${userId}) AS passkeys,
           (SELECT count(*) FROM recovery_codes WHERE user_id = ${userId} AND used_at IS NULL) AS codes`);
  return { app: Boolean(row?.app), passkey: (row?.passkeys ?? 0) > 0, recoveryCodes: (row?.codes ?? 0) > 0 };
}
