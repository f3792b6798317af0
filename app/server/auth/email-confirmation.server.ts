/**
 * A new e-mail confirmation link, asked for by a signed-in client whose address is not confirmed yet
 * (docs/product.md, "Accounts and sessions"). Within the account's budget, one batch spends every earlier unused
 * link, stores the new one and queues its mail, so only the latest link works and a link is never stored without
 * its mail. A confirmed address, or one over the budget, is refused and nothing changes.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { MESSAGES } from "~/lib/schemas/auth";
import type { CommandContext, Result } from "../commands.server";
import { afterCommit } from "../commands.server";
import { schema, writeTogether } from "../db.server";
import { enqueueEmailFor } from "../mail/outbox.server";
import { BUDGETS, takeBudgetPlace } from "../rate-limit.server";
import type { SessionUser } from "../session.server";
import { newToken } from "./links.server";

const { users, authTokens } = schema;

/** Sends a new confirmation link pointing at `origin`; the refusal says why nothing was sent. */
export async function resendConfirmation(
  context: CommandContext,
  user: Pick<SessionUser, "id" | "firstName">,
  origin: string,
  now = Date.now(),
): Promise<Result> {
  const { db } = context;
  const account = await db
    .select({ confirmedAt: users.emailConfirmedAt })
    .from(users)
    .where(eq(users.id, user.id))
    .get();
  if (!account || account.confirmedAt !== null) return { ok: false, error: MESSAGES.alreadyConfirmed };
  if ((await takeBudgetPlace(db, BUDGETS.confirmResendPerAccount, user.id, now)) === null) {
    return { ok: false, error: MESSAGES.tooManyConfirmations };
  }

  const confirm = await newToken("confirm", user.id, now);
  // Each write holds only while the address is still unconfirmed (a link used in the meantime confirmed it).
  const unconfirmed = sql`users WHERE users.id = ${user.id} AND users.email_confirmed_at IS NULL`;
  const { notice } = await writeTogether(db, {
    earlierLinks: db
      .update(authTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(authTokens.userId, user.id),
          eq(authTokens.purpose, "confirm"),
          isNull(authTokens.usedAt),
          sql`EXISTS (SELECT 1 FROM ${unconfirmed})`,
        ),
      ),
    link: sql`INSERT INTO auth_tokens (id, user_id, purpose, created_at, expires_at)
              SELECT ${confirm.row.id}, ${user.id}, 'confirm', ${now}, ${confirm.row.expiresAt} FROM ${unconfirmed}`,
    notice: enqueueEmailFor({
      template: "email_confirmation",
      data: { name: user.firstName, confirmUrl: `${origin}/confirm-email?token=${confirm.token}` },
      to: sql`users.email`,
      from: unconfirmed,
    }),
  });
  if (notice.length === 0) return { ok: false, error: MESSAGES.alreadyConfirmed };
  afterCommit(context, { emailIds: notice.map((row) => row.id) });
  return { ok: true };
}
