/**
 * Two-factor sign-in with TOTP (docs/product.md, "Account security"; docs/decisions/0018):
 * - enrolment: a new secret, stored encrypted and unconfirmed (a new start replaces an unconfirmed one), turned on
 *   by a current code; then 10 single-use recovery codes, stored as SHA-256 hashes and shown once;
 * - turning it off and new recovery codes: the password and a current code (or a recovery code) in the same form;
 * - the sign-in's second step: a code or a recovery code, each accepted once;
 * - 5 wrong codes for an account in 15 minutes lock its code entry (`BUDGETS.secondFactorPerAccount`): each try
 *   takes a place in the budget in one conditional statement before its code is looked at, so parallel guesses
 *   cannot get past the limit, and a right code gives its place back.
 */
import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { qrPath } from "~/lib/qr";
import { RECOVERY_CODE_COUNT, TWO_FACTOR_MESSAGES } from "~/lib/schemas/two-factor";
import type { AppContext } from "~/load-context";
import { afterCommit } from "../commands.server";
import { sha256Hex } from "../crypto.server";
import type { Db } from "../db.server";
import { schema, writeTogether } from "../db.server";
import { BUDGETS, takeBudgetPlace } from "../rate-limit.server";
import { endSessionsOf, type SessionUser } from "../session.server";
import { type ClientMeta, clientMeta } from "./client-meta.server";
import { checkCurrentPassword } from "./current-password.server";
import { securityNotice } from "./security-notice.server";
import {
  clearChallengeCookie,
  completeSignIn,
  deviceOf,
  type openChallenge,
  type SignInMethod,
  signInEventInsert,
} from "./sign-in.server";
import {
  consumeTotpCode,
  decryptTotpSecret,
  encryptTotpSecret,
  newTotpSecret,
  secretForManualEntry,
  totpUri,
} from "./totp.server";

const { twoFactor, recoveryCodes, sessions, users, authFailures } = schema;

type TwoFactorContext = Pick<AppContext, "db" | "env" | "bindings" | "ctx" | "cf">;
type Refusal = { ok: false; error: string; field?: string; status: number };

/** A recovery code as shown: 10 base32 characters (50 random bits) in two groups, "k7x2m-q9fta". */
function newRecoveryCode(): string {
  const characters = encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(7))).slice(0, 10);
  return `${characters.slice(0, 5)}-${characters.slice(5)}`;
}

/** What is hashed and compared: the characters alone, however they were typed (case, spaces, dashes). */
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, "");
const looksLikeRecoveryCode = (normalized: string) => /^[a-z2-7]{10}$/.test(normalized);
const looksLikeTotpCode = (code: string) => /^\d{6}$/.test(code.replace(/\s/g, ""));

async function newRecoveryCodes(userId: string, now: number) {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const rows = await Promise.all(
    codes.map(async (code) => ({ userId, codeHash: await sha256Hex(normalizeRecoveryCode(code)), createdAt: now })),
  );
  return { codes, rows };
}

/** Where the user's two-factor sign-in stands, for /account and its set-up page. */
export async function twoFactorStatus(db: Db, userId: string) {
  const row = await db
    .select({
      confirmedAt: twoFactor.confirmedAt,
      recoveryCodesLeft: sql<number>`(SELECT count(*) FROM recovery_codes
        WHERE user_id = ${userId} AND used_at IS NULL)`,
    })
    .from(twoFactor)
    .where(eq(twoFactor.userId, userId))
    .get();
  return { enabled: row?.confirmedAt != null, recoveryCodesLeft: row?.confirmedAt != null ? row.recoveryCodesLeft : 0 };
}

/**
 * The set-up page's state: on (with the recovery codes left), off, or an enrolment waiting for its first code,
 * with what the authenticator needs: the QR code of the otpauth:// URI (issuer the brand, label the e-mail) and
 * the secret in groups of four for typing.
 */
export async function twoFactorSetup(context: Pick<AppContext, "db" | "env">, user: Pick<SessionUser, "id" | "email">) {
  const row = await context.db
    .select({
      secretEncrypted: twoFactor.secretEncrypted,
      confirmedAt: twoFactor.confirmedAt,
      hasPassword: sql<number>`(SELECT password_hash <> '' FROM users WHERE id = ${user.id})`,
    })
    .from(twoFactor)
    .where(eq(twoFactor.userId, user.id))
    .get();
  if (row?.confirmedAt != null) return { state: "on" as const, ...(await twoFactorStatus(context.db, user.id)) };
  if (!row) return { state: "off" as const };
  let secret: Uint8Array;
  try {
    secret = await decryptTotpSecret(context.env.TOTP_ENCRYPTION_KEY, user.id, row.secretEncrypted);
  } catch {
    // Sealed with a key since replaced: the set-up starts again with a new secret.
    return { state: "off" as const };
  }
  return {
    state: "enrolling" as const,
    qr: qrPath(totpUri(context.env.BRAND_NAME, user.email, secret)),
    secret: secretForManualEntry(secret),
    /** Turning it on then asks for the password too (an account made through a provider has none). */
    asksPassword: Boolean(row.hasPassword),
  };
}

