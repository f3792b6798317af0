/**
 * Removing a passkey (docs/product.md, "Passkeys"): refused when it is the account's last way in, or an admin's last
 * second factor; removing a client's last second factor turns two-factor sign-in off, which the client confirmed,
 * and is mailed as such besides the removal.
 */
import { and, sql } from "drizzle-orm";
import { PASSKEY_MESSAGES } from "~/lib/passkeys";
import { auditInsert } from "../audit.server";
import { afterCommit } from "../commands.server";
import { returning, schema, writeTogether } from "../db.server";
import type { SessionUser } from "../session.server";
import { clientMeta } from "./client-meta.server";
import { ownPasskey } from "./passkeys.server";
import type { Refusal, TwoFactorContext } from "./second-factor-proof.server";
import { securityNoticeIf } from "./security-notice.server";
import { hasFreshSecondFactor } from "./step-up.server";

const { passkeys } = schema;

/**
 * Removes a passkey, from a session fresh from a second factor (10 minutes after a code or a passkey, as step-up),
 * while the account keeps another way in (a password, a provider or another passkey) and, for
 * an admin, another second factor (the authenticator app or another passkey). Both are the delete's own
 * condition, so two removals at once cannot leave the account with neither. Removing a client's last second factor
 * turns two-factor sign-in off: only when the person confirmed that (`turnsOffConfirmed`), and the recovery codes
 * go with it.
 */
export async function removePasskey(
  context: TwoFactorContext,
  request: Request,
  user: SessionUser,
  id: string,
  turnsOffConfirmed = false,
  now = Date.now(),
): Promise<{ ok: true; twoFactorOff: boolean } | Refusal> {
  // A passkey is a second factor: only a session that proved one just now takes it away (a stolen session with the
  // password must not swap the owner's passkey for its own).
  if (!hasFreshSecondFactor(user, now)) return { ok: false, error: PASSKEY_MESSAGES.confirmFirst, status: 401 };
  const anotherPasskey = sql`EXISTS (SELECT 1 FROM passkeys other WHERE other.user_id = ${user.id} AND other.id <> ${id})`;
  const keepsAWayIn = sql`(${anotherPasskey}
    OR EXISTS (SELECT 1 FROM users WHERE users.id = ${user.id} AND users.password_hash <> '')
    OR EXISTS (SELECT 1 FROM oauth_accounts WHERE oauth_accounts.user_id = ${user.id}))`;
  const appOn = sql`EXISTS (SELECT 1 FROM two_factor WHERE two_factor.user_id = ${user.id} AND two_factor.confirmed_at IS NOT NULL)`;
  const keepsSecondFactor = sql`(${user.role !== "admin"} OR ${anotherPasskey} OR ${appOn})`;
  const offIsConfirmed = sql`(${turnsOffConfirmed} OR ${anotherPasskey} OR ${appOn})`;
  const allowed = and(ownPasskey(user, id), keepsAWayIn, keepsSecondFactor, offIsConfirmed);
  const theRow = sql`passkeys WHERE ${allowed}`;
  const { removed, notice, offNotice } = await writeTogether(context.db, {
    audit: auditInsert({
      actor: { id: user.id, email: user.email },
      action: "passkey.remove",
      target: `user:${user.id}`,
      detail: sql`'passkey', name, 'credential', substr(id, 1, 12)`,
      from: theRow,
      at: now,
    }),
    notice: securityNoticeIf(
      {
        to: user.email,
        name: user.firstName,
        event: "passkey_removed",
        meta: clientMeta(request, context.cf),
        at: now,
        passkey: (await context.db.select({ name: passkeys.name }).from(passkeys).where(ownPasskey(user, id)).get())
          ?.name,
      },
      theRow,
    ),
    removed: context.db.delete(passkeys).where(allowed).returning({ id: passkeys.id }),
    // The last second factor gone: the account signs in with its password alone now, and its owner is told so.
    offNotice: securityNoticeIf(
      { to: user.email, name: user.firstName, event: "two_factor_off", meta: clientMeta(request, context.cf), at: now },
      sql`users WHERE id = ${user.id} AND NOT EXISTS (SELECT 1 FROM passkeys WHERE user_id = ${user.id})
            AND NOT ${appOn} AND EXISTS (SELECT 1 FROM audit_log WHERE actor_id = ${user.id}
                                         AND action = 'passkey.remove' AND created_at = ${now})`,
    ),
    // Two-factor sign-in is off now: the codes that stood in for it go too.
    codes: returning<{ id: number }>(sql`DELETE FROM recovery_codes WHERE user_id = ${user.id}
      AND NOT EXISTS (SELECT 1 FROM passkeys WHERE user_id = ${user.id}) AND NOT ${appOn} RETURNING id`),
  });
  if (removed.length > 0) {
    afterCommit(context, { emailIds: [...notice, ...offNotice].map((row) => row.id) });
    const off = await context.db.get<{ off: number }>(
      sql`SELECT NOT EXISTS (SELECT 1 FROM passkeys WHERE user_id = ${user.id}) AND NOT ${appOn} AS off`,
    );
    return { ok: true, twoFactorOff: Boolean(off?.off) };
  }
  const still = await context.db.select({ id: passkeys.id }).from(passkeys).where(ownPasskey(user, id)).get();
  if (!still) return { ok: false, error: PASSKEY_MESSAGES.notFound, status: 404 };
  const why = await context.db.get<{ lastWayIn: number; adminsLast: number }>(
    sql`SELECT NOT ${keepsAWayIn} AS lastWayIn, NOT ${keepsSecondFactor} AS adminsLast`,
  );
  const error = why?.lastWayIn
    ? PASSKEY_MESSAGES.lastWayIn
    : why?.adminsLast
      ? PASSKEY_MESSAGES.adminNeedsSecondFactor
      : PASSKEY_MESSAGES.lastSecondFactor;
  return { ok: false, error, status: 409 };
}
