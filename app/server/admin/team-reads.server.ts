/** What the team page shows, in one round trip: the admins, the open invitations and the open proposals. */
import { eq, sql } from "drizzle-orm";
import type { BackOfficeRole, TeamProposalKind } from "../../../db/enums";
import { type Db, readTogether, schema } from "../db.server";
import { isActiveOwner } from "./team-guards.server";
import { invitationUsable } from "./team-invitations.server";

const { adminInvitations, users, profiles, twoFactor, teamProposals } = schema;

export interface TeamMember {
  id: string;
  name: string;
  email: string;
  roles: BackOfficeRole[];
  twoFactor: boolean;
  lastSignInAt: number | null;
  deactivatedAt: number | null;
}

export interface TeamProposalRow {
  id: number;
  kind: TeamProposalKind;
  targetId: string;
  targetEmail: string;
  proposedBy: string | null;
  proposerEmail: string | null;
  proposedAt: number;
  /** The proposer is still an active owner: otherwise it can only be rejected. */
  proposerOwns: boolean;
}

export async function teamPage(db: Db, now = Date.now()) {
  const { members, invitations, proposals } = await readTogether(db, {
    members: db
      .select({
        id: users.id,
        name: sql<string>`trim(coalesce(${profiles.firstName}, '') || ' ' || coalesce(${profiles.lastName}, ''))`,
        email: users.email,
        roles: sql<string | null>`(SELECT group_concat(role) FROM admin_roles WHERE user_id = ${users.id})`,
        // An authenticator app or a passkey: either is two-factor sign-in, and either can be lost.
        twoFactor: sql<number>`${twoFactor.confirmedAt} IS NOT NULL OR EXISTS (SELECT 1 FROM passkeys WHERE passkeys.user_id = ${users.id})`,
        lastSignInAt: users.lastLoginAt,
        deactivatedAt: users.deactivatedAt,
      })
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .leftJoin(twoFactor, eq(twoFactor.userId, users.id))
      .where(eq(users.role, "admin"))
      .orderBy(sql`${users.deactivatedAt} IS NOT NULL`, sql`lower(${users.email})`),
    invitations: db
      .select({ email: adminInvitations.email, roles: adminInvitations.roles, expiresAt: adminInvitations.expiresAt })
      .from(adminInvitations)
      .where(invitationUsable(now))
      .orderBy(adminInvitations.email),
    proposals: db
      .select({
        id: teamProposals.id,
        kind: teamProposals.kind,
        targetId: teamProposals.targetId,
        targetEmail: users.email,
        proposedBy: teamProposals.proposedBy,
        proposerEmail: sql<string | null>`(SELECT email FROM users WHERE id = ${teamProposals.proposedBy})`,
        proposedAt: teamProposals.proposedAt,
        proposerOwns: sql<number>`${isActiveOwner(sql`team_proposals.proposed_by`)}`,
      })
      .from(teamProposals)
      .innerJoin(users, eq(users.id, teamProposals.targetId))
      .where(eq(teamProposals.status, "pending"))
      .orderBy(teamProposals.proposedAt),
  });
  return {
    members: members.map((row) => ({
      ...row,
      roles: (row.roles ?? "").split(",").filter(Boolean) as BackOfficeRole[],
      twoFactor: Boolean(row.twoFactor),
    })),
    invitations,
    proposals: proposals.map((row) => ({ ...row, proposerOwns: Boolean(row.proposerOwns) })),
  };
}