/** Starts (or starts again) an enrolment: a new secret, encrypted, not on until a code confirms it. */
export async function startEnrolment(db: Db, key: string, userId: string, now = Date.now()) {
  const secretEncrypted = await encryptTotpSecret(key, userId, newTotpSecret());
  const started = await db
    .insert(twoFactor)
    .values({ userId, secretEncrypted, createdAt: now })
    .onConflictDoUpdate({
      target: twoFactor.userId,
      set: { secretEncrypted, lastUsedStep: null, createdAt: now },
      // A confirmed authenticator is never replaced this way: turning it off comes first.
      setWhere: isNull(twoFactor.confirmedAt),
    })
    .returning({ userId: twoFactor.userId });
  return started.length === 1 ? { ok: true as const } : { ok: false as const, error: TWO_FACTOR_MESSAGES.alreadyOn };
}

/**
 * One try at a code: takes a place in the account's budget of wrong codes, in one statement that succeeds only
 * while fewer than 5 are in the window. Null when the account's code entry is locked.
 */
function takeCodeTry(db: Db, userId: string, now: number): Promise<number | null> {
  return takeBudgetPlace(db, BUDGETS.secondFactorPerAccount, userId, now);
}

/** Whether the account's code entry is locked now (5 wrong codes in 15 minutes). */
export async function isSecondFactorLocked(db: Db, userId: string, now = Date.now()): Promise<boolean> {
  const { scope, limit, windowMs } = BUDGETS.secondFactorPerAccount;
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(authFailures)
    .where(
      and(
        eq(authFailures.scope, scope),
        eq(authFailures.key, userId),
        sql`${authFailures.createdAt} > ${now - windowMs}`,
      ),
    )
    .get();
  return (row?.n ?? 0) >= limit;
}

type Proof = { ok: true; recoveryCodeUsed: boolean } | { ok: false; locked: boolean };

/**
 * One try at the authenticator's code alone (no recovery code), under the same budget of wrong codes as the
 * sign-in's second step: what step-up asks for.
 */
export async function tryAuthenticatorCode(
  context: Pick<AppContext, "db" | "env">,
  userId: string,
  code: string,
  now = Date.now(),
): Promise<Proof> {
  const attempt = await takeCodeTry(context.db, userId, now);
  if (attempt === null) return { ok: false, locked: true };
  const right =
    looksLikeTotpCode(code) &&
    (await consumeTotpCode(context.db, context.env.TOTP_ENCRYPTION_KEY, userId, code, { now, confirmed: true }));
  if (!right) return { ok: false, locked: false };
  // A right code was no failure: its place in the budget is given back.
  await context.db.delete(authFailures).where(eq(authFailures.id, attempt));
  return { ok: true, recoveryCodeUsed: false };
}

/**
 * Checks a second factor of a user whose two-factor sign-in is on: the authenticator's code (6 digits; each time
 * step accepted once) or an unused recovery code (spent by the same conditional statement that finds it, so
 * two requests with one code cannot both pass). A wrong code keeps its place in the budget of wrong codes.
 */
async function proveSecondFactor(
  context: Pick<AppContext, "db" | "env">,
  userId: string,
  code: string,
  now: number,
): Promise<Proof> {
  const { db } = context;
  const attempt = await takeCodeTry(db, userId, now);
  if (attempt === null) return { ok: false, locked: true };

  let proof: Proof = { ok: false, locked: false };
  if (looksLikeTotpCode(code)) {
    if (await consumeTotpCode(db, context.env.TOTP_ENCRYPTION_KEY, userId, code, { now, confirmed: true })) {
      proof = { ok: true, recoveryCodeUsed: false };
    }
  } else {
    const normalized = normalizeRecoveryCode(code);
    if (looksLikeRecoveryCode(normalized)) {
      const spent = await db
        .update(recoveryCodes)
        .set({ usedAt: now })
        .where(
          and(
            eq(recoveryCodes.userId, userId),
            eq(recoveryCodes.codeHash, await sha256Hex(normalized)),
            isNull(recoveryCodes.usedAt),
            sql`EXISTS (SELECT 1 FROM two_factor WHERE user_id = ${userId} AND confirmed_at IS NOT NULL)`,
          ),
        )
        .returning({ id: recoveryCodes.id });
      if (spent.length === 1) proof = { ok: true, recoveryCodeUsed: true };
    }
  }
  // A right code was no failure: its place in the budget is given back.
  if (proof.ok) await db.delete(authFailures).where(eq(authFailures.id, attempt));
  return proof;
}

