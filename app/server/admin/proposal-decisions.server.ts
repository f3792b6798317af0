/**
 * A second admin's decision on a proposal. Approval is one batch ordered so that each statement depends on the one
 * before: the effect (its kind's record: an entry, a request's approval, a wallet's new address) is written only
 * while the proposal is pending, unexpired and not the approver's own, with the effect's own checks at that
 * moment; the proposal's UPDATE to 'approved' only when that effect is in the database; its audit rows and mails
 * only when that UPDATE is. A check that fails changes nothing, and the answer says which check. Whoever comes
 * second (approve against reject, two approvals) finds the proposal decided. Expiry: proposal-expiry.server.ts.
 */
import { sql } from "drizzle-orm";
import { PROPOSAL_MESSAGES } from "~/lib/proposals";
import type { FeedTransaction } from "~/lib/realtime";
import type { Actor } from "../audit.server";
import { afterCommit, type CommandContext, type Outcome, type Result } from "../commands.server";
import type { Db } from "../db.server";
import { returning, writeTogether } from "../db.server";
import type { WorkerBindings } from "../env.server";
import { PROPOSAL_KIND_RECORDS, type ProposalKindRecord } from "./proposal-kinds.server";
import { decisionRecords, type LoadedProposal, proposalFor } from "./proposal-records.server";

/** Why an approval wrote nothing: the proposal's state first, then the check of its kind that failed. */
async function approvalRefusal(db: Db, proposalId: number, actor: Actor, now: number): Promise<string> {
  const loaded = await proposalFor(db, proposalId);
  if (!loaded) return PROPOSAL_MESSAGES.notFound;
  if (loaded.status === "expired") return PROPOSAL_MESSAGES.expired;
  if (loaded.status !== "pending") return PROPOSAL_MESSAGES.alreadyDecided;
  if (loaded.proposedBy === actor.id) return PROPOSAL_MESSAGES.ownProposal;
  if (loaded.expiresAt <= now) return PROPOSAL_MESSAGES.expired;
  return PROPOSAL_KIND_RECORDS[loaded.kind].refusal(db, loaded);
}

/** Checks the code can make before the batch: the proposal exists and is not the admin's own. */
function precheck(loaded: LoadedProposal | null, actor: Actor, now: number, own: string): string | null {
  if (!loaded) return PROPOSAL_MESSAGES.notFound;
  if (loaded.status === "expired") return PROPOSAL_MESSAGES.expired;
  if (loaded.status !== "pending") return PROPOSAL_MESSAGES.alreadyDecided;
  if (loaded.proposedBy === actor.id) return own;
  if (loaded.expiresAt <= now) return PROPOSAL_MESSAGES.expired;
  return null;
}

export interface ApprovalDone {
  /** The client whose ledger changed, and the row their feed should hear of. */
  event?: { userId: string; type: "transaction.created" | "transaction.updated"; transaction: FeedTransaction };
  /** The client whose positions changed (a close). */
  positionsOf?: string;
  emailIds: number[];
}

/**
 * A second admin approves: the effect with its checks, the proposal approved, audit rows and mails, or nothing.
 * `bindings` reach the quotes a close is approved at.
 */
