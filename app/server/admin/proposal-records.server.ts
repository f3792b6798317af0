/**
 * What every proposal's decision shares, whatever its kind: the proposal as its card and mails describe it, the
 * conditions an approval's statements carry (pending, not the approver's own, unexpired; decided by this batch;
 * recorded once), the decision's audit row and the proposer's mail, and the proposal's UPDATE to 'approved'.
 */
import { eq, type SQL, sql } from "drizzle-orm";
import { displayName } from "~/lib/person-name";
import { describeProposal } from "~/lib/proposals";
import type { ProposalStatus } from "../../../db/enums";
import { type Actor, auditInsert } from "../audit.server";
import type { Db } from "../db.server";
import { returning, schema } from "../db.server";
import { enqueueEmailFor } from "../mail/outbox.server";

const { proposals, users, profiles } = schema;

/** The statements of an approval, by name, for one batch with the decision's records. */
export type Writes = Record<string, ReturnType<typeof returning> | SQL>;

/** The proposal with what its card and mails say about it: the client's name and the proposer's e-mail. */
export async function proposalFor(db: Db, proposalId: number) {
  const row = await db
    .select({
      proposal: proposals,
      clientEmail: users.email,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      proposerEmail: sql<string | null>`(SELECT email FROM users WHERE id = ${proposals.proposedBy})`,
    })
    .from(proposals)
    .leftJoin(users, eq(users.id, proposals.userId))
    .leftJoin(profiles, eq(profiles.userId, proposals.userId))
    .where(eq(proposals.id, proposalId))
    .get();
  if (!row) return null;
  const clientName = row.clientEmail ? displayName(row.firstName, row.lastName, row.clientEmail) : null;
  return {
    ...row.proposal,
    clientName,
    // Mails greet a client by first name, whichever path decided.
    clientFirstName: row.firstName?.trim() ?? "",
    proposerEmail: row.proposerEmail ?? "",
    description: describeProposal({ ...row.proposal, clientName }),
  };
}

export type LoadedProposal = NonNullable<Awaited<ReturnType<typeof proposalFor>>>;

/** The proposal may be approved by this admin now: pending, not theirs, not expired. */
export const approvable = (proposalId: number, actor: Actor, now: number) =>
  sql`EXISTS (SELECT 1 FROM proposals WHERE id = ${proposalId} AND status = 'pending'
              AND proposed_by <> ${actor.id} AND expires_at > ${now})`;

/** The proposal as this decision left it: only the batch that decided it writes what follows. */
export const decidedHere = (proposalId: number, status: ProposalStatus, actor: Actor, now: number) =>
  sql`proposals p WHERE p.id = ${proposalId} AND p.status = ${status} AND p.decided_by = ${actor.id} AND p.decided_at = ${now}`;

/**
 * The decision has no audit row yet. Every record after the effect also requires it, and the decision's own audit
 * row comes last: a replay by the same admin in the same millisecond (which `decidedHere` cannot tell apart)
 * records nothing twice.
 */
export const notYetRecorded = (proposalId: number) =>
  sql`NOT EXISTS (SELECT 1 FROM audit_log WHERE target = ${`proposal:${proposalId}`}
                  AND action IN ('proposal.approve', 'proposal.reject'))`;

/** The audit row of a decision and the proposer's mail, both conditioned on the decision being this one. */
export function decisionRecords(
  loaded: LoadedProposal,
  status: "approved" | "rejected",
  actor: Required<Actor>,
  now: number,
  reason?: string,
) {
  return {
    decisionAudit: auditInsert({
      actor,
      action: status === "approved" ? "proposal.approve" : "proposal.reject",
      target: `proposal:${loaded.id}`,
      detail: sql`'kind', p.kind, 'proposedBy', ${loaded.proposerEmail}, 'client', p.user_id,
                  'transaction', p.transaction_id, 'wallet', p.wallet_id, 'reason', p.decision_reason`,
      from: sql`${decidedHere(loaded.id, status, actor, now)} AND ${notYetRecorded(loaded.id)}`,
      at: now,
    }),
    proposerNotice: enqueueEmailFor({
      template: "proposal_decided",
      data: {
        description: loaded.description,
        decision: status,
        decidedBy: actor.email,
        ...(reason ? { reason } : {}),
      },
      to: sql`users.email`,
      from: sql`users JOIN ${decidedHere(loaded.id, status, actor, now)} AND users.id = p.proposed_by`,
      dedupeKey: sql`${`proposal_decided:${loaded.id}`}`,
    }),
  };
}

/** The proposal's UPDATE to 'approved', written only when `effectDone` (the effect of this batch) holds. */
export const markApproved = (proposalId: number, actor: Actor, now: number, effectDone: SQL, transactionId?: SQL) =>
  returning<{ id: number }>(
    sql`UPDATE proposals SET status = 'approved', decided_by = ${actor.id}, decided_at = ${now}
        ${transactionId ? sql`, transaction_id = ${transactionId}` : sql``}
        WHERE id = ${proposalId} AND status = 'pending' AND ${effectDone}
        RETURNING id`,
  );
