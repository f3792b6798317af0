/**
 * The team page's conditions, as SQL the database checks at the moment of writing (docs/product.md, "The team
 * page"), and the one way its changes are mailed. Every team command is an atomic batch whose first statement
 * decides: it writes only when these hold, and the rest of the batch acts only if it wrote.
 */
import { type SQL, sql } from "drizzle-orm";
import { formatRoles } from "~/lib/team";
import type { BackOfficeRole } from "../../../db/enums";
import { enqueueEmailFor } from "../mail/outbox.server";

/** This user is an admin who is not deactivated. */
export const isActiveAdmin = (userId: string | SQL) =>
  sql`EXISTS (SELECT 1 FROM users WHERE id = ${userId} AND role = 'admin' AND deactivated_at IS NULL)`;

/** This user is an owner who is not deactivated: what acting on the team page takes, at the moment of writing. */
export const isActiveOwner = (userId: string | SQL) =>
  sql`EXISTS (SELECT 1 FROM admin_roles r JOIN users u ON u.id = r.user_id
              WHERE r.user_id = ${userId} AND r.role = 'owner' AND u.deactivated_at IS NULL)`;

/**
 * Somebody other than this user is an active owner: the team keeps one. With the acting owner being someone else
 * and checked in the same statement, two owners demoting each other at once cannot both succeed.
 */
export const anotherActiveOwner = (userId: string) =>
  sql`EXISTS (SELECT 1 FROM admin_roles r JOIN users u ON u.id = r.user_id
              WHERE r.role = 'owner' AND u.deactivated_at IS NULL AND r.user_id <> ${userId})`;

export const holdsOwner = (userId: string) =>
  sql`EXISTS (SELECT 1 FROM admin_roles WHERE user_id = ${userId} AND role = 'owner')`;

/**
 * One change, mailed to the admin concerned and to every active owner (each once), for the rows `onlyIf` allows:
 * the batch's deciding statement having written.
 */
export function mailTeamChange(
  change: { adminId: string | SQL; admin: string; change: string; by: string; at: number },
  onlyIf: SQL,
) {
  return enqueueEmailFor({
    template: "team_change",
    data: { name: "", change: change.change, admin: change.admin, by: change.by, at: change.at },
    to: sql`u.email`,
    from: sql`users u WHERE (u.id = ${change.adminId} OR ${isActiveOwner(sql`u.id`)}) AND ${onlyIf}`,
  });
}

export const rolesText = (roles: readonly BackOfficeRole[]) => formatRoles(roles) || "none";
