import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { builtOnce } from "../built-once.server";
import { schema } from "../db.server";

const { sessions, users, profiles, twoFactor } = schema;

/**
 * The signed-in user of a session id (`sessionId`), while the session is neither expired (`now`) nor idle since
 * `idleSince`, and the account not deactivated: the read of every signed-in request, built once
 * (../built-once.server.ts).
 */
export const sessionUserRead = builtOnce((db) =>
  db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      firstName: sql<string>`coalesce(${profiles.firstName}, '')`,
      lastName: sql<string>`coalesce(${profiles.lastName}, '')`,
      profileStatus: profiles.status,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
      // An authenticator app confirmed, or a passkey: either is two-factor sign-in.
      twoFactorEnabled: sql<number>`${twoFactor.confirmedAt} IS NOT NULL OR EXISTS (SELECT 1 FROM passkeys WHERE passkeys.user_id = ${users.id})`,
      hasPasskey: sql<number>`EXISTS (SELECT 1 FROM passkeys WHERE passkeys.user_id = ${users.id})`,
      hasAuthenticatorApp: sql<number>`${twoFactor.confirmedAt} IS NOT NULL`,
      secondFactorAt: sessions.secondFactorAt,
      secondFactorMethod: sessions.secondFactorMethod,
      secondFactorResetAt: users.secondFactorResetAt,
      roles: sql<string | null>`(SELECT group_concat(role) FROM admin_roles WHERE admin_roles.user_id = ${users.id})`,
      unreadNotifications: sql<number>`(SELECT count(*) FROM notifications WHERE notifications.user_id = ${users.id} AND notifications.read_at IS NULL)`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(twoFactor, eq(twoFactor.userId, users.id))
    .where(
      and(
        eq(sessions.id, sql.placeholder("sessionId")),
        gt(sessions.expiresAt, sql.placeholder("now")),
        gt(sessions.lastSeenAt, sql.placeholder("idleSince")),
        // A deactivated admin has no session, whichever way it began (the team page).
        isNull(users.deactivatedAt),
      ),
    ),
);
