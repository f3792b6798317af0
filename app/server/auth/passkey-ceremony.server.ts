/**
 * The WebAuthn ceremonies behind passkeys (docs/product.md, "Passkeys"; docs/decisions/0046), verified by
 * @simplewebauthn/server:
 * - one challenge per ceremony, stored here, taken by the one statement that deletes it (single use), 5 minutes;
 *   bound to what asked for it (the session, the sign-in's second step, or a visitor's address for a sign-in);
 * - the relying party is the site: RP ID and origin from SITE_URL, or in development the local origin the
 *   request came to;
 * - user verification required; the signature counter and backup state stored and checked: a counter that goes
 *   backwards is refused (and the caller audits it).
 */
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { and, eq, sql } from "drizzle-orm";
import { PASSKEY_CHALLENGE_TTL_MS, PASSKEY_MESSAGES } from "~/lib/passkeys";
import type { WebauthnPurpose } from "../../../db/enums";
import { type Db, returning, schema, writeTogether } from "../db.server";
import type { AppEnv } from "../env.server";
import { isLoopbackHost } from "../http.server";

const { passkeys, webauthnChallenges } = schema;

/** How many challenges one requester (an address signing in, a session) may hold open: an office behind one
 * address has room, a flood does not. */
export const OPEN_CHALLENGES_PER_REQUESTER = 100;

export type CeremonyRefusal = { ok: false; error: string; status: number; counterWentBack?: StoredPasskey };
export type StoredPasskey = typeof passkeys.$inferSelect;

/** Who the passkeys are for: the site's own address, or the local one in development. */
export function relyingParty(env: AppEnv, request: Request) {
  const local = env.ENVIRONMENT !== "production" && isLoopbackHost(new URL(request.url).hostname);
  const origin = new URL(local || !env.SITE_URL ? request.url : env.SITE_URL).origin;
  return { origin, rpID: new URL(origin).hostname, rpName: env.BRAND_NAME };
}

/** The challenge a response answers, read from its client data (the signature covers it). */
function challengeOf(response: { response: { clientDataJSON: string } }): string | null {
  try {
    const clientData = JSON.parse(isoBase64URL.toUTF8String(response.response.clientDataJSON)) as {
      challenge?: unknown;
    };
    return typeof clientData.challenge === "string" ? clientData.challenge : null;
  } catch {
    return null;
  }
}

/**
 * Stores a ceremony's challenge, in one statement with the cap on what its requester holds open; clears expired
 * ones on the way. False when the requester holds too many.
 */
async function storeChallenge(
  db: Db,
  challenge: { challenge: string; purpose: WebauthnPurpose; userId: string | null; requestedBy: string },
  now: number,
): Promise<boolean> {
  const { stored } = await writeTogether(db, {
    expired: db.delete(webauthnChallenges).where(sql`${webauthnChallenges.expiresAt} <= ${now}`),
    stored: returning<{ challenge: string }>(sql`
      INSERT INTO webauthn_challenges (challenge, purpose, user_id, requested_by, created_at, expires_at)
      SELECT ${challenge.challenge}, ${challenge.purpose}, ${challenge.userId}, ${challenge.requestedBy}, ${now},
             ${now + PASSKEY_CHALLENGE_TTL_MS}
      WHERE (SELECT count(*) FROM webauthn_challenges
             WHERE requested_by = ${challenge.requestedBy} AND expires_at > ${now}) < ${OPEN_CHALLENGES_PER_REQUESTER}
      RETURNING challenge`),
  });
  return stored.length === 1;
}