export async function approveProposal(
  db: Db,
  actor: Required<Actor>,
  proposalId: number,
  scope: { userId?: string } = {},
  now = Date.now(),
  bindings?: WorkerBindings,
): Promise<Result<ApprovalDone>> {
  const loaded = await proposalFor(db, proposalId);
  if (loaded && scope.userId !== undefined && loaded.userId !== scope.userId) {
    return { ok: false, error: PROPOSAL_MESSAGES.notFound };
  }
  const refused = precheck(loaded, actor, now, PROPOSAL_MESSAGES.ownProposal);
  if (refused || !loaded) return { ok: false, error: refused ?? PROPOSAL_MESSAGES.notFound };

  const kind: ProposalKindRecord = PROPOSAL_KIND_RECORDS[loaded.kind];
  const applied = await kind.apply(db, loaded, actor, now, bindings);
  if (!applied.ok) return applied;
  const results = (await writeTogether(db, {
    ...applied.writes,
    ...decisionRecords(loaded, "approved", actor, now),
  })) as Record<string, unknown[]>;
  if ((results.approved ?? []).length !== 1) {
    return { ok: false, error: await approvalRefusal(db, proposalId, actor, now) };
  }
  const emailIds = ["proposerNotice", "clientNotice", "walletNotice"].flatMap((key) =>
    ((results[key] ?? []) as Array<{ id: number }>).map((row) => row.id),
  );
  const transaction = (results.effect as FeedTransaction[] | undefined)?.[0];
  const event =
    kind.feedEvent && transaction && loaded.userId
      ? { userId: loaded.userId, type: kind.feedEvent, transaction }
      : undefined;
  const positionsOf = kind.changesPositions && loaded.userId ? loaded.userId : undefined;
  return { ok: true, emailIds, event, positionsOf };
}

/** A second admin rejects, with a reason: the proposal is closed and nothing else changes. */
export async function rejectProposal(
  db: Db,
  actor: Required<Actor>,
  proposalId: number,
  reason: string,
  scope: { userId?: string } = {},
  now = Date.now(),
): Promise<Result<{ emailIds: number[] }>> {
  const text = reason.trim();
  if (!text) return { ok: false, error: PROPOSAL_MESSAGES.rejectReasonRequired };
  const loaded = await proposalFor(db, proposalId);
  if (loaded && scope.userId !== undefined && loaded.userId !== scope.userId) {
    return { ok: false, error: PROPOSAL_MESSAGES.notFound };
  }
  const refused = precheck(loaded, actor, now, PROPOSAL_MESSAGES.ownProposalReject);
  if (refused || !loaded) return { ok: false, error: refused ?? PROPOSAL_MESSAGES.notFound };
  const results = await writeTogether(db, {
    rejected: returning<{ id: number }>(
      sql`UPDATE proposals SET status = 'rejected', decided_by = ${actor.id}, decided_at = ${now}, decision_reason = ${text}
          WHERE id = ${proposalId} AND status = 'pending' AND proposed_by <> ${actor.id} AND expires_at > ${now}
          RETURNING id`,
    ),
    ...decisionRecords(loaded, "rejected", actor, now, text),
  });
  if (results.rejected.length !== 1) return { ok: false, error: await approvalRefusal(db, proposalId, actor, now) };
  return { ok: true, emailIds: results.proposerNotice.map((row) => row.id) };
}

/** The approval, then the client's feed (an entry or a request), the desk's card and the mails. */
export async function approve(
  context: CommandContext,
  actor: Required<Actor>,
  input: { proposalId: number; userId?: string },
): Promise<Outcome> {
  const scope = { userId: input.userId };
  const result = await approveProposal(context.db, actor, input.proposalId, scope, Date.now(), context.bindings);
  if (!result.ok) return { ok: false, error: result.error, status: 409 };
  const { event, positionsOf } = result;
  const positions = positionsOf ? ({ type: "positions.changed", userId: positionsOf } as const) : null;
  afterCommit(context, {
    emailIds: result.emailIds,
    events: [
      ...(event ? [{ userId: event.userId, event: { type: event.type, transaction: event.transaction } }] : []),
      ...(positions ? [{ userId: positions.userId, event: positions }] : []),
    ],
    deskEvents: [{ type: "proposal.changed" }, ...(positions ? [positions] : [])],
  });
  return { ok: true };
}

/** The rejection, then the desk's card and the proposer's mail. */
export async function reject(
  context: CommandContext,
  actor: Required<Actor>,
  input: { proposalId: number; reason: string; userId?: string },
): Promise<Outcome> {
  const result = await rejectProposal(context.db, actor, input.proposalId, input.reason, { userId: input.userId });
  if (!result.ok) return { ok: false, error: result.error, status: 409 };
  afterCommit(context, { emailIds: result.emailIds, deskEvents: [{ type: "proposal.changed" }] });
  return { ok: true };
}
