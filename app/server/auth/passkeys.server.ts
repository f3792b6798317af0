/**
 * A signed-in account's passkeys (docs/product.md, "Passkeys"): the list, adding one (after a proof: a fresh second
 * factor for an account with two-factor sign-in on, else the current password), renaming and removing. Each
 * change is audited and mailed as a security notice in the batch that makes it. Removing is its own module
 * (./passkey-removal.server.ts).
 */
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { and, asc, eq, sql } from "drizzle-orm";
import { defaultPasskeyName, MAX_PASSKEYS, PASSKEY_MESSAGES, passkeyNameProblem } from "~/lib/passkeys";
import { TWO_FACTOR_MESSAGES } from "~/lib/schemas/two-factor";
import { auditInsert } from "../audit.server";
import { afterCommit } from "../commands.server";
import { returning, schema, writeTogether } from "../db.server";
import { endSessionsOf, type SessionUser } from "../session.server";
import { clientMeta } from "./client-meta.server";
import { checkCurrentPassword } from "./current-password.server";
import { registrationOptions, verifyRegistration } from "./passkey-ceremony.server";
import { firstPasskeyRecoveryCodes, newRecoveryCodes } from "./recovery-codes.server";
import { freshSecondFactor, type TwoFactorContext, tryAuthenticatorCode } from "./second-factor-proof.server";
import { securityNotice, securityNoticeIf } from "./security-notice.server";
import { hasFreshSecondFactor } from "./step-up.server";

const { passkeys, users, sessions } = schema;

export interface PasskeyView {
  id: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
  /** Synced to the person's other devices (the authenticator's backup state). */
  synced: boolean;
}

type Refusal = { ok: false; error: string; status: number; field?: string };
/** What the add form sends first: the current password, or the authenticator's code. */
export type PasskeyProof = { currentPassword?: string; code?: string };

export async function listPasskeys(context: Pick<TwoFactorContext, "db">, userId: string): Promise<PasskeyView[]> {
  const rows = await context.db
    .select({
      id: passkeys.id,
      name: passkeys.name,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
      synced: passkeys.backedUp,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt));
  return rows;
}

/**
 * The proof an account gives before adding a passkey: with two-factor sign-in on, a fresh second factor (this
 * session's within 10 minutes, or the authenticator's code typed now); otherwise its current password. An
 * account with neither (signed up through a provider) has only its session to show.
 */
async function proveForNewPasskey(
  context: TwoFactorContext,
  user: SessionUser,
  proof: PasskeyProof,
  now: number,
): Promise<Refusal | null> {
  if (user.twoFactorEnabled) {
    if (hasFreshSecondFactor(user, now)) return null;
    const code = (proof.code ?? "").replace(/\s/g, "");
    if (code === "") {
      // An account with a passkey may confirm with it (the card's 'Confirm it is you'); one with only the app types
      // its code.
      const error = user.hasPasskey ? PASSKEY_MESSAGES.confirmToAdd : TWO_FACTOR_MESSAGES.codePrompt;
      return { ok: false, error, status: 401, field: "code" };
    }
    const tried = await tryAuthenticatorCode(context, user.id, code, now);
    if (!tried.ok) {
      const error = tried.locked ? TWO_FACTOR_MESSAGES.locked : TWO_FACTOR_MESSAGES.invalidCode;
      return { ok: false, error, status: tried.locked ? 429 : 401, field: "code" };
    }
    await freshSecondFactor(context.db, user.sessionId, now);
    return null;
  }
  const account = await context.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id)).get();
  if (!account?.hash) return null;
  const refusal = await checkCurrentPassword(context.db, user.id, proof.currentPassword ?? "", account.hash, now);
  return refusal ? { ok: false, ...refusal } : null;
}

/** The first half of adding a passkey: the proof, then the browser's options (the challenge is kept here). */
export async function startAddingPasskey(
  context: TwoFactorContext,
  request: Request,
  user: SessionUser,
  proof: PasskeyProof,
  now = Date.now(),
) {
  const count = await context.db
    .select({ n: sql<number>`count(*)` })
    .from(passkeys)
    .where(eq(passkeys.userId, user.id))
    .get();
  if ((count?.n ?? 0) >= MAX_PASSKEYS) return { ok: false as const, error: PASSKEY_MESSAGES.tooMany, status: 409 };
  const refusal = await proveForNewPasskey(context, user, proof, now);
  if (refusal) return refusal;
  const displayName = `${user.firstName} ${user.lastName}`.trim();
  const options = await registrationOptions(
    context.db,
    context.env,
    request,
    { id: user.id, email: user.email, displayName },
    user.sessionId,
    now,
  );
  if (!options) return { ok: false as const, error: PASSKEY_MESSAGES.tooManyOpen, status: 429 };
  return { ok: true as const, options };
}