/** Takes the challenge the response answers: only once, only before it expires, only for what asked for it. */
async function takeChallenge(
  db: Db,
  response: { response: { clientDataJSON: string } },
  expected: { purpose: WebauthnPurpose; userId: string | null; requestedBy?: string },
  now: number,
): Promise<string | null> {
  const challenge = challengeOf(response);
  if (!challenge) return null;
  const taken = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, expected.purpose),
        sql`${webauthnChallenges.expiresAt} > ${now}`,
        expected.userId === null
          ? sql`${webauthnChallenges.userId} IS NULL`
          : eq(webauthnChallenges.userId, expected.userId),
        expected.requestedBy === undefined ? undefined : eq(webauthnChallenges.requestedBy, expected.requestedBy),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  return taken[0]?.challenge ?? null;
}

const refused = (error: string, status = 400): CeremonyRefusal => ({ ok: false, error, status });

/** A user handle (base64url of the account's id) that names this account; anything malformed names none. */
function handleNames(handle: unknown, userId: string): boolean {
  if (typeof handle !== "string" || !isoBase64URL.isBase64URL(handle)) return false;
  return isoBase64URL.toUTF8String(handle) === userId;
}

/** The transports a browser may report (WebAuthn's list): anything else is dropped, and at most a handful kept. */
const KNOWN_TRANSPORTS = new Set(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]);
const knownTransports = (transports: unknown): AuthenticatorTransport[] =>
  Array.isArray(transports)
    ? [...new Set(transports.filter((t): t is AuthenticatorTransport => KNOWN_TRANSPORTS.has(String(t))))].slice(0, 7)
    : [];
const transportsOf = (row: StoredPasskey) => row.transports as AuthenticatorTransport[];

/** The options for adding a passkey to `user`'s account: discoverable, user verification required. */
export async function registrationOptions(
  db: Db,
  env: AppEnv,
  request: Request,
  user: { id: string; email: string; displayName: string },
  requestedBy: string,
  now = Date.now(),
) {
  const existing = await db.select().from(passkeys).where(eq(passkeys.userId, user.id));
  const { rpID, rpName } = relyingParty(env, request);
  const options = await generateRegistrationOptions({
    rpName,
    rpID,
    userID: new TextEncoder().encode(user.id),
    userName: user.email,
    userDisplayName: user.displayName || user.email,
    attestationType: "none",
    excludeCredentials: existing.map((row) => ({ id: row.id, transports: transportsOf(row) })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
    timeout: PASSKEY_CHALLENGE_TTL_MS,
  });
  const stored = await storeChallenge(
    db,
    { challenge: options.challenge, purpose: "register", userId: user.id, requestedBy },
    now,
  );
  return stored ? options : null;
}

/** A new passkey's answer checked against its challenge: the credential to store, or why not. */
export async function verifyRegistration(
  db: Db,
  env: AppEnv,
  request: Request,
  response: RegistrationResponseJSON,
  expected: { userId: string; requestedBy: string },
  now = Date.now(),
) {
  const challenge = await takeChallenge(db, response, { purpose: "register", ...expected }, now);
  if (!challenge) return refused(PASSKEY_MESSAGES.expired);
  const { origin, rpID } = relyingParty(env, request);
  try {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
    });
    if (!result.verified) return refused(PASSKEY_MESSAGES.failed);
    const { credential, credentialDeviceType, credentialBackedUp } = result.registrationInfo;
    return {
      ok: true as const,
      credential: {
        id: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: knownTransports(credential.transports),
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
      },
    };
  } catch (error) {
    console.warn("passkey registration refused:", error instanceof Error ? error.message : error);
    return refused(PASSKEY_MESSAGES.failed);
  }
}

/**
 * The options for using a passkey: any discoverable one (signing in, `userId` null, keyed by the visitor's
 * address), or one of `userId`'s (the second factor). Null when the requester holds too many open.
 */
