/**
 * Using a passkey (docs/product.md, "Passkeys"): signing in with one (both factors at once: it proves possession
 * and user verification, so no code follows, for an admin either), and proving the second factor with one where a
 * code is asked (the sign-in's second step, step-up). A counter that went backwards is refused and audited.
 */
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { and, eq, isNull, sql } from "drizzle-orm";
import { PASSKEY_MESSAGES } from "~/lib/passkeys";
import { auditInsert } from "../audit.server";
import { afterCommit } from "../commands.server";
import { schema, writeTogether } from "../db.server";
import { clientIp } from "../rate-limit.server";
import type { SessionUser } from "../session.server";
import { clientMeta } from "./client-meta.server";
import { authenticationOptions, type CeremonyRefusal, verifyAssertion } from "./passkey-ceremony.server";
import type { TwoFactorContext } from "./second-factor-proof.server";
import { completeSecondStepWith } from "./second-step.server";
import { securityNoticeIf } from "./security-notice.server";
import { completeSignIn, type openChallenge, signedInUserColumns } from "./sign-in.server";

const { users, profiles, sessions, passkeys } = schema;
type Challenge = NonNullable<Awaited<ReturnType<typeof openChallenge>>>;

/**
 * A counter that went backwards, whoever's passkey it is, is a sign of a copied authenticator: it is audited, and
 * its owner is sent a security notice naming the refused sign-in's browser and place (docs/product.md, "Passkeys").
 * One notice per passkey and stored counter: a copy that keeps trying mails once, until the passkey is used again.
 */
async function reportCounterWentBack(
  context: TwoFactorContext,
  request: Request,
  refusal: CeremonyRefusal,
  now: number,
) {
  const passkey = refusal.counterWentBack;
  if (!passkey) return;
  const owner = await context.db
    .select({ email: users.email, firstName: profiles.firstName })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, passkey.userId))
    .get();
  if (!owner) return; // A passkey always has its account; deleting the account deletes its passkeys.
  const { notice } = await writeTogether(context.db, {
    audit: auditInsert({
      actor: { id: passkey.userId },
      action: "passkey.counter_went_back",
      target: `user:${passkey.userId}`,
      detail: { passkey: passkey.name, credential: passkey.id.slice(0, 12), storedCounter: passkey.counter },
      at: now,
    }),
    notice: securityNoticeIf(
      {
        to: owner.email,
        name: owner.firstName ?? "",
        event: "passkey_copied",
        meta: clientMeta(request, context.cf),
        at: now,
        passkey: passkey.name,
      },
      sql`users WHERE id = ${passkey.userId} AND deactivated_at IS NULL`,
      sql`${`passkey-copied:${passkey.id}:${passkey.counter}`}`,
    ),
  });
  afterCommit(context, { emailIds: notice.map((row) => row.id) });
}

const asRefusal = (refusal: CeremonyRefusal) => ({ ok: false as const, error: refusal.error, status: refusal.status });

/** A passkey ceremony's options for `scope`, or 429 while too many of its kind are open for the same asker. */
async function openCeremony(
  context: TwoFactorContext,
  request: Request,
  scope: Parameters<typeof authenticationOptions>[3],
  now: number,
) {
  const options = await authenticationOptions(context.db, context.env, request, scope, now);
  return options
    ? { ok: true as const, options }
    : { ok: false as const, error: PASSKEY_MESSAGES.tooManyOpen, status: 429 };
}

/** The options of a visitor's passkey sign-in, or a refusal when their address holds too many open. */
export async function passkeySignInOptions(context: TwoFactorContext, request: Request, now = Date.now()) {
  return openCeremony(context, request, { purpose: "sign_in", address: clientIp(request) }, now);
}

/** A visitor's passkey answer: the signed-in redirect (its session records a passkey sign-in), or why not. */
export async function signInWithPasskey(
  context: TwoFactorContext,
  request: Request,
  input: { response: AuthenticationResponseJSON; redirectTo: string | null },
  now = Date.now(),
): Promise<{ ok: true; response: Response } | { ok: false; error: string; status: number }> {
  const verified = await verifyAssertion(context.db, context.env, request, input.response, { purpose: "sign_in" }, now);
  if (!verified.ok) {
    await reportCounterWentBack(context, request, verified, now);
    return asRefusal(verified);
  }
  const user = await context.db
    .select(signedInUserColumns)
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    // A deactivated admin signs in no way at all.
    .where(and(eq(users.id, verified.passkey.userId), isNull(users.deactivatedAt)))
    .get();
  if (!user) return { ok: false, error: PASSKEY_MESSAGES.notRecognised, status: 400 };
  const response = await completeSignIn(context, request, user, {
    method: "passkey",
    // As with a password: an admin always starts at the back office.
    redirectTo: user.role === "admin" ? "/admin" : (input.redirectTo ?? "/dashboard"),
    secondFactor: { at: now, method: "passkey" },
    now,
  });
  return { ok: true, response };
}

/** Who is proving a second factor: a signed-in session (step-up), or the browser's open second step. */
export type SecondFactorAsker = { session: SessionUser } | { challenge: Challenge };

const askerOf = (asker: SecondFactorAsker) =>
  "session" in asker
    ? { userId: asker.session.id, requestedBy: asker.session.sessionId }
    : { userId: asker.challenge.user.id, requestedBy: asker.challenge.id };

/** The options for proving the second factor with one of the account's passkeys. */
export async function secondFactorOptions(
  context: TwoFactorContext,
  request: Request,
  asker: SecondFactorAsker,
  now = Date.now(),
) {
  const { userId, requestedBy } = askerOf(asker);
  const any = await context.db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).get();
  if (!any) return { ok: false as const, error: PASSKEY_MESSAGES.noPasskey, status: 409 };
  return openCeremony(context, request, { purpose: "second_factor", userId, requestedBy }, now);
}

/**
 * A passkey answer as the second factor: for a session, it becomes fresh for step-up (10 minutes, as after a
 * code); for the sign-in's second step, the sign-in completes (the redirect is returned).
 */
export async function proveWithPasskey(
  context: TwoFactorContext,
  request: Request,
  asker: SecondFactorAsker,
  response: AuthenticationResponseJSON,
  now = Date.now(),
): Promise<{ ok: true; response?: Response } | { ok: false; error: string; status: number }> {
  const expected = { purpose: "second_factor" as const, ...askerOf(asker) };
  const verified = await verifyAssertion(context.db, context.env, request, response, expected, now);
  if (!verified.ok) {
    await reportCounterWentBack(context, request, verified, now);
    return asRefusal(verified);
  }
  if ("session" in asker) {
    await context.db
      .update(sessions)
      .set({ secondFactorAt: now, secondFactorMethod: "passkey" })
      .where(eq(sessions.id, asker.session.sessionId));
    return { ok: true };
  }
  const signedIn = await completeSecondStepWith(context, request, asker.challenge, "passkey", now);
  // A code in another request completed this second step first.
  if (!signedIn) return { ok: false, error: PASSKEY_MESSAGES.expired, status: 409 };
  return { ok: true, response: signedIn };
}