/** The outbox ids a batch's notice inserts returned (none for a notice left out of the batch). */
const outboxIds = (...written: unknown[]) =>
  written.flatMap((rows) => (rows as Array<{ id: number }> | undefined)?.map((row) => row.id) ?? []);

const refusalOfProof = (proof: Extract<Proof, { ok: false }>): Refusal =>
  proof.locked
    ? { ok: false, error: TWO_FACTOR_MESSAGES.locked, status: 429 }
    : { ok: false, error: TWO_FACTOR_MESSAGES.invalidCode, field: "code", status: 400 };

/**
 * This session entered the authenticator's code just now: it counts as a fresh second factor (step-up). A
 * recovery code never does (see app/server/auth/step-up.server.ts).
 */
export const freshSecondFactor = (db: Db, sessionId: string, now: number) =>
  db.update(sessions).set({ secondFactorAt: now, secondFactorMethod: "totp" }).where(eq(sessions.id, sessionId));

/**
 * Confirms the enrolment with a current code: two-factor sign-in is on, with 10 new recovery codes (returned, to
 * be shown once), the user's other sessions end (none of them passed a second factor), this one counts as having
 * entered a code, and the two_factor_on notice is queued, in one batch.
 */
export async function confirmEnrolment(
  context: TwoFactorContext,
  request: Request,
  user: SessionUser,
  { currentPassword, code }: { currentPassword: string; code: string },
  now = Date.now(),
): Promise<{ ok: true; recoveryCodes: string[] } | Refusal> {
  const { db } = context;
  const pending = await db
    .select({ secretEncrypted: twoFactor.secretEncrypted, passwordHash: users.passwordHash })
    .from(twoFactor)
    .innerJoin(users, eq(users.id, twoFactor.userId))
    .where(and(eq(twoFactor.userId, user.id), isNull(twoFactor.confirmedAt)))
    .get();
  if (!pending) return { ok: false, error: TWO_FACTOR_MESSAGES.setupExpired, status: 409 };
  // The password too, where the account has one: a session alone (a stolen one) must not be able to put its
  // own authenticator on the account and so lock the owner out.
  if (pending.passwordHash !== "") {
    const refused = await checkCurrentPassword(db, user.id, currentPassword, pending.passwordHash, now);
    if (refused) return { ok: false, error: refused, field: "currentPassword", status: 400 };
  }

  const attempt = await takeCodeTry(db, user.id, now);
  if (attempt === null) return refusalOfProof({ ok: false, locked: true });
  const right = await consumeTotpCode(db, context.env.TOTP_ENCRYPTION_KEY, user.id, code, { now, confirmed: false });
  if (!right) return refusalOfProof({ ok: false, locked: false });

  const fresh = await newRecoveryCodes(user.id, now);
  const written = await writeTogether(db, {
    attempt: db.delete(authFailures).where(eq(authFailures.id, attempt)),
    confirm: db
      .update(twoFactor)
      .set({ confirmedAt: now })
      // The secret the code was checked against, still unconfirmed: not one replaced by a new start meanwhile.
      .where(
        and(
          eq(twoFactor.userId, user.id),
          isNull(twoFactor.confirmedAt),
          eq(twoFactor.secretEncrypted, pending.secretEncrypted),
        ),
      ),
    earlierCodes: db.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id)),
    codes: db.insert(recoveryCodes).values(fresh.rows),
    otherSessions: endSessionsOf(db, user.id, user.sessionId),
    thisSession: freshSecondFactor(db, user.sessionId, now),
    notice: securityNotice(db, {
      to: user.email,
      name: user.firstName,
      event: "two_factor_on",
      meta: clientMeta(request, context.cf),
      at: now,
    }),
  });
  afterCommit(context, { emailIds: outboxIds(written.notice) });
  return { ok: true, recoveryCodes: fresh.codes };
}

/** The password and a second factor, for turning two-factor off and for new recovery codes. */
async function proveOwner(
  context: Pick<AppContext, "db" | "env">,
  user: SessionUser,
  input: { currentPassword: string; code: string },
  now: number,
): Promise<{ ok: true; recoveryCodeUsed: boolean } | Refusal> {
  const enabled = await context.db
    .select({ userId: twoFactor.userId })
    .from(twoFactor)
    .where(and(eq(twoFactor.userId, user.id), isNotNull(twoFactor.confirmedAt)))
    .get();
  if (!enabled) return { ok: false, error: TWO_FACTOR_MESSAGES.notOn, status: 409 };
  // Locked stays locked, whatever the password: the code is what the lock protects.
  if (await isSecondFactorLocked(context.db, user.id, now)) return refusalOfProof({ ok: false, locked: true });
  const account = await context.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, user.id))
    .get();
  if (!account) return { ok: false, error: TWO_FACTOR_MESSAGES.passwordWrong, field: "currentPassword", status: 400 };
  const refused = await checkCurrentPassword(context.db, user.id, input.currentPassword, account.passwordHash, now);
  if (refused) return { ok: false, error: refused, field: "currentPassword", status: 400 };
  const proof = await proveSecondFactor(context, user.id, input.code, now);
  return proof.ok ? proof : refusalOfProof(proof);
}

