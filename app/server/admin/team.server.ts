/**
 * The team page's direct changes to an admin (docs/product.md, "The team page"): their roles, deactivation and
 * reactivation. Each is one atomic batch whose first statement decides, under the owner protections: the acting
 * owner is still an active owner, never acts on themselves, and the team keeps an active owner.
 */

import { type SQL, sql } from "drizzle-orm";
import { OWNER_ROLE } from "~/lib/permissions";
import { TEAM_MESSAGES } from "~/lib/team";
import type { BackOfficeRole } from "../../../db/enums";
import { type Actor, auditInsert } from "../audit.server";
import { afterCommit, type CommandContext, type FormOutcome } from "../commands.server";
import { type Db, returning, writeTogether } from "../db.server";
import { forbidden } from "../http.server";
import { endSessionsOf } from "../session.server";
import {
  anotherActiveOwner,
  holdsOwner,
  isActiveAdmin,
  isActiveOwner,
  mailTeamChange,
  rolesText,
} from "./team-guards.server";
import { endInvitationsOf } from "./team-invitations.server";
import { memberToChange, teamChangeRecord, teamMember } from "./team-members.server";

type Owner = Required<Actor>;

type Refusal = FormOutcome & { ok: false };

/** A deactivation's or a reactivation's audit row (with the admin's roles as they stand) and mail. */
function statusChangeRecord(
  actor: Owner,
  userId: string,
  member: { email: string; roles: BackOfficeRole[] },
  action: "team.deactivate" | "team.reactivate",
  done: SQL,
  now: number,
) {
  return teamChangeRecord({
    actor,
    target: { id: userId, email: member.email },
    action,
    detail: { email: member.email, roles: rolesText(member.roles) },
    change: action === "team.deactivate" ? "Deactivated" : "Reactivated",
    done,
    now,
  });
}

/** Why a team change was refused, read after the deciding statement wrote nothing. */
async function refusal(db: Db, actor: Owner, userId: string): Promise<Refusal> {
  if (!(await teamMember(db, actor.id))?.roles.includes(OWNER_ROLE)) forbidden();
  const member = await teamMember(db, userId);
  if (!member) return { ok: false, error: TEAM_MESSAGES.notAnAdmin, status: 404 };
  if (member.deactivatedAt !== null) return { ok: false, error: TEAM_MESSAGES.notActive, status: 409 };
  return { ok: false, error: TEAM_MESSAGES.lastOwner, status: 409 };
}

/**
 * Sets an admin's roles to `roles` (at least one). The owner role may be kept or taken away here, never given (that
 * is a second-approval proposal). The deciding statement is the audit row, written only when the acting owner is
 * an active owner other than the admin, the admin is active, and, when the owner role goes, another active owner
 * remains; the roles change and the mails follow only if it was written.
 */
export async function changeRoles(
  context: CommandContext,
  actor: Owner,
  userId: string,
  roles: BackOfficeRole[],
  now = Date.now(),
): Promise<FormOutcome> {
  const { db } = context;
  const member = await memberToChange(db, actor, userId);
  if ("ok" in member) return member;
  if (roles.length === 0) return { ok: false, error: TEAM_MESSAGES.noRole, status: 400, field: "roles" };
  const wasOwner = member.roles.includes(OWNER_ROLE);
  if (roles.includes(OWNER_ROLE) && !wasOwner) {
    return { ok: false, error: TEAM_MESSAGES.ownerByProposal, status: 409, field: "roles" };
  }
  if (rolesText(roles) === rolesText(member.roles)) return { ok: true, message: TEAM_MESSAGES.rolesUnchanged };

  const change = crypto.randomUUID();
  const target = `user:${userId}`;
  const keepsOwner = roles.includes(OWNER_ROLE);
  const decided = sql`EXISTS (SELECT 1 FROM audit_log WHERE target = ${target} AND created_at = ${now}
                              AND action = 'team.roles' AND json_extract(detail, '$.change') = ${change})`;
  const { audit, notice } = await writeTogether(db, {
    audit: returning<{ id: number }>(
      sql`${auditInsert({
        actor,
        action: "team.roles",
        target,
        detail: { change, email: member.email, before: rolesText(member.roles), after: rolesText(roles) },
        onlyIf: sql`${userId} <> ${actor.id} AND ${isActiveOwner(actor.id)} AND ${isActiveAdmin(userId)}
                    AND (${keepsOwner ? sql`${holdsOwner(userId)}` : sql`NOT ${holdsOwner(userId)} OR ${anotherActiveOwner(userId)}`})`,
        at: now,
      })} RETURNING id`,
    ),
    removed: sql`DELETE FROM admin_roles WHERE user_id = ${userId}
                 AND role NOT IN (SELECT value FROM json_each(${JSON.stringify(roles)})) AND ${decided}`,
    added: sql`INSERT INTO admin_roles (user_id, role, granted_by, granted_at)
               SELECT ${userId}, value, ${actor.id}, ${now} FROM json_each(${JSON.stringify(roles)}) WHERE ${decided}
               ON CONFLICT (user_id, role) DO NOTHING`,
    // An owner's invitations speak for them: losing the role ends the open ones, for good.
    invitations: endInvitationsOf(userId, now, sql`${decided} AND NOT ${holdsOwner(userId)}`),
    notice: mailTeamChange(
      {
        adminId: userId,
        admin: member.email,
        change: `Roles changed to ${rolesText(roles)}`,
        by: actor.email,
        at: now,
      },
      decided,
    ),
  });
  if (audit.length === 0) return refusal(db, actor, userId);
  afterCommit(context, { emailIds: notice.map((row) => row.id) });
  return { ok: true, message: TEAM_MESSAGES.rolesChanged };
}