export async function authenticationOptions(
  db: Db,
  env: AppEnv,
  request: Request,
  scope: { purpose: "sign_in"; address: string } | { purpose: "second_factor"; userId: string; requestedBy: string },
  now = Date.now(),
) {
  const { rpID } = relyingParty(env, request);
  const allow =
    scope.purpose === "second_factor" ? await db.select().from(passkeys).where(eq(passkeys.userId, scope.userId)) : [];
  const options = await generateAuthenticationOptions({
    rpID,
    userVerification: "required",
    allowCredentials: allow.map((row) => ({ id: row.id, transports: transportsOf(row) })),
    timeout: PASSKEY_CHALLENGE_TTL_MS,
  });
  const stored = await storeChallenge(
    db,
    scope.purpose === "sign_in"
      ? { challenge: options.challenge, purpose: "sign_in", userId: null, requestedBy: scope.address }
      : {
          challenge: options.challenge,
          purpose: "second_factor",
          userId: scope.userId,
          requestedBy: scope.requestedBy,
        },
    now,
  );
  return stored ? options : null;
}

/**
 * A passkey's answer checked: its challenge taken, the passkey found (one of `userId`'s when the account is
 * known), its signature, origin, RP ID and user verification verified, and its counter moved forward in the same
 * statement that records its use. Returns the passkey, or why not (`counterWentBack` for the caller's audit).
 */
export async function verifyAssertion(
  db: Db,
  env: AppEnv,
  request: Request,
  response: AuthenticationResponseJSON,
  expected:
    | { purpose: "sign_in"; address?: undefined }
    | { purpose: "second_factor"; userId: string; requestedBy: string },
  now = Date.now(),
): Promise<{ ok: true; passkey: StoredPasskey } | CeremonyRefusal> {
  const userId = expected.purpose === "second_factor" ? expected.userId : null;
  const requestedBy = expected.purpose === "second_factor" ? expected.requestedBy : undefined;
  const challenge = await takeChallenge(db, response, { purpose: expected.purpose, userId, requestedBy }, now);
  if (!challenge) return refused(PASSKEY_MESSAGES.expired);
  // A deactivated admin's passkey is not looked at: nothing of it changes, not even its counter.
  const row = await db
    .select()
    .from(passkeys)
    .where(
      and(
        eq(passkeys.id, String(response.id)),
        sql`EXISTS (SELECT 1 FROM users WHERE users.id = ${passkeys.userId} AND users.deactivated_at IS NULL)`,
      ),
    )
    .get();
  if (!row || (userId !== null && row.userId !== userId)) return refused(PASSKEY_MESSAGES.notRecognised);
  // A discoverable passkey names its account: it must be the one the credential is bound to.
  const handle: unknown = response.response.userHandle;
  if (handle !== undefined && handle !== null && !handleNames(handle, row.userId))
    return refused(PASSKEY_MESSAGES.notRecognised);
  const { origin, rpID } = relyingParty(env, request);
  let newCounter: number;
  let backedUp: boolean;
  try {
    // The signature first (with the counter check off), then the counter: only a signed answer can report a clone.
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: row.id,
        publicKey: isoBase64URL.toBuffer(row.publicKey),
        counter: 0,
        transports: transportsOf(row),
      },
      requireUserVerification: true,
    });
    if (!result.verified) return refused(PASSKEY_MESSAGES.failed);
    newCounter = result.authenticationInfo.newCounter;
    backedUp = result.authenticationInfo.credentialBackedUp;
  } catch (error) {
    console.warn("passkey assertion refused:", error instanceof Error ? error.message : error);
    return refused(PASSKEY_MESSAGES.failed);
  }
  const wentBack = { ok: false as const, error: PASSKEY_MESSAGES.counterWentBack, status: 403, counterWentBack: row };
  if ((newCounter > 0 || row.counter > 0) && newCounter <= row.counter) return wentBack;
  const used = await db
    .update(passkeys)
    .set({ counter: newCounter, backedUp, lastUsedAt: now })
    .where(and(eq(passkeys.id, row.id), sql`(${passkeys.counter} < ${newCounter} OR ${newCounter} = 0)`))
    .returning();
  // Another answer with this counter got there first.
  const passkey = used[0];
  return passkey ? { ok: true, passkey } : wentBack;
}
