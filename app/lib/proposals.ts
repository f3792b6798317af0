/**
 * Second approval (four eyes), as both the server and the pages read it: the messages, and how a proposal is
 * described in the 'Awaiting second approval' card and in the mails about it.
 */

import { formatCents } from "~/lib/format";
import { typeInSentence, typeLabel } from "~/lib/labels";
import type { TransactionType } from "~/lib/ledger";
import { formatShares, positionSerial } from "~/lib/money/orders";
import type { ProposalKind } from "../../db/enums";
import { parseReason, REASON_TOO_LONG } from "./schemas/reason";

export const PROPOSAL_MESSAGES = {
  awaiting: "Awaiting second approval",
  ownProposal: "You cannot approve your own proposal",
  ownProposalReject: "You cannot reject your own proposal",
  reasonRequired: "Please give a reason: an entry at or above the second-approval threshold waits for another admin",
  limitReasonRequired: "Please give a reason: this entry waits for another admin",
  rejectReasonRequired: "Please give a reason for rejecting this proposal",
  /** The one message of every reason field (app/lib/schemas/reason.ts). */
  reasonTooLong: REASON_TOO_LONG,
  notFound: "This proposal was not found",
  alreadyDecided: "This proposal was already decided",
  expired: "This proposal has expired",
  withdrawalGone: "This withdrawal was already decided or cancelled",
  depositGone: "This deposit was already decided or cancelled",
  stockDepositGone: "This stock deposit was already decided or cancelled",
  notCovered: "The client's balance no longer covers this withdrawal",
  walletChanged: "The wallet address changed since this was proposed",
  walletChangeWaiting: "A change to this wallet already awaits second approval",
  withdrawalWaiting: "This withdrawal already awaits second approval",
  approved: "Proposal approved",
  rejected: "Proposal rejected",
  secondAdminNeeded: "A second admin is needed to approve this",
  waitingForOther: "Waiting for another admin",
  /** For a viewer whose roles do not decide proposals: who does, from the permission table. */
  decidedByRoles: (roles: string) => `Waiting for an admin with one of these roles: ${roles}`,
} as const;

/**
 * Why an act under the threshold waits for a second admin (the approval limit it would break, docs/product.md,
 * "Approval limits per admin"): the sum it would bring, and for the daily limit the limit itself.
 */
export function approvalLimitMessage(limit: "perClient" | "daily", sumCents: number, limitCents: number): string {
  if (limit === "perClient") return `Would bring your approvals for this client today to ${formatCents(sumCents)}.`;
  return `Would bring your approvals today to ${formatCents(sumCents)}, above your daily limit of ${formatCents(limitCents)}.`;
}

/** The reply to an act that became a proposal because of an approval limit. */
export const awaitingBecause = (limitReason: string) => `${PROPOSAL_MESSAGES.awaiting}. ${limitReason}`;

/** Proposals expire this long after they were made, approved or not. */
export const PROPOSAL_LIFETIME_MS = 72 * 60 * 60 * 1000;

export interface ProposalFacts {
  kind: ProposalKind;
  transactionType: TransactionType | null;
  amountCents: number | null;
  tradingPair?: string | null;
  stock?: string | null;
  walletType?: string | null;
  oldAddress?: string | null;
  newAddress?: string | null;
  /** The client's name, for entries, request approvals and closes. */
  clientName?: string | null;
  /** A close: the position and the shares it had open. */
  positionId?: number | null;
  sharesE4?: number | null;
}

/** Why approving a request wrote nothing when it was no longer pending: it was decided or its owner cancelled it. */
export function requestGoneMessage(type: TransactionType | null): string {
  if (type === "deposit") return PROPOSAL_MESSAGES.depositGone;
  if (type === "stock_deposit") return PROPOSAL_MESSAGES.stockDepositGone;
  return PROPOSAL_MESSAGES.withdrawalGone;
}

/**
 * One line saying what a proposal would do: "Deposit of $20,000.00 for Jane Doe", "Approve withdrawal of
 * $15,000.00 for Jane Doe", "Wallet BTC: old → new", "Close position P-000012 (60 AAPL), worth $11,400.00 at the
 * bid for Jane Doe" (the value when proposed; the approval closes at the bid of its moment).
 */
export function describeProposal(p: ProposalFacts): string {
  const client = p.clientName ? ` for ${p.clientName}` : "";
  const amount = formatCents(p.amountCents ?? 0);
  const detail = p.tradingPair ?? p.stock;
  const suffix = `${detail ? ` (${detail})` : ""}${client}`;
  if (p.kind === "wallet_change") return `Wallet ${p.walletType ?? ""}: ${p.oldAddress ?? ""} → ${p.newAddress ?? ""}`;
  if (p.kind === "position_close") {
    const shares = `${formatShares(p.sharesE4 ?? 0)} ${p.stock ?? ""}`;
    return `Close position ${positionSerial(p.positionId ?? 0)} (${shares}), worth ${amount} at the bid${client}`;
  }
  if (p.kind === "request_approval") {
    const noun = p.transactionType ? typeInSentence(p.transactionType) : "request";
    return `Approve ${noun} of ${amount}${suffix}`;
  }
  const type = p.transactionType ? typeLabel(p.transactionType) : "Entry";
  return `${type} of ${amount}${suffix}`;
}

/**
 * The reason on the entry form: optional on every entry (the client reads it), required once the entry becomes
 * a proposal (the second admin reads it too).
 */
export const parseEntryReason = (form: FormData, proposal: boolean) =>
  parseReason(form.get("reason"), proposal ? PROPOSAL_MESSAGES.reasonRequired : null);
