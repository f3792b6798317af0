/**
 * Invitations to the back office (docs/product.md, "The team page"): an owner invites an e-mail with roles; the
 * mailed link works once, for 48 hours (only its token's SHA-256 is stored); the invitee chooses a name and a
 * password, and is signed in as an admin who must set up two-factor sign-in before anything else.
 */
import { and, eq, gt, isNull, type SQL, sql } from "drizzle-orm";
import { INVITATION_TTL_MS, TEAM_MESSAGES } from "~/lib/team";
import type { BackOfficeRole } from "../../../db/enums";
import { type Actor, auditInsert } from "../audit.server";
import { clientMeta } from "../auth/client-meta.server";
import { afterCommit, type CommandContext, type FormOutcome } from "../commands.server";
import { randomToken, sha256Hex } from "../crypto.server";
import { returning, schema, writeTogether } from "../db.server";
import { forbidden } from "../http.server";
import { enqueueEmailFor } from "../mail/outbox.server";
import { hashPassword, scryptCostFor } from "../password.server";
import { newSession } from "../session.server";
import { isActiveOwner, mailTeamChange, rolesText } from "./team-guards.server";

const { users, adminInvitations } = schema;

/**
 * An invitation that can still be accepted: unused, unexpired, its address still without an account, and sent by
 * someone who is still an active owner.
 * It speaks for that owner, so an owner who is deactivated or loses the role takes their open invitations along
 * (a trigger holds the same rule).
 */
export const invitationUsable = (now: number) =>
  sql`admin_invitations.accepted_at IS NULL AND admin_invitations.expires_at > ${now}
      AND ${isActiveOwner(sql`admin_invitations.invited_by`)}
      AND NOT EXISTS (SELECT 1 FROM users WHERE users.email = admin_invitations.email)`;

/** Ends the open invitations an owner sent, when `onlyIf` holds: they stop being an owner, or revoke them. */
export const endInvitationsOf = (ownerId: string, now: number, onlyIf: SQL) =>
  sql`UPDATE admin_invitations SET expires_at = ${now}
      WHERE invited_by = ${ownerId} AND accepted_at IS NULL AND expires_at > ${now} AND ${onlyIf}`;

/**
 * Invites an e-mail with roles (never owner). An e-mail that already has an account, a client's or an admin's, is
 * refused: a client never becomes an admin, and an admin's roles change on the team page. A new invitation of the
 * same e-mail ends the earlier unaccepted ones.
 */