/** The second half: the browser's answer verified, and the passkey stored with its audit row and notice. */
export async function finishAddingPasskey(
  context: TwoFactorContext,
  request: Request,
  user: SessionUser,
  input: { response: RegistrationResponseJSON; name: string },
  now = Date.now(),
): Promise<{ ok: true; name: string; recoveryCodes: string[] | null } | Refusal> {
  const meta = clientMeta(request, context.cf);
  const name = input.name.trim() === "" ? defaultPasskeyName(meta.userAgent) : input.name.trim();
  const problem = passkeyNameProblem(name);
  if (problem) return { ok: false, error: problem, status: 400, field: "name" };
  const verified = await verifyRegistration(
    context.db,
    context.env,
    request,
    input.response,
    { userId: user.id, requestedBy: user.sessionId },
    now,
  );
  if (!verified.ok) return verified;
  const { credential } = verified;
  // The first passkey turns two-factor sign-in on: as when the app is set up, every other session ends, and the
  // account gets its recovery codes, shown once.
  const firstSecondFactor = !user.twoFactorEnabled;
  const fresh = firstSecondFactor ? await newRecoveryCodes(user.id, now) : null;
  const recovery = fresh ? firstPasskeyRecoveryCodes(user.id, credential.id, fresh.rows) : undefined;
  try {
    const { notice, otherSessions, codes } = await writeTogether(context.db, {
      otherSessions: returning<{ id: string }>(
        endSessionsOf(context.db, user.id, user.sessionId, sql`${firstSecondFactor ? 1 : 0} = 1`).returning({
          id: sessions.id,
        }),
      ),
      passkey: context.db.insert(passkeys).values({ ...credential, userId: user.id, name, createdAt: now }),
      audit: auditInsert({
        actor: { id: user.id, email: user.email },
        action: "passkey.add",
        target: `user:${user.id}`,
        detail: { passkey: name, credential: credential.id.slice(0, 12), synced: credential.backedUp },
        at: now,
      }),
      notice: returning<{ id: number }>(
        securityNotice(context.db, {
          to: user.email,
          name: user.firstName,
          event: "passkey_added",
          meta,
          at: now,
          passkey: name,
        }),
      ),
      earlierCodes: recovery?.earlierCodes,
      codes: recovery?.codes,
    });
    afterCommit(context, {
      emailIds: notice.map((row) => row.id),
      endedSessions: otherSessions.map((row) => ({ userId: user.id, sessionId: row.id })),
    });
    return { ok: true, name, recoveryCodes: fresh && (codes ?? []).length > 0 ? fresh.codes : null };
  } catch (error) {
    // The tenth passkey's trigger, or a credential some account already holds.
    const message = String(error);
    if (message.includes("at most 10 passkeys")) return { ok: false, error: PASSKEY_MESSAGES.tooMany, status: 409 };
    if (message.includes("UNIQUE") || message.includes("PRIMARY KEY"))
      return { ok: false, error: PASSKEY_MESSAGES.alreadyRegistered, status: 409 };
    throw error;
  }
}

/** The signed-in account's own passkey of this id: a rename or removal names nothing else. */
export const ownPasskey = (user: SessionUser, id: string) => and(eq(passkeys.id, id), eq(passkeys.userId, user.id));

export async function renamePasskey(
  context: TwoFactorContext,
  request: Request,
  user: SessionUser,
  input: { id: string; name: string },
  now = Date.now(),
): Promise<{ ok: true } | Refusal> {
  const name = input.name.trim();
  const problem = passkeyNameProblem(name);
  if (problem) return { ok: false, error: problem, status: 400, field: "name" };
  const theRow = sql`passkeys WHERE id = ${input.id} AND user_id = ${user.id}`;
  const { renamed, notice } = await writeTogether(context.db, {
    audit: auditInsert({
      actor: { id: user.id, email: user.email },
      action: "passkey.rename",
      target: `user:${user.id}`,
      detail: sql`'from', name, 'to', ${name}`,
      from: theRow,
      at: now,
    }),
    renamed: context.db.update(passkeys).set({ name }).where(ownPasskey(user, input.id)).returning({ id: passkeys.id }),
    notice: securityNoticeIf(
      {
        to: user.email,
        name: user.firstName,
        event: "passkey_renamed",
        meta: clientMeta(request, context.cf),
        at: now,
        passkey: name,
      },
      theRow,
    ),
  });
  if (renamed.length === 0) return { ok: false, error: PASSKEY_MESSAGES.notFound, status: 404 };
  afterCommit(context, { emailIds: notice.map((row) => row.id) });
  return { ok: true };
}
