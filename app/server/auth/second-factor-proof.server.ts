/**
 * Proving a second factor (docs/product.md, "Account security"; docs/decisions/0018): what a code looks like, the
 * account's budget of wrong codes, the authenticator's code alone (step-up), a code or a recovery code (sign-in,
 * turning two-factor off, new recovery codes), and the password and a code together (the owner's proof).
 * - 5 wrong codes for an account in 15 minutes lock its code entry (`BUDGETS.secondFactorPerAccount`): each try
 *   takes a place in the budget in one conditional statement before its code is looked at, so parallel guesses
 *   cannot get past the limit, and a right code gives its place back.
 */
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { TWO_FACTOR_MESSAGES } from "~/lib/schemas/two-factor";
import type { AppContext } from "~/load-context";
import { sha256Hex } from "../crypto.server";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { BUDGETS, takeBudgetPlace } from "../rate-limit.server";
import type { SessionUser } from "../session.server";
import { checkCurrentPassword } from "./current-password.server";
import { consumeTotpCode } from "./totp.server";

const { twoFactor, recoveryCodes, sessions, users, authFailures } = schema;

export type TwoFactorContext = Pick<AppContext, "db" | "env" | "bindings" | "ctx" | "cf">;
export type Refusal = { ok: false; error: string; field?: string; status: number };
/** What is hashed and compared: the characters alone, however they were typed (case, spaces, dashes). */
export const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, "");
export const looksLikeRecoveryCode = (normalized: string) => /^[a-z2-7]{10}$/.test(normalized);
export const looksLikeTotpCode = (code: string) => /^\d{6}$/.test(code.replace(/\s/g, ""));
/**
 * One try at a code: takes a place in the account's budget of wrong codes, in one statement that succeeds only
 * while fewer than 5 are in the window. Null when the account's code entry is locked.
 */
export function takeCodeTry(db: Db, userId: string, now: number): Promise<number | null> {
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
export type Proof = { ok: true; recoveryCodeUsed: boolean } | { ok: false; locked: boolean };
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
export async function proveSecondFactor(
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
            // Two-factor sign-in is on, by the authenticator app or by a passkey (whose first one made the codes).
            sql`(EXISTS (SELECT 1 FROM two_factor WHERE user_id = ${userId} AND confirmed_at IS NOT NULL)
                 OR EXISTS (SELECT 1 FROM passkeys WHERE user_id = ${userId}))`,
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
export const outboxIds = (...written: unknown[]) =>
  written.flatMap((rows) => (rows as Array<{ id: number }> | undefined)?.map((row) => row.id) ?? []);
export const refusalOfProof = (proof: Extract<Proof, { ok: false }>): Refusal =>
  proof.locked
    ? { ok: false, error: TWO_FACTOR_MESSAGES.locked, status: 429 }
    : { ok: false, error: TWO_FACTOR_MESSAGES.invalidCode, field: "code", status: 400 };
/**
 * This session entered the authenticator's code just now: it counts as a fresh second factor (step-up). A
 * recovery code never does (see app/server/auth/step-up.server.ts).
 */
export const freshSecondFactor = (db: Db, sessionId: string, now: number) =>
  db.update(sessions).set({ secondFactorAt: now, secondFactorMethod: "totp" }).where(eq(sessions.id, sessionId));
/** The password and a second factor, for turning two-factor off and for new recovery codes. */
export async function proveOwner(
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
  if (refused) return { ok: false, ...refused };
  const proof = await proveSecondFactor(context, user.id, input.code, now);
  return proof.ok ? proof : refusalOfProof(proof);
}

/**
 * 'Confirm it's you' on the Passkeys card: the authenticator's code makes this session fresh (10 minutes), as
 * removing a passkey asks. (A passkey does the same through /passkeys/verify.)
 */
export async function confirmWithCode(
  context: TwoFactorContext,
  user: SessionUser,
  code: string,
  now = Date.now(),
): Promise<{ ok: true } | Refusal> {
  const tried = await tryAuthenticatorCode(context, user.id, code.replace(/\s/g, ""), now);
  if (!tried.ok) {
    const error = tried.locked ? TWO_FACTOR_MESSAGES.locked : TWO_FACTOR_MESSAGES.invalidCode;
    return { ok: false, error, status: tried.locked ? 429 : 401 };
  }
  await freshSecondFactor(context.db, user.sessionId, now);
  return { ok: true };
}
