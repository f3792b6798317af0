/**
 * Two-factor sign-in with TOTP (docs/product.md, "Account security"; docs/decisions/0018), its enrolment and
 * removal: a new secret, stored encrypted and unconfirmed (a new start replaces an unconfirmed one), turned on by a
 * current code with 10 new recovery codes (./recovery-codes.server.ts); turned off with the password and a current
 * code (or a recovery code) in the same form (./second-factor-proof.server.ts). The sign-in's second step is
 * ./second-step.server.ts.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { qrPath } from "~/lib/qr";
import { TWO_FACTOR_MESSAGES } from "~/lib/schemas/two-factor";
import { RECOVERY_RESET_HOLD_MS } from "~/lib/step-up";
import type { AppContext } from "~/load-context";
import { afterCommit } from "../commands.server";
import type { Db } from "../db.server";
import { returning, schema, writeTogether } from "../db.server";
import { endSessionsOf, type SessionUser } from "../session.server";
import { clientMeta } from "./client-meta.server";
import { checkCurrentPassword } from "./current-password.server";
import { newRecoveryCodes, recoveryNotice } from "./recovery-codes.server";
import {
  freshSecondFactor,
  outboxIds,
  proveOwner,
  type Refusal,
  refusalOfProof,
  type TwoFactorContext,
  takeCodeTry,
} from "./second-factor-proof.server";
import { securityNotice } from "./security-notice.server";
import { hasFreshSecondFactor } from "./step-up.server";
import {
  consumeTotpCode,
  decryptTotpSecret,
  encryptTotpSecret,
  newTotpSecret,
  secretForManualEntry,
  totpUri,
} from "./totp.server";

const { twoFactor, recoveryCodes, users, authFailures } = schema;

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
    if (refused) return { ok: false, ...refused };
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
    otherSessions: returning<{ id: string }>(
      endSessionsOf(db, user.id, user.sessionId).returning({ id: schema.sessions.id }),
    ),
    thisSession: freshSecondFactor(db, user.sessionId, now),
    // An account whose passkey already holds two-factor sign-in, set up from a session that proved no second factor
    // lately (one signed in with a recovery code): whoever does it may hold only the sheet and the password, so the
    // step-up hold keeps money where it is for a while, as when the app is turned off with a recovery code.
    resetHold: hasFreshSecondFactor(user, now)
      ? undefined
      : db
          .update(users)
          .set({ secondFactorResetAt: now })
          .where(and(eq(users.id, user.id), sql`EXISTS (SELECT 1 FROM passkeys WHERE passkeys.user_id = ${user.id})`)),
    notice: securityNotice(db, {
      to: user.email,
      name: user.firstName,
      event: "two_factor_on",
      meta: clientMeta(request, context.cf),
      at: now,
    }),
  });
  // The ended sessions' open pages lose their live feed at once, as after a password change.
  afterCommit(context, {
    emailIds: outboxIds(written.notice),
    endedSessions: written.otherSessions.map((row) => ({ userId: user.id, sessionId: row.id })),
  });
  return { ok: true, recoveryCodes: fresh.codes };
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
      holdUntil: proof.recoveryCodeUsed ? now + RECOVERY_RESET_HOLD_MS : undefined,
    }),
  });
  afterCommit(context, { emailIds: outboxIds(written.recoveryNotice, written.notice) });
  return { ok: true };
}
/** Whether the client dismissed the dashboard's two-factor suggestion, unexecuted, for the page's batch. */
export function twoFactorSuggestionQuery(db: Db, userId: string) {
  return db.select({ dismissedAt: users.twoFactorSuggestionDismissedAt }).from(users).where(eq(users.id, userId));
}
/** The dashboard suggests two-factor sign-in to a client who has it off, until they dismiss it. */
export function suggestsTwoFactor(
  user: Pick<SessionUser, "twoFactorEnabled">,
  rows: Awaited<ReturnType<typeof twoFactorSuggestionQuery>>,
) {
  return !user.twoFactorEnabled && rows[0] !== undefined && rows[0].dismissedAt === null;
}
export function dismissTwoFactorSuggestion(db: Db, userId: string, now = Date.now()) {
  return db
    .update(users)
    .set({ twoFactorSuggestionDismissedAt: now })
    .where(and(eq(users.id, userId), isNull(users.twoFactorSuggestionDismissedAt)));
}
