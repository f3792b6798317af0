/**
 * The admin a team change names, and what every such change writes besides its deciding statement (docs/product.md,
 * "The team page"): who may be changed at all (an admin, never the acting owner), the audit row and the mail.
 */
import { eq, type SQL, sql } from "drizzle-orm";
import { TEAM_MESSAGES } from "~/lib/team";
import type { BackOfficeRole } from "../../../db/enums";
import { type Actor, auditInsert } from "../audit.server";
import type { FormOutcome } from "../commands.server";
import { type Db, schema } from "../db.server";
import { mailTeamChange } from "./team-guards.server";

const { users } = schema;
type Owner = Required<Actor>;
type Refusal = FormOutcome & { ok: false };

/** The admin as the team page knows them, to explain a refusal; null for anyone who is not an admin. */
export async function teamMember(db: Db, userId: string) {
  const row = await db
    .select({
      email: users.email,
      role: users.role,
      deactivatedAt: users.deactivatedAt,
      roles: sql<string | null>`(SELECT group_concat(role) FROM admin_roles WHERE user_id = ${users.id})`,
    })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (row?.role !== "admin") return null;
  return { ...row, roles: (row.roles ?? "").split(",").filter(Boolean) as BackOfficeRole[] };
}

/** The admin a change names, or why there is none to change: the acting owner themselves, or no admin at all. */
export async function memberToChange(db: Db, actor: Owner, userId: string) {
  if (userId === actor.id) return { ok: false, error: TEAM_MESSAGES.ownSelf, status: 409 } satisfies Refusal;
  return (
    (await teamMember(db, userId)) ?? ({ ok: false, error: TEAM_MESSAGES.notAnAdmin, status: 404 } satisfies Refusal)
  );
}

/**
 * What follows a team change's deciding statement in its batch: the audit row, written only if that statement
 * changed a row (so it must come right after it), and the mail to the admin and the owners once `done` holds.
 */
export function teamChangeRecord(record: {
  actor: Owner;
  target: { id: string; email: string };
  action: "team.deactivate" | "team.reactivate" | "team.propose";
  detail: Record<string, unknown>;
  /** The mail's words for the change ("Deactivated"). */
  change: string;
  done: SQL;
  now: number;
}) {
  const { actor, target, now } = record;
  return {
    audit: auditInsert({
      actor,
      action: record.action,
      target: `user:${target.id}`,
      detail: record.detail,
      onlyIf: sql`changes() = 1`,
      at: now,
    }),
    notice: mailTeamChange(
      { adminId: target.id, admin: target.email, change: record.change, by: actor.email, at: now },
      record.done,
    ),
  };
}
