/**
 * The team page's conditions, as SQL the database checks at the moment of writing (docs/product.md, "The team
 * page"), and the one way its changes are mailed. Every team command is an atomic batch whose first statement
 * decides: it writes only when these hold, and the rest of the batch acts only if it wrote.
 */

import { type SQL, sql } from "drizzle-orm";
import { OWNER_ROLE } from "~/lib/permissions";
import { formatRoles } from "~/lib/team";
import type { BackOfficeRole } from "../../../db/enums";
import { enqueueEmailFor } from "../mail/outbox.server";

/** This user is an admin who is not deactivated. */
export const isActiveAdmin = (userId: string | SQL) =>
  sql`EXISTS (SELECT 1 FROM users WHERE id = ${userId} AND role = 'admin' AND deactivated_at IS NULL)`;

/**
 * This user is an owner who is not deactivated: what acting on the team page takes, at the moment of writing.
 * Its tables have aliases of their own: `userId` may be a column of the statement around it (`u.id`), which an
 * inner `u` would silently take over, making the condition true for every row.
 */
export const isActiveOwner = (userId: string | SQL) =>
  sql`EXISTS (SELECT 1 FROM admin_roles owner_role JOIN users owner_user ON owner_user.id = owner_role.user_id
              WHERE owner_role.user_id = ${userId} AND owner_role.role = ${OWNER_ROLE}
                AND owner_user.deactivated_at IS NULL)`;

/**
 * Somebody other than this user is an active owner: the team keeps one. With the acting owner being someone else
 * and checked in the same statement, two owners demoting each other at once cannot both succeed.
 */
export const anotherActiveOwner = (userId: string) =>
  sql`EXISTS (SELECT 1 FROM admin_roles owner_role JOIN users owner_user ON owner_user.id = owner_role.user_id
              WHERE owner_role.role = ${OWNER_ROLE} AND owner_user.deactivated_at IS NULL AND owner_role.user_id <> ${userId})`;

export const holdsOwner = (userId: string) =>
  sql`EXISTS (SELECT 1 FROM admin_roles WHERE user_id = ${userId} AND role = ${OWNER_ROLE})`;

/**
 * One change, mailed to the admin concerned (a deactivated one is told so) and to every active owner, each once,
 * never to a client, for the rows `onlyIf` allows: the batch's deciding statement having written.
 */
export function mailTeamChange(
  change: { adminId: string | SQL; admin: string; change: string; by: string; at: number },
  onlyIf: SQL,
) {
  return enqueueEmailFor({
    template: "team_change",
    data: { name: "", change: change.change, admin: change.admin, by: change.by, at: change.at },
    to: sql`u.email`,
    from: sql`users u WHERE u.role = 'admin' AND (u.id = ${change.adminId} OR ${isActiveOwner(sql`u.id`)}) AND ${onlyIf}`,
  });
}

export const rolesText = (roles: readonly BackOfficeRole[]) => formatRoles(roles) || "none";
