/**
 * Single-use links sent by mail (docs/product.md, "Accounts and sessions"): a password reset (30 minutes) and an
 * e-mail confirmation (7 days). Only a token's SHA-256 is stored; spending one is a conditional write, so two
 * submissions of one link act once.
 */
import { and, eq, gt, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { randomToken, sha256Hex } from "../crypto.server";
import type { Db } from "../db.server";
import { returning, schema, writeTogether } from "../db.server";

const { users, authTokens } = schema;

export const RESET_TOKEN_TTL_MS = 30 * 60 * 1000;
export const CONFIRM_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** A single-use link's token (only its hash is stored) and its row, valid for its purpose's time. */
export function newToken(purpose: "reset" | "confirm", userId: string, now: number) {
  const token = randomToken(32);
  return sha256Hex(token).then((id) => ({
    token,
    row: {
      id,
      userId,
      purpose,
      createdAt: now,
      expiresAt: now + (purpose === "reset" ? RESET_TOKEN_TTL_MS : CONFIRM_TOKEN_TTL_MS),
    },
  }));
}
/** The row of an unspent, unexpired token of this purpose (by its hash), as a condition. */
async function usableTokenCondition(purpose: "reset" | "confirm", token: string, now: number) {
  const id = await sha256Hex(token);
  const condition = and(
    eq(authTokens.id, id),
    eq(authTokens.purpose, purpose),
    isNull(authTokens.usedAt),
    gt(authTokens.expiresAt, now),
  );
  return { id, condition };
}

/**
 * The same token, for the batch that spends it: the user it belongs to (a subquery) and the write that
 * spends it, which returns a row only for the first of two submissions of one link.
 */
export async function usableToken(db: Db, purpose: "reset" | "confirm", token: string, now: number) {
  const { id, condition } = await usableTokenCondition(purpose, token, now);
  return {
    /** The token is still unspent and unexpired, as a condition on `auth_tokens`. */
    usable: condition,
    owner: db.select({ userId: authTokens.userId }).from(authTokens).where(condition),
    spend: returning<{ id: string }>(
      db
        .update(authTokens)
        .set({ usedAt: now })
        .where(and(eq(authTokens.id, id), condition))
        .returning({ id: authTokens.id }),
    ),
  };
}

export async function isResetTokenUsable(db: Db, token: string, now = Date.now()): Promise<boolean> {
  if (!token) return false;
  const { condition } = await usableTokenCondition("reset", token, now);
  return Boolean(await db.select({ id: authTokens.id }).from(authTokens).where(condition).get());
}
/** Spends every unused reset link of a user: after a password change or reset, none may change it again. */
export function spendResetLinks(db: Db, userId: string | SQL, now: number) {
  return db
    .update(authTokens)
    .set({ usedAt: now })
    .where(and(eq(authTokens.userId, userId), eq(authTokens.purpose, "reset"), isNull(authTokens.usedAt)));
}
/** Marks the e-mail confirmed and spends the link; false for an unknown, used or expired link. */
export async function confirmEmail(db: Db, token: string, now = Date.now()): Promise<boolean> {
  if (!token) return false;
  const { owner, spend } = await usableToken(db, "confirm", token, now);
  const { spent } = await writeTogether(db, {
    confirmed: db
      .update(users)
      .set({ emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, ${now})` })
      .where(inArray(users.id, owner)),
    spent: spend,
  });
  return spent.length === 1;
}