export async function inviteAdmin(
  context: CommandContext,
  actor: Required<Actor> & { firstName: string },
  input: { email: string; roles: BackOfficeRole[] },
  origin: string,
  now = Date.now(),
): Promise<FormOutcome> {
  const { db } = context;
  const existing = await db.select({ role: users.role }).from(users).where(eq(users.email, input.email)).get();
  if (existing) {
    const error = existing.role === "admin" ? TEAM_MESSAGES.emailIsAdmin : TEAM_MESSAGES.emailIsClient;
    return { ok: false, error, status: 409, field: "email" };
  }
  const token = randomToken(32);
  const id = await sha256Hex(token);
  const expiresAt = now + INVITATION_TTL_MS;
  const invited = sql`EXISTS (SELECT 1 FROM admin_invitations WHERE id = ${id})`;
  const { invitation, invite, notice } = await writeTogether(db, {
    earlier: db
      .update(adminInvitations)
      .set({ expiresAt: now })
      .where(
        and(
          eq(adminInvitations.email, input.email),
          isNull(adminInvitations.acceptedAt),
          gt(adminInvitations.expiresAt, now),
        ),
      ),
    // Only while the inviter is an active owner and nobody has the address: the database decides, not a read before.
    invitation: returning<{ id: string }>(
      sql`INSERT INTO admin_invitations (id, email, roles, invited_by, created_at, expires_at)
          SELECT ${id}, ${input.email}, ${JSON.stringify(input.roles)}, ${actor.id}, ${now}, ${expiresAt}
          WHERE ${isActiveOwner(actor.id)} AND NOT EXISTS (SELECT 1 FROM users WHERE email = ${input.email})
          RETURNING id`,
    ),
    audit: auditInsert({
      actor,
      action: "team.invite",
      target: sql`${`invitation:${input.email}`}`,
      detail: { email: input.email, roles: rolesText(input.roles), expiresAt },
      onlyIf: invited,
      at: now,
    }),
    invite: enqueueEmailFor({
      template: "admin_invitation",
      data: {
        invitedBy: actor.firstName || actor.email,
        roles: rolesText(input.roles),
        inviteUrl: `${origin}/team/invite?token=${token}`,
        expiresAt,
      },
      to: input.email,
      from: sql`admin_invitations WHERE id = ${id}`,
    }),
    notice: mailTeamChange(
      {
        adminId: sql`NULL`,
        admin: input.email,
        change: `Invited as ${rolesText(input.roles)}`,
        by: actor.email,
        at: now,
      },
      invited,
    ),
  });
  if (invitation.length === 0) {
    // Between the read and the batch, the inviter stopped being an owner or the address got an account.
    const taken = await db.select({ role: users.role }).from(users).where(eq(users.email, input.email)).get();
    if (!taken) forbidden();
    const error = taken.role === "admin" ? TEAM_MESSAGES.emailIsAdmin : TEAM_MESSAGES.emailIsClient;
    return { ok: false, error, status: 409, field: "email" };
  }
  afterCommit(context, { emailIds: [...invite, ...notice].map((row) => row.id) });
  return { ok: true, message: TEAM_MESSAGES.invited(input.email) };
}

/** The invitation a link's token opens, while it is usable; null otherwise. */
export async function openInvitation(context: Pick<CommandContext, "db">, token: string, now = Date.now()) {
  if (!/^[\w-]{20,100}$/.test(token)) return null;
  const row = await context.db
    .select({ email: adminInvitations.email, roles: adminInvitations.roles, expiresAt: adminInvitations.expiresAt })
    .from(adminInvitations)
    .where(and(eq(adminInvitations.id, await sha256Hex(token)), invitationUsable(now)))
    .get();
  return row ?? null;
}

/**
 * Accepts an invitation, in one batch whose first statement spends it (so a link works once, even submitted twice
 * at the same moment): the account (an admin, e-mail confirmed by the link itself), its profile, the invited roles,
 * a session, the audit row and the owners' mail. The new admin has no two-factor sign-in yet, so every page but its
 * set-up sends them there. Returns the session's Set-Cookie, or a refusal for a used or expired link.
 */
