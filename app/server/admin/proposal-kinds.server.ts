/**
 * The four kinds of proposal, one record each, shared by proposing and deciding: what it proposes (the effect an
 * approval writes), how it is checked (the same rule the direct act and the proposal check, at that moment), how it
 * is applied (the approval's statements), why a check failed, and which feed hears of it. Their labels (the card's
 * and the mails' line) are `describeProposal` in app/lib/proposals.ts.
 */
import { eq, type SQL, sql } from "drizzle-orm";
import { PROPOSAL_MESSAGES, requestGoneMessage } from "~/lib/proposals";
import type { FeedTransaction } from "~/lib/realtime";
import type { ProposalKind } from "../../../db/enums";
import { type Actor, auditInsert } from "../audit.server";
import type { Result } from "../commands.server";
import type { Db } from "../db.server";
import { returning, schema } from "../db.server";
import type { WorkerBindings } from "../env.server";
import { type DecidedRequest, requestDecidedNotice } from "../ledger/decision-notice.server";
import { refreshProfileProjection } from "../ledger/figures.server";
import { FEED_RETURNING } from "../ledger/reads.server";
import { closeApprovalWrites, closeRefusal, positionUnchanged } from "../positions/close-approval.server";
import { approvableRequest, withdrawalApprovalRefusal } from "./decisions.server";
import { entryAllowed, entryRefusal, ledgerEntryWrites } from "./entries.server";
import { approvable, type LoadedProposal, markApproved, notYetRecorded, type Writes } from "./proposal-records.server";
import { walletChangedNotice } from "./wallets.server";

const { transactions } = schema;

export interface ProposalKindRecord {
  /**
   * The rule the effect must meet, in SQL: the proposal is refused at once when it fails, and the approval checks
   * it again. (A wallet change's check is its old address, read by the statements themselves.)
   */
  check?: (...args: never[]) => SQL;
  /** The approval's statements: the effect with its checks, and the proposal approved only if the effect is written. */
  apply: (
    db: Db,
    loaded: LoadedProposal,
    actor: Required<Actor>,
    now: number,
    bindings?: WorkerBindings,
  ) => Promise<Result<{ writes: Writes }>>;
  /** Why the kind's own check refused an approval of a pending, unexpired proposal that is not the approver's. */
  refusal: (db: Db, loaded: LoadedProposal) => Promise<string>;
  /** What the client's feed hears when the approval wrote a ledger row; none for a wallet. */
  feedEvent: "transaction.created" | "transaction.updated" | null;
  /** Whether the approval changes the client's positions (their pages and the desk reload them). */
  changesPositions?: boolean;
}

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

export const PROPOSAL_KIND_RECORDS = {
  ledger_entry: {
    check: entryAllowed,
    apply: async (_db, loaded, actor, now) => ({ ok: true, writes: entryApproval(loaded, actor, now) }),
    refusal: (db, loaded) => entryRefusal(db, loaded.userId ?? "", loaded.transactionType),
    feedEvent: "transaction.created",
  },
  request_approval: {
    check: approvableRequest,
    apply: async (db, loaded, actor, now) => {
      const request = await db
        .select({ createdAt: transactions.createdAt })
        .from(transactions)
        .where(eq(transactions.id, loaded.transactionId ?? 0))
        .get();
      if (!request) return { ok: false, error: requestGoneMessage(loaded.transactionType) };
      const decided = {
        id: loaded.transactionId ?? 0,
        transactionType: loaded.transactionType ?? "withdraw",
        amountCents: loaded.amountCents ?? 0,
        createdAt: request.createdAt,
        name: loaded.clientFirstName,
      };
      return { ok: true, writes: requestApproval(loaded, actor, now, decided) };
    },
    refusal: async (db, loaded) => {
      const request = await db
        .select({ status: transactions.status })
        .from(transactions)
        .where(eq(transactions.id, loaded.transactionId ?? 0))
        .get();
      if (request?.status !== "pending") return requestGoneMessage(loaded.transactionType);
      return withdrawalApprovalRefusal(db, loaded.userId ?? "", PROPOSAL_MESSAGES.notCovered);
    },
    feedEvent: "transaction.updated",
  },
  wallet_change: {
    apply: async (_db, loaded, actor, now) => ({ ok: true, writes: walletApproval(loaded, actor, now) }),
    refusal: async () => PROPOSAL_MESSAGES.walletChanged,
    feedEvent: null,
  },
  position_close: {
    check: positionUnchanged,
    apply: closeApprovalWrites,
    refusal: closeRefusal,
    feedEvent: "transaction.created",
    changesPositions: true,
  },
} satisfies Record<ProposalKind, ProposalKindRecord>;
