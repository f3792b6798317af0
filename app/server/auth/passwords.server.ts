/**
 * Passwords (docs/product.md, "Accounts and sessions"): forgot password (a reset link by mail), the reset itself,
 * and a signed-in change. Each ends the sessions it must and queues the security notice in the same batch.
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { MESSAGES } from "~/lib/schemas/auth";
import type { AccountContext } from "../accounts.server";
import { afterCommit, type CommandContext } from "../commands.server";
import { returning, schema, writeTogether } from "../db.server";
import { enqueueEmail } from "../mail/outbox.server";
import { hashPassword, scryptCostFor } from "../password.server";
import { BUDGETS, isOverBudget, recordAttempt } from "../rate-limit.server";
import { endSessionsOf, type SessionUser } from "../session.server";
import type { ClientMeta } from "./client-meta.server";
import { checkCurrentPassword, type PasswordRefusal } from "./current-password.server";
import { newToken, spendResetLinks, usableToken } from "./links.server";
import { securityNotice, securityNoticeIf } from "./security-notice.server";

const { users, profiles, authTokens } = schema;

/**
 * Forgot password. Whatever happens the caller shows the same text, so nobody can learn which addresses
 * have accounts. A mail goes out only for an existing account within its budget; earlier unused reset
 * links stop working.
 */
export async function requestPasswordReset(
  { db }: AccountContext,
  email: string,
  ip: string,
  origin: string,
  now = Date.now(),
): Promise<{ emailIds: number[] }> {
  const [accountLimited, ipLimited] = await Promise.all([
    isOverBudget(db, BUDGETS.resetPerAccount, email, now),
    isOverBudget(db, BUDGETS.resetPerIp, ip, now),
  ]);
  await writeTogether(db, {
    account: recordAttempt(db, BUDGETS.resetPerAccount, email, now),
    address: recordAttempt(db, BUDGETS.resetPerIp, ip, now),
  });
  if (accountLimited || ipLimited) return { emailIds: [] };

  const user = await db
    .select({ id: users.id, firstName: profiles.firstName })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.email, email))
    .get();
  if (!user) return { emailIds: [] };

  const reset = await newToken("reset", user.id, now);
  const { notice } = await writeTogether(db, {
    earlierLinks: db
      .update(authTokens)
      .set({ usedAt: now })
      .where(and(eq(authTokens.userId, user.id), eq(authTokens.purpose, "reset"), isNull(authTokens.usedAt))),
    token: db.insert(authTokens).values(reset.row),
    notice: returning<{ id: number }>(
      enqueueEmail(db, {
        to: email,
        template: "password_reset",
        data: { name: user.firstName ?? "", resetUrl: `${origin}/reset-password?token=${reset.token}` },
      }),
    ),
  });
  return { emailIds: notice.map((row) => row.id) };
}
/**
 * Sets the new password, ends every session of the user, enqueues the password-changed notice and spends the
 * token, in one batch. The token is spent by the last statement and the notice is conditional on it being
 * unspent, so two submissions of one link change the password once and mail once. `meta` describes the
 * browser the reset came from (there is no session to take it from).
 */
export async function resetPassword(
  { db, env }: AccountContext,
  token: string,
  newPassword: string,
  { meta, now = Date.now() }: { meta: ClientMeta; now?: number },
): Promise<{ changed: false } | { changed: true; userId: string; emailIds: number[] }> {
  if (!token) return { changed: false };
  const { owner, spend, usable } = await usableToken(db, "reset", token, now);
  const person = await db
    .select({ id: users.id, email: users.email, firstName: profiles.firstName })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(inArray(users.id, owner))
    .get();
  if (!person) return { changed: false };
  const passwordHash = await hashPassword(newPassword, scryptCostFor(env));
  const { spent, notice } = await writeTogether(db, {
    password: db.update(users).set({ passwordHash }).where(inArray(users.id, owner)),
    signOut: endSessionsOf(db, sql`(${owner})`),
    notice: securityNoticeIf(
      { to: person.email, name: person.firstName ?? "", event: "password_changed", meta, at: now },
      sql`${authTokens} WHERE ${usable}`,
    ),
    spent: spend,
    // Any other unused reset link of the same user goes too.
    otherLinks: spendResetLinks(db, sql`(${owner})`, now),
  });
  if (spent.length !== 1) return { changed: false };
  return { changed: true, userId: person.id, emailIds: notice.map((row) => row.id) };
}
/**
 * Changes the password after checking the current one; the user's other sessions end, this one stays, and the
 * password-changed notice is enqueued, in one batch; after it, the notice is delivered and the ended sessions'
 * sockets close. `meta` describes the browser the change came from.
 */
export async function changePassword(
  context: CommandContext,
  user: SessionUser,
  input: { currentPassword: string; newPassword: string },
  { meta, now = Date.now() }: { meta: ClientMeta; now?: number },
): Promise<{ ok: true } | ({ ok: false } & PasswordRefusal)> {
  const { db, env } = context;
  const account = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.id)).get();
  if (!account) return { ok: false, error: MESSAGES.currentPasswordWrong, field: "currentPassword", status: 400 };
  const refused = await checkCurrentPassword(db, user.id, input.currentPassword, account.passwordHash, now);
  if (refused) return { ok: false, ...refused };
  const passwordHash = await hashPassword(input.newPassword, scryptCostFor(env));
  const { otherSessions, notice } = await writeTogether(db, {
    password: db.update(users).set({ passwordHash }).where(eq(users.id, user.id)),
    otherSessions: returning<{ id: string }>(
      endSessionsOf(db, user.id, user.sessionId).returning({ id: schema.sessions.id }),
    ),
    // A reset link asked for before the change must not set the password back.
    resetLinks: spendResetLinks(db, user.id, now),
    notice: returning<{ id: number }>(
      securityNotice(db, { to: user.email, name: user.firstName, event: "password_changed", meta, at: now }),
    ),
  });
  afterCommit(context, {
    emailIds: notice.map((row) => row.id),
    endedSessions: otherSessions.map((row) => ({ userId: user.id, sessionId: row.id })),
  });
  return { ok: true };
}
