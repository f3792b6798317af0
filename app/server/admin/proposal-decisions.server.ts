/**
 * A second admin's decision on a proposal, and expiry. Approval is one batch ordered so that each statement
 * depends on the one before: the effect (an entry, a request's approval, a wallet's new address) is written
 * only while the proposal is pending, unexpired and not the approver's own, with the effect's own checks at
 * that moment; the proposal's UPDATE to 'approved' only when that effect is in the database; its audit rows
 * and mails only when that UPDATE is. A check that fails changes nothing, and the answer says which check.
 * Whoever comes second (approve against reject, two approvals) finds the proposal decided.
 */
import { eq, type SQL, sql } from "drizzle-orm";
import { displayName } from "~/lib/person-name";
import { describeProposal, PROPOSAL_MESSAGES, requestGoneMessage } from "~/lib/proposals";
import type { FeedTransaction } from "~/lib/realtime";
import type { ProposalStatus } from "../../../db/enums";
import { type Actor, auditInsert } from "../audit.server";
import { afterCommit, type CommandContext, type Outcome, type Result } from "../commands.server";
import type { Db } from "../db.server";
import { returning, schema, writeTogether } from "../db.server";
import { type DecidedRequest, requestDecidedNotice } from "../ledger/decision-notice.server";
import { refreshProfileProjection } from "../ledger/figures.server";
import { FEED_RETURNING } from "../ledger/reads.server";
import { enqueueEmailFor } from "../mail/outbox.server";
import { publishToDesk } from "../realtime.server";
import { approvableRequest, withdrawalApprovalRefusal } from "./decisions.server";
import { entryRefusal, ledgerEntryWrites } from "./entries.server";
import { walletChangedNotice } from "./wallets.server";

const { proposals, transactions, users, profiles } = schema;

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

type LoadedProposal = NonNullable<Awaited<ReturnType<typeof proposalFor>>>;

/** The proposal may be approved by this admin now: pending, not theirs, not expired. */
const approvable = (proposalId: number, actor: Actor, now: number) =>
  sql`EXISTS (SELECT 1 FROM proposals WHERE id = ${proposalId} AND status = 'pending'
              AND proposed_by <> ${actor.id} AND expires_at > ${now})`;

/** The proposal as this decision left it: only the batch that decided it writes what follows. */
const decidedHere = (proposalId: number, status: ProposalStatus, actor: Actor, now: number) =>
  sql`proposals p WHERE p.id = ${proposalId} AND p.status = ${status} AND p.decided_by = ${actor.id} AND p.decided_at = ${now}`;

/**
 * The decision has no audit row yet. Every record after the effect also requires it, and the decision's own audit
 * row comes last: a replay by the same admin in the same millisecond (which `decidedHere` cannot tell apart)
 * records nothing twice.
 */
const notYetRecorded = (proposalId: number) =>
  sql`NOT EXISTS (SELECT 1 FROM audit_log WHERE target = ${`proposal:${proposalId}`}
                  AND action IN ('proposal.approve', 'proposal.reject'))`;