export async function acceptInvitation(
  context: CommandContext & { cf?: Parameters<typeof clientMeta>[1] },
  request: Request,
  input: { token: string; firstName: string; lastName: string; password: string },
  now = Date.now(),
): Promise<{ ok: true; setCookie: string } | { ok: false; error: string; status: number }> {
  const { db, env } = context;
  const unusable = { ok: false, error: TEAM_MESSAGES.invitationUnusable, status: 410 } as const;
  const invitation = await openInvitation(context, input.token, now);
  if (!invitation) return unusable;
  const id = await sha256Hex(input.token);
  const userId = crypto.randomUUID();
  const passwordHash = await hashPassword(input.password, scryptCostFor(env));
  const session = await newSession(env, userId, now, { meta: clientMeta(request, context.cf) });
  const s = session.row;
  const spentNow = sql`EXISTS (SELECT 1 FROM admin_invitations WHERE id = ${id} AND accepted_at = ${now})`;
  const joined = sql`EXISTS (SELECT 1 FROM users WHERE id = ${userId})`;
  const { spent, notice } = await writeTogether(db, {
    spent: returning<{ id: string }>(
      sql`UPDATE admin_invitations SET accepted_at = ${now}
          WHERE id = ${id} AND ${invitationUsable(now)}
            AND NOT EXISTS (SELECT 1 FROM users WHERE email = admin_invitations.email)
          RETURNING id`,
    ),
    user: sql`INSERT INTO users (id, email, password_hash, role, created_at, last_login_at, email_confirmed_at)
              SELECT ${userId}, email, ${passwordHash}, 'admin', ${now}, ${now}, ${now}
              FROM admin_invitations WHERE id = ${id} AND accepted_at = ${now}`,
    profile: sql`INSERT INTO profiles (user_id, email, first_name, last_name, role, status, created_at, updated_at)
                 SELECT id, email, ${input.firstName}, ${input.lastName}, 'admin', 'active', ${now}, ${now}
                 FROM users WHERE id = ${userId}`,
    roles: sql`INSERT INTO admin_roles (user_id, role, granted_by, granted_at)
               SELECT ${userId}, j.value, i.invited_by, ${now} FROM admin_invitations i, json_each(i.roles) j
               WHERE i.id = ${id} AND i.accepted_at = ${now} AND ${spentNow}`,
    session: sql`INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at, user_agent, country, city)
                 SELECT ${s.id}, ${userId}, ${now}, ${now}, ${s.expiresAt}, ${s.userAgent}, ${s.country}, ${s.city}
                 WHERE ${joined}`,
    audit: auditInsert({
      actor: { id: userId, email: invitation.email },
      action: "team.join",
      target: `user:${userId}`,
      detail: { email: invitation.email, roles: rolesText(invitation.roles) },
      onlyIf: joined,
      at: now,
    }),
    notice: mailTeamChange(
      {
        adminId: userId,
        admin: invitation.email,
        change: `Joined the team as ${rolesText(invitation.roles)}`,
        by: invitation.email,
        at: now,
      },
      joined,
    ),
  });
  if (spent.length === 0) return unusable;
  afterCommit(context, { emailIds: notice.map((row) => row.id) });
  return { ok: true, setCookie: session.setCookie };
}

/**
 * Revokes the open invitation to an address (any owner may): its link stops working at once. Audited and mailed to
 * the owners like the invitation was.
 */
export async function revokeInvitation(
  context: CommandContext,
  actor: Required<Actor>,
  rawEmail: string,
  now = Date.now(),
): Promise<FormOutcome> {
  const { db } = context;
  // As the invitation stored it.
  const email = rawEmail.trim().toLowerCase();
  const target = `invitation:${email}`;
  const revokedNow = sql`EXISTS (SELECT 1 FROM audit_log WHERE target = ${target} AND created_at = ${now}
                                 AND action = 'team.revoke_invitation')`;
  const { revoked, notice } = await writeTogether(db, {
    revoked: returning<{ id: string }>(
      sql`UPDATE admin_invitations SET expires_at = ${now}
          WHERE email = ${email} AND accepted_at IS NULL AND expires_at > ${now} AND ${isActiveOwner(actor.id)}
          RETURNING id`,
    ),
    audit: auditInsert({
      actor,
      action: "team.revoke_invitation",
      target,
      detail: { email },
      onlyIf: sql`changes() > 0`,
      at: now,
    }),
    notice: mailTeamChange(
      { adminId: sql`NULL`, admin: email, change: "Invitation revoked", by: actor.email, at: now },
      revokedNow,
    ),
  });
  if (revoked.length === 0) {
    const stillOwner = await db.get<{ yes: number }>(sql`SELECT ${isActiveOwner(actor.id)} AS yes`);
    if (!stillOwner?.yes) forbidden();
    return { ok: false, error: TEAM_MESSAGES.invitationNotOpen, status: 404 };
  }
  afterCommit(context, { emailIds: notice.map((row) => row.id) });
  return { ok: true, message: TEAM_MESSAGES.invitationRevoked(email) };
}