/**
 * Deactivates an admin: one conditional statement (the acting owner is an active owner other than them; if they
 * are an owner, another active owner remains), then, only if it wrote, their sessions end, the audit row and the
 * mails. Their live feeds close after the commit.
 */
export async function deactivateAdmin(
  context: CommandContext,
  actor: Owner,
  userId: string,
  now = Date.now(),
): Promise<FormOutcome> {
  const { db } = context;
  const member = await memberToChange(db, actor, userId);
  if ("ok" in member) return member;
  if (member.deactivatedAt !== null) return { ok: false, error: TEAM_MESSAGES.alreadyDeactivated, status: 409 };
  const done = sql`EXISTS (SELECT 1 FROM users WHERE id = ${userId} AND deactivated_at = ${now})`;
  const record = statusChangeRecord(actor, userId, member, "team.deactivate", done, now);
  const { deactivated, notice } = await writeTogether(db, {
    deactivated: returning<{ id: string }>(
      sql`UPDATE users SET deactivated_at = ${now}
          WHERE id = ${userId} AND role = 'admin' AND deactivated_at IS NULL AND id <> ${actor.id}
            AND ${isActiveOwner(actor.id)} AND (NOT ${holdsOwner(userId)} OR ${anotherActiveOwner(userId)})
          RETURNING id`,
    ),
    audit: record.audit,
    signOut: endSessionsOf(db, userId, undefined, done),
    challenges: sql`DELETE FROM sign_in_challenges WHERE user_id = ${userId} AND ${done}`,
    invitations: endInvitationsOf(userId, now, done),
    notice: record.notice,
  });
  if (deactivated.length === 0) return refusal(db, actor, userId);
  afterCommit(context, { emailIds: notice.map((row) => row.id), signedOut: [userId] });
  return { ok: true, message: TEAM_MESSAGES.deactivated };
}

/** Reactivates a deactivated admin: they may sign in again, with the roles they had. */
export async function reactivateAdmin(
  context: CommandContext,
  actor: Owner,
  userId: string,
  now = Date.now(),
): Promise<FormOutcome> {
  const { db } = context;
  const member = await memberToChange(db, actor, userId);
  if ("ok" in member) return member;
  if (member.deactivatedAt === null) return { ok: false, error: TEAM_MESSAGES.alreadyActive, status: 409 };
  const done = sql`EXISTS (SELECT 1 FROM audit_log WHERE target = ${`user:${userId}`} AND created_at = ${now}
                           AND action = 'team.reactivate')`;
  const { reactivated, notice } = await writeTogether(db, {
    reactivated: returning<{ id: string }>(
      sql`UPDATE users SET deactivated_at = NULL
          WHERE id = ${userId} AND role = 'admin' AND deactivated_at IS NOT NULL AND id <> ${actor.id}
            AND ${isActiveOwner(actor.id)}
          RETURNING id`,
    ),
    ...statusChangeRecord(actor, userId, member, "team.reactivate", done, now),
  });
  if (reactivated.length === 0) {
    if (!(await teamMember(db, actor.id))?.roles.includes(OWNER_ROLE)) forbidden();
    return { ok: false, error: TEAM_MESSAGES.alreadyActive, status: 409 };
  }
  afterCommit(context, { emailIds: notice.map((row) => row.id) });
  return { ok: true, message: TEAM_MESSAGES.reactivated };
}