/** The recovery_code_used notice, when the proof was a recovery code. */
function recoveryNotice(context: TwoFactorContext, request: Request, user: SessionUser, used: boolean, now: number) {
  return used
    ? securityNotice(context.db, {
        to: user.email,
        name: user.firstName,
        event: "recovery_code_used",
        meta: clientMeta(request, context.cf),
        at: now,
      })
    : undefined;
}

/**
 * Turns two-factor sign-in off: the authenticator and the recovery codes go, the two_factor_off notice is queued;
 * with a recovery code as the proof, the step-up hold starts.
 */
export async function disableTwoFactor(
  context: TwoFactorContext,
  request: Request,
  user: SessionUser,
  input: { currentPassword: string; code: string },
  now = Date.now(),
): Promise<{ ok: true } | Refusal> {
  const proof = await proveOwner(context, user, input, now);
  if (!proof.ok) return proof;
  const { db } = context;
  const written = await writeTogether(db, {
    authenticator: db.delete(twoFactor).where(eq(twoFactor.userId, user.id)),
    codes: db.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id)),
    // Turned off with a recovery code: whoever did it may hold only the sheet, not the phone, so the step-up
    // hold keeps money where it is for a while, whatever authenticator is set up next.
    resetHold: proof.recoveryCodeUsed
      ? db.update(users).set({ secondFactorResetAt: now }).where(eq(users.id, user.id))
      : undefined,
    recoveryNotice: recoveryNotice(context, request, user, proof.recoveryCodeUsed, now),
    notice: securityNotice(db, {
      to: user.email,
      name: user.firstName,
      event: "two_factor_off",
      meta: clientMeta(request, context.cf),
      at: now,
      admin: user.role === "admin",
    }),
  });
  afterCommit(context, { emailIds: outboxIds(written.recoveryNotice, written.notice) });
  return { ok: true };
}

/** New recovery codes (returned, to be shown once); the earlier ones, used or not, stop working. */
export async function regenerateRecoveryCodes(
  context: TwoFactorContext,
  request: Request,
  user: SessionUser,
  input: { currentPassword: string; code: string },
  now = Date.now(),
): Promise<{ ok: true; recoveryCodes: string[] } | Refusal> {
  const proof = await proveOwner(context, user, input, now);
  if (!proof.ok) return proof;
  const { db } = context;
  const fresh = await newRecoveryCodes(user.id, now);
  const written = await writeTogether(db, {
    earlierCodes: db.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id)),
    codes: db.insert(recoveryCodes).values(fresh.rows),
    // Only the authenticator's code makes the session fresh; a recovery code leaves it as it was.
    thisSession: proof.recoveryCodeUsed ? undefined : freshSecondFactor(db, user.sessionId, now),
    recoveryNotice: recoveryNotice(context, request, user, proof.recoveryCodeUsed, now),
  });
  afterCommit(context, { emailIds: outboxIds(written.recoveryNotice) });
  return { ok: true, recoveryCodes: fresh.codes };
}

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
  const response = await completeSignIn(context, request, user, {
    method: challenge.method,
    redirectTo: challenge.redirectTo ?? (user.role === "admin" ? "/admin" : "/dashboard"),
    // How the code was proved goes with the session: a recovery code does not count for step-up.
    secondFactor: { at: now, method: proof.recoveryCodeUsed ? "recovery_code" : "totp" },
    alsoWrite: { challenge: db.delete(schema.signInChallenges).where(eq(schema.signInChallenges.id, challenge.id)) },
    notices: proof.recoveryCodeUsed ? ["recovery_code_used"] : [],
    extraCookies: [await clearChallengeCookie(env)],
    now,
  });
  return { ok: true, response };
}

/** The dashboard suggests two-factor sign-in to a client who has it off, until they dismiss it. */
export async function suggestsTwoFactor(db: Db, user: Pick<SessionUser, "id" | "twoFactorEnabled">) {
  if (user.twoFactorEnabled) return false;
  const row = await db
    .select({ dismissedAt: users.twoFactorSuggestionDismissedAt })
    .from(users)
    .where(eq(users.id, user.id))
    .get();
  return row !== undefined && row.dismissedAt === null;
}

export function dismissTwoFactorSuggestion(db: Db, userId: string, now = Date.now()) {
  return db
    .update(users)
    .set({ twoFactorSuggestionDismissedAt: now })
    .where(and(eq(users.id, userId), isNull(users.twoFactorSuggestionDismissedAt)));
}
