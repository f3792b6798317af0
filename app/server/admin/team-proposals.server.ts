/**
 * The team page's second approvals (docs/product.md, "The team page"): making an admin an owner and resetting an
 * admin's two-factor sign-in are proposed by one owner and approved or rejected by another. They live in their own
 * table rather than the money proposals' (docs/decisions/0040-the-team-page.md).
 */

import { eq, type SQL, sql } from "drizzle-orm";
import { OWNER_ROLE } from "~/lib/permissions";
import { TEAM_MESSAGES, TEAM_PROPOSAL_LABELS } from "~/lib/team";
import type { TeamProposalKind } from "../../../db/enums";
import { type Actor, auditInsert } from "../audit.server";
import { afterCommit, type CommandContext, type FormOutcome } from "../commands.server";
import { returning, schema, writeTogether } from "../db.server";
import { forbidden } from "../http.server";
import { endSessionsOf } from "../session.server";
import { holdsOwner, isActiveAdmin, isActiveOwner, mailTeamChange } from "./team-guards.server";
import { memberToChange, teamChangeRecord } from "./team-members.server";

const { users, teamProposals } = schema;
type Owner = Required<Actor>;

/**
 * What a proposal needs of its admin, besides being an active admin: not an owner yet; two-factor sign-in on (an
 * authenticator app or a passkey).
 */
const applies = (kind: TeamProposalKind, userId: string) =>
  kind === "grant_owner"
    ? sql`NOT ${holdsOwner(userId)}`
    : sql`(EXISTS (SELECT 1 FROM two_factor WHERE user_id = ${userId} AND confirmed_at IS NOT NULL)
           OR EXISTS (SELECT 1 FROM passkeys WHERE user_id = ${userId}))`;

/** One owner proposes; the other owners are mailed to decide. One open proposal of a kind per admin. */
export async function proposeTeamChange(
  context: CommandContext,
  actor: Owner,
  kind: TeamProposalKind,
  userId: string,
  now = Date.now(),
): Promise<FormOutcome> {
  const { db } = context;
  const member = await memberToChange(db, actor, userId);
  if ("ok" in member) return member;
  const label = TEAM_PROPOSAL_LABELS[kind];
  const { proposal, notice } = await writeTogether(db, {
    proposal: returning<{ id: number }>(
      sql`INSERT INTO team_proposals (kind, target_id, proposed_by, proposed_at)
          SELECT ${kind}, ${userId}, ${actor.id}, ${now}
          WHERE ${isActiveOwner(actor.id)} AND ${isActiveAdmin(userId)} AND ${applies(kind, userId)}
          ON CONFLICT DO NOTHING RETURNING id`,
    ),
    ...teamChangeRecord({
      actor,
      target: { id: userId, email: member.email },
      action: "team.propose",
      detail: { kind, email: member.email },
      change: `Proposed: ${label}`,
      done: sql`EXISTS (SELECT 1 FROM team_proposals WHERE kind = ${kind} AND target_id = ${userId}
                        AND proposed_at = ${now} AND proposed_by = ${actor.id})`,
      now,
    }),
  });
  if (proposal.length === 0) return refusedProposal(context, actor, kind, userId);
  afterCommit(context, { emailIds: notice.map((row) => row.id) });
  return { ok: true, message: TEAM_MESSAGES.proposed };
}

async function refusedProposal(
  context: CommandContext,
  actor: Owner,
  kind: TeamProposalKind,
  userId: string,
): Promise<FormOutcome> {
  const facts = await actingOwner(context, actor, {
    active: sql<number>`${isActiveAdmin(userId)}`,
    open: sql<number>`EXISTS (SELECT 1 FROM team_proposals WHERE kind = ${kind} AND target_id = ${userId} AND status = 'pending')`,
  });
  if (!facts.active) return { ok: false, error: TEAM_MESSAGES.notActive, status: 409 };
  if (facts.open) return { ok: false, error: TEAM_MESSAGES.alreadyProposed, status: 409 };
  const error = kind === "grant_owner" ? TEAM_MESSAGES.alreadyOwner : TEAM_MESSAGES.noTwoFactor;
  return { ok: false, error, status: 409 };
}

/** After a refusal: 403 if the actor is no longer an active owner (demoted meanwhile), else the facts asked. */
async function actingOwner<Facts extends Record<string, SQL<number>>>(
  context: CommandContext,
  actor: Owner,
  facts: Facts,
) {
  const row = await context.db
    .select({ owner: sql<number>`${isActiveOwner(actor.id)}`, ...facts })
    .from(users)
    .where(eq(users.id, actor.id))
    .get();
  if (!row?.owner) forbidden();
  return row as { [K in keyof Facts]: number };
}