/** The audit row of a decision and the proposer's mail, both conditioned on the decision being this one. */
function decisionRecords(
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
const markApproved = (proposalId: number, actor: Actor, now: number, effectDone: SQL, transactionId?: SQL) =>
  returning<{ id: number }>(
    sql`UPDATE proposals SET status = 'approved', decided_by = ${actor.id}, decided_at = ${now}
        ${transactionId ? sql`, transaction_id = ${transactionId}` : sql``}
        WHERE id = ${proposalId} AND status = 'pending' AND ${effectDone}
        RETURNING id`,
  );

/** An entry proposal's approval: the entry exactly as a direct one, created by the proposer, decided by the approver. */
function entryApproval(loaded: LoadedProposal, actor: Required<Actor>, now: number) {
  const userId = loaded.userId ?? "";
  // The proposal's own key for the entry: one entry per proposal, whatever happens.
  const idempotencyKey = `proposal:${loaded.id}`;
  const entry = {
    type: loaded.transactionType ?? "deposit",
    amountCents: loaded.amountCents ?? 0,
    tradingPair: loaded.tradingPair ?? undefined,
    stock: loaded.stock ?? undefined,
    idempotencyKey,
    // The proposer's reason is the entry's memo: what the client reads in their mail and History.
    memo: loaded.note ?? undefined,
  };
  const { inserted, entryAudit, projection, clientNotice } = ledgerEntryWrites(
    { createdBy: loaded.proposedBy, decidedBy: actor },
    userId,
    entry,
    now,
    approvable(loaded.id, actor, now),
  );
  const entryRow = sql`(SELECT id FROM transactions WHERE user_id = ${userId} AND idempotency_key = ${idempotencyKey}
                        AND decided_by = ${actor.id} AND created_at = ${now})`;
  return {
    effect: inserted,
    approved: markApproved(loaded.id, actor, now, sql`${entryRow} IS NOT NULL`, entryRow),
    entryAudit,
    projection,
    clientNotice,
  };
}

/**
 * A request-approval proposal's approval: the client's deposit, stock deposit or withdrawal approved while still
 * pending (not cancelled meanwhile) and, for a withdrawal, covered; the client told.
 */
function requestApproval(loaded: LoadedProposal, actor: Required<Actor>, now: number, request: DecidedRequest) {
  const transactionId = loaded.transactionId ?? 0;
  const userId = loaded.userId ?? "";
  return {
    effect: returning<FeedTransaction>(
      sql`UPDATE transactions SET status = 'approved', decided_by = ${actor.id}, decided_at = ${now}
          WHERE id = ${transactionId} AND user_id = ${userId} AND status = 'pending'
            AND transaction_type = ${request.transactionType}
            AND ${approvableRequest(userId)} AND ${approvable(loaded.id, actor, now)}
          RETURNING ${FEED_RETURNING}`,
    ),
    approved: markApproved(
      loaded.id,
      actor,
      now,
      sql`EXISTS (SELECT 1 FROM transactions WHERE id = ${transactionId} AND status = 'approved'
                  AND decided_by = ${actor.id} AND decided_at = ${now})`,
    ),
    // The same record a direct approval leaves on the transaction.
    transactionAudit: auditInsert({
      actor,
      action: "transaction.approve",
      target: `transaction:${transactionId}`,
      detail: sql`'client', user_id, 'type', transaction_type, 'amountCents', amount_cents, 'before', 'pending',
                  'after', status, 'proposal', ${loaded.id}`,
      from: sql`transactions WHERE id = ${transactionId} AND status = 'approved' AND decided_by = ${actor.id}
                AND decided_at = ${now} AND ${notYetRecorded(loaded.id)}`,
      at: now,
    }),
    projection: refreshProfileProjection(userId, now),
    clientNotice: requestDecidedNotice(request, { status: "approved", decidedBy: actor.id, decidedAt: now }),
  };
}

/** A wallet-change proposal's approval: the new address only while the wallet still has the old one. */
function walletApproval(loaded: LoadedProposal, actor: Required<Actor>, now: number) {
  const walletId = loaded.walletId ?? 0;
  const newAddress = loaded.newAddress ?? "";
  const changed = sql`EXISTS (SELECT 1 FROM deposit_wallets WHERE id = ${walletId} AND wallet_address = ${newAddress}
                              AND updated_at = ${now} AND updated_by = ${actor.id})`;
  return {
    effect: returning<{ id: number }>(
      sql`UPDATE deposit_wallets SET wallet_address = ${newAddress}, updated_at = ${now}, updated_by = ${actor.id}
          WHERE id = ${walletId} AND wallet_address = ${loaded.oldAddress ?? ""} AND ${approvable(loaded.id, actor, now)}
          RETURNING id`,
    ),
    approved: markApproved(loaded.id, actor, now, changed),
    walletAudit: auditInsert({
      actor,
      action: "wallet.update",
      target: `wallet:${walletId}`,
      detail: {
        walletType: loaded.walletType,
        before: loaded.oldAddress,
        after: newAddress,
        proposal: loaded.id,
        proposedBy: loaded.proposerEmail,
      },
      onlyIf: sql`${changed} AND ${notYetRecorded(loaded.id)}`,
      at: now,
    }),
    // The notice every wallet change sends to every admin.
    walletNotice: walletChangedNotice(
      {
        walletType: loaded.walletType ?? "",
        oldAddress: loaded.oldAddress ?? "",
        newAddress,
        changedBy: `${loaded.proposerEmail}, approved by ${actor.email}`,
      },
      sql`${changed} AND ${notYetRecorded(loaded.id)}`,
    ),
  };
}

/** Why an approval wrote nothing: the proposal's state first, then the check of its kind that failed. */
async function approvalRefusal(db: Db, proposalId: number, actor: Actor, now: number): Promise<string> {
  const loaded = await proposalFor(db, proposalId);
  if (!loaded) return PROPOSAL_MESSAGES.notFound;
  if (loaded.status === "expired") return PROPOSAL_MESSAGES.expired;
  if (loaded.status !== "pending") return PROPOSAL_MESSAGES.alreadyDecided;
  if (loaded.proposedBy === actor.id) return PROPOSAL_MESSAGES.ownProposal;
  if (loaded.expiresAt <= now) return PROPOSAL_MESSAGES.expired;
  if (loaded.kind === "wallet_change") return PROPOSAL_MESSAGES.walletChanged;
  if (loaded.kind === "ledger_entry") return entryRefusal(db, loaded.userId ?? "", loaded.transactionType);
  const request = await db
    .select({ status: transactions.status })
    .from(transactions)
    .where(eq(transactions.id, loaded.transactionId ?? 0))
    .get();
  if (request?.status !== "pending") return requestGoneMessage(loaded.transactionType);
  return withdrawalApprovalRefusal(db, loaded.userId ?? "", PROPOSAL_MESSAGES.notCovered);
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
  emailIds: number[];
}

/** A second admin approves: the effect with its checks, the proposal approved, audit rows and mails, or nothing. */
export async function approveProposal(
  db: Db,
  actor: Required<Actor>,
  proposalId: number,
  scope: { userId?: string } = {},
  now = Date.now(),
): Promise<Result<ApprovalDone>> {
  const loaded = await proposalFor(db, proposalId);
  if (loaded && scope.userId !== undefined && loaded.userId !== scope.userId) {
    return { ok: false, error: PROPOSAL_MESSAGES.notFound };
  }
  const refused = precheck(loaded, actor, now, PROPOSAL_MESSAGES.ownProposal);
  if (refused || !loaded) return { ok: false, error: refused ?? PROPOSAL_MESSAGES.notFound };

  let writes: Record<string, ReturnType<typeof returning> | SQL>;
  if (loaded.kind === "ledger_entry") {
    writes = entryApproval(loaded, actor, now);
  } else if (loaded.kind === "request_approval") {
    const request = await db
      .select({ createdAt: transactions.createdAt })
      .from(transactions)
      .where(eq(transactions.id, loaded.transactionId ?? 0))
      .get();
    if (!request) return { ok: false, error: requestGoneMessage(loaded.transactionType) };
    writes = requestApproval(loaded, actor, now, {
      id: loaded.transactionId ?? 0,
      transactionType: loaded.transactionType ?? "withdraw",
      amountCents: loaded.amountCents ?? 0,
      createdAt: request.createdAt,
      name: loaded.clientFirstName,
    });
  } else {
    writes = walletApproval(loaded, actor, now);
  }
  const results = (await writeTogether(db, {
    ...writes,
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
    loaded.kind === "wallet_change" || !transaction || !loaded.userId
      ? undefined
      : {
          userId: loaded.userId,
          type: loaded.kind === "ledger_entry" ? ("transaction.created" as const) : ("transaction.updated" as const),
          transaction,
        };
  return { ok: true, emailIds, event };
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

/** At most this many proposals are expired per cron run; the next minute takes the rest. */
const EXPIRY_BATCH = 50;

/** The scheduler's name in the audit log. */
const CRON: Actor = { id: "cron" };

/**
 * The cron's sweep: pending proposals past their expiry become 'expired', each with its audit row and the
 * proposer's mail in the same batch. Approval after expiry is refused anyway, cron or not.
 */
export async function expireProposals(db: Db, now = Date.now()): Promise<{ expired: number; emailIds: number[] }> {
  const due = await db
    .select({ id: proposals.id })
    .from(proposals)
    .where(sql`${proposals.status} = 'pending' AND ${proposals.expiresAt} <= ${now}`)
    .orderBy(proposals.expiresAt)
    .limit(EXPIRY_BATCH);
  if (due.length === 0) return { expired: 0, emailIds: [] };
  const loaded = (await Promise.all(due.map((row) => proposalFor(db, row.id)))).filter(
    (row): row is LoadedProposal => row !== null,
  );
  const writes = Object.fromEntries(
    loaded.flatMap((proposal) => {
      const expiredHere = sql`proposals p WHERE p.id = ${proposal.id} AND p.status = 'expired' AND p.decided_at = ${now}`;
      return [
        [
          `expire:${proposal.id}`,
          returning<{ id: number }>(
            sql`UPDATE proposals SET status = 'expired', decided_at = ${now}
                WHERE id = ${proposal.id} AND status = 'pending' AND expires_at <= ${now} RETURNING id`,
          ),
        ],
        [
          `audit:${proposal.id}`,
          auditInsert({
            actor: CRON,
            action: "proposal.expire",
            target: `proposal:${proposal.id}`,
            detail: sql`'kind', p.kind, 'proposedBy', ${proposal.proposerEmail}, 'expiresAt', p.expires_at`,
            from: sql`${expiredHere} AND NOT EXISTS (SELECT 1 FROM audit_log
                        WHERE target = ${`proposal:${proposal.id}`} AND action = 'proposal.expire')`,
            at: now,
          }),
        ],
        [
          `notice:${proposal.id}`,
          enqueueEmailFor({
            template: "proposal_decided",
            data: { description: proposal.description, decision: "expired" },
            to: sql`users.email`,
            from: sql`users JOIN ${expiredHere} AND users.id = p.proposed_by`,
            dedupeKey: sql`${`proposal_decided:${proposal.id}`}`,
          }),
        ],
      ];
    }),
  );
  const results = (await writeTogether(db, writes)) as Record<string, Array<{ id: number }>>;
  const expired = loaded.filter((p) => (results[`expire:${p.id}`] ?? []).length === 1).length;
  const emailIds = loaded.flatMap((p) => (results[`notice:${p.id}`] ?? []).map((row) => row.id));
  return { expired, emailIds };
}

/** The approval, then the client's feed (an entry or a request), the desk's card and the mails. */
export async function approve(
  context: CommandContext,
  actor: Required<Actor>,
  input: { proposalId: number; userId?: string },
): Promise<Outcome> {
  const result = await approveProposal(context.db, actor, input.proposalId, { userId: input.userId });
  if (!result.ok) return { ok: false, error: result.error, status: 409 };
  const { event } = result;
  afterCommit(context, {
    emailIds: result.emailIds,
    events: event ? [{ userId: event.userId, event: { type: event.type, transaction: event.transaction } }] : [],
  });
  publishToDesk(context, { type: "proposal.changed" });
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
  afterCommit(context, { emailIds: result.emailIds });
  publishToDesk(context, { type: "proposal.changed" });
  return { ok: true };
}