/**
 * Another owner decides. The deciding statement marks the proposal decided only while it is pending, the decider
 * is an active owner who did not propose it (the database's trigger says so too), and, to approve, the admin is
 * still active and it still applies. An approved owner grant adds the role; an approved reset removes the
 * authenticator, the passkeys and the recovery codes and ends the admin's sessions, so they enrol again at their
 * next sign-in.
 */
export async function decideTeamProposal(
  context: CommandContext,
  actor: Owner,
  proposalId: number,
  approve: boolean,
  now = Date.now(),
): Promise<FormOutcome> {
  const { db } = context;
  const proposal = await db
    .select({
      kind: teamProposals.kind,
      targetId: teamProposals.targetId,
      proposedBy: teamProposals.proposedBy,
      email: users.email,
    })
    .from(teamProposals)
    .innerJoin(users, eq(users.id, teamProposals.targetId))
    .where(eq(teamProposals.id, proposalId))
    .get();
  if (!proposal) return { ok: false, error: TEAM_MESSAGES.proposalGone, status: 404 };
  if (proposal.proposedBy === actor.id) return { ok: false, error: TEAM_MESSAGES.ownProposal, status: 409 };
  const { kind, targetId } = proposal;
  const status = approve ? "approved" : "rejected";
  const decided = sql`EXISTS (SELECT 1 FROM team_proposals WHERE id = ${proposalId} AND status = 'approved'
                              AND decided_at = ${now} AND decided_by = ${actor.id})`;
  const label = TEAM_PROPOSAL_LABELS[kind];
  // A second approval means two active owners: one who has since left or lost the role no longer counts.
  const proposerStillOwns = isActiveOwner(sql`team_proposals.proposed_by`);
  const { decision, notice } = await writeTogether(db, {
    decision: returning<{ id: number }>(
      sql`UPDATE team_proposals SET status = ${status}, decided_by = ${actor.id}, decided_at = ${now}
          WHERE id = ${proposalId} AND status = 'pending' AND proposed_by IS NOT ${actor.id}
            AND ${isActiveOwner(actor.id)}
            ${approve ? sql`AND ${isActiveAdmin(targetId)} AND ${applies(kind, targetId)} AND ${proposerStillOwns}` : sql``}
          RETURNING id`,
    ),
    audit: auditInsert({
      actor,
      action: approve ? "team.approve" : "team.reject",
      target: `user:${targetId}`,
      detail: { kind, email: proposal.email, proposal: proposalId },
      onlyIf: sql`changes() = 1`,
      at: now,
    }),
    owner:
      approve &&
      kind === "grant_owner" &&
      sql`INSERT INTO admin_roles (user_id, role, granted_by, granted_at) SELECT ${targetId}, ${OWNER_ROLE}, ${actor.id}, ${now}
          WHERE ${decided} ON CONFLICT (user_id, role) DO NOTHING`,
    authenticator:
      approve && kind === "reset_two_factor" && sql`DELETE FROM two_factor WHERE user_id = ${targetId} AND ${decided}`,
    passkeys:
      approve && kind === "reset_two_factor" && sql`DELETE FROM passkeys WHERE user_id = ${targetId} AND ${decided}`,
    codes:
      approve &&
      kind === "reset_two_factor" &&
      sql`DELETE FROM recovery_codes WHERE user_id = ${targetId} AND ${decided}`,
    signOut: approve && kind === "reset_two_factor" && endSessionsOf(db, targetId, undefined, decided),
    notice: mailTeamChange(
      {
        adminId: targetId,
        admin: proposal.email,
        change: `${approve ? "Approved" : "Rejected"}: ${label}`,
        by: actor.email,
        at: now,
      },
      sql`EXISTS (SELECT 1 FROM team_proposals WHERE id = ${proposalId} AND decided_at = ${now} AND decided_by = ${actor.id})`,
    ),
  });
  if (decision.length === 0) {
    const facts = await actingOwner(context, actor, {
      pending: sql<number>`EXISTS (SELECT 1 FROM team_proposals WHERE id = ${proposalId} AND status = 'pending')`,
      proposerOwns: sql<number>`${isActiveOwner(proposal.proposedBy ?? "")}`,
    });
    const proposerGone = approve && facts.pending && !facts.proposerOwns;
    return { ok: false, error: proposerGone ? TEAM_MESSAGES.proposerGone : TEAM_MESSAGES.proposalGone, status: 409 };
  }
  const resetDone = approve && kind === "reset_two_factor";
  afterCommit(context, { emailIds: notice.map((row) => row.id), signedOut: resetDone ? [targetId] : [] });
  return { ok: true, message: approve ? TEAM_MESSAGES.approved : TEAM_MESSAGES.rejected };
}
