/**
 * The back office's money acts, one command each, as the client page and the desk run them: approving or
 * rejecting a client's request, posting a ledger entry, changing the deposit wallets. Each runs inside the acts
 * runner (app/server/acts.server.ts), which has asked for the permission and the fresh code already; each decides
 * from what the runner grants whether the act is done now or waits for a second admin, and answers a
 * `FormOutcome`. The after-commit effects go through `afterCommit` in the commands they call.
 */

import { formatCents } from "~/lib/format";
import { refusalOf } from "~/lib/forms";
import { typeLabel } from "~/lib/labels";
import { awaitingBecause, PROPOSAL_MESSAGES, parseEntryReason } from "~/lib/proposals";
import { ADMIN_MESSAGES, ENTRY_MESSAGES, parseLedgerEntryForm } from "~/lib/schemas/admin";
import { idempotencyKeyOf } from "~/lib/schemas/money";
import { parseReason } from "~/lib/schemas/reason";
import type { Checked, Granted } from "../acts.server";
import type { CommandContext, FormOutcome } from "../commands.server";
import type { SessionUser } from "../session.server";
import { decide, type RequestToDecide, requestToDecide } from "./decisions.server";
import { postEntry } from "./entries.server";
import { proposalChanged, proposeEntry, proposeWallets } from "./proposals.server";
import { proposeApprovalOf } from "./request-approvals.server";

const APPROVED = "Transaction approved";
const REJECTED = "Transaction rejected";

/**
 * The client's request a decision on their page names, read once, before any code is asked: its type says whose
 * act it is (a withdrawal the approvers', a deposit the operators'). Another client's id, or none, is not found:
 * a page never decides another client's row.
 */
export async function requestOnPage(
  context: CommandContext,
  transactionId: number | null,
  userId: string,
): Promise<Checked<RequestToDecide>> {
  if (transactionId === null) return { ok: false, error: ENTRY_MESSAGES.failed, status: 400 };
  const read = await requestToDecide(context.db, transactionId);
  if (read?.userId === userId) return { ok: true, data: read };
  return { ok: false, error: ADMIN_MESSAGES.transactionNotFound, status: 409 };
}

/** An approval that waits for a second admin: at the threshold (`limitReason` null) or held by an approval limit. */
async function proposeApproval(
  context: CommandContext,
  admin: SessionUser,
  request: RequestToDecide,
  limitReason: string | null,
): Promise<FormOutcome> {
  const proposed = await proposeApprovalOf(context.db, admin, request, Date.now(), limitReason);
  if (!proposed.ok) return { ok: false, error: proposed.error, status: 409 };
  if (proposed.created) proposalChanged(context, proposed.emailIds);
  return { ok: true, message: limitReason === null ? PROPOSAL_MESSAGES.awaiting : awaitingBecause(limitReason) };
}

/**
 * Approve on a client's request: at or above the threshold the approval becomes a proposal (answered 'Awaiting
 * second approval', also when one already waits); below it, the decision is written, unless the admin's approval
 * limits refuse it in the same statement: then it becomes a proposal too, with the limit as its reason.
 */
export async function approveOrPropose(
  context: CommandContext,
  admin: SessionUser,
  request: RequestToDecide,
  granted: Granted,
): Promise<FormOutcome> {
  if (granted.secondAdmin(request.amountCents)) return proposeApproval(context, admin, request, null);
  const input = { transactionId: request.id, userId: request.userId };
  const decided = await decide(context, admin, { ...input, decision: "approved", request });
  if (decided.ok) return { ok: true, message: APPROVED };
  if (!decided.heldBy) return decided;
  return proposeApproval(context, admin, request, decided.heldBy);
}

/** Reject on a client's request, with the admin's optional reason (the client reads it). */
export async function rejectRequest(
  context: CommandContext,
  admin: SessionUser,
  form: FormData,
  request: RequestToDecide,
): Promise<FormOutcome> {
  const decided = await decide(context, admin, {
    transactionId: request.id,
    userId: request.userId,
    decision: "rejected",
    reason: String(form.get("reason") ?? ""),
    request,
  });
  if (decided.ok) return { ok: true, message: REJECTED };
  return decided.field ? { ...decided, subject: String(request.id) } : decided;
}

/**
 * A ledger entry on the client's page: the entry's fields, the page's key; then at or above the
 * threshold a proposal (its reason required), below it the entry itself (its reason optional, told to the client),
 * unless the admin's approval limits refuse it: then a proposal with the limit as its reason (and the admin's
 * reason required, as for any entry proposal).
 */
export async function postOrPropose(
  context: CommandContext,
  admin: SessionUser,
  form: FormData,
  userId: string,
  granted: Granted,
): Promise<FormOutcome> {
  const parsed = parseLedgerEntryForm(form);
  if (!parsed.ok) return { ok: false, ...refusalOf(parsed), status: 400 };
  const idempotencyKey = idempotencyKeyOf(form);
  if (!idempotencyKey) return { ok: false, error: ENTRY_MESSAGES.failed, status: 400 };
  const entry = { ...parsed.data, idempotencyKey };
  const proposal = granted.secondAdmin(entry.amountCents);
  const reason = parseEntryReason(form, proposal);
  if (!reason.ok) return { ok: false, error: reason.error, status: 400, field: "reason" };
  if (proposal) {
    const proposed = await proposeEntry(context, admin, userId, { ...entry, reason: reason.text });
    return proposed.ok ? { ok: true, message: PROPOSAL_MESSAGES.awaiting } : proposed;
  }
  const posted = await postEntry(context, admin, userId, { ...entry, memo: reason.text });
  if (posted.ok) return { ok: true, message: `${typeLabel(entry.type)} of ${formatCents(entry.amountCents)} recorded` };
  if (!("heldBy" in posted)) return posted;
  const { heldBy } = posted;
  if (!reason.text) {
    return { ok: false, error: `${heldBy} ${PROPOSAL_MESSAGES.limitReasonRequired}`, status: 400, field: "reason" };
  }
  const proposed = await proposeEntry(context, admin, userId, { ...entry, reason: reason.text, limitReason: heldBy });
  return proposed.ok ? { ok: true, message: awaitingBecause(heldBy) } : proposed;
}

/**
 * Update Deposit Wallets on the desk: the changed addresses and an optional reason; every change waits for a
 * second admin (the acts table's `walletChange`), one proposal per changed wallet.
 */
export async function proposeWalletsForm(
  context: CommandContext,
  admin: SessionUser,
  form: FormData,
): Promise<FormOutcome> {
  // Only the names the modal writes ("wallet-3"): an alias such as "wallet-03" or "wallet-3.0" names nothing.
  const submitted = [...form.entries()].flatMap(([name, value]) => {
    const id = /^wallet-([1-9]\d{0,9})$/.exec(name)?.[1];
    return id
      ? [{ id: Number(id), walletAddress: String(value), renderedAddress: String(form.get(`was-${id}`) ?? "") }]
      : [];
  });
  const reason = parseReason(form.get("reason"));
  if (!reason.ok) return { ok: false, error: reason.error, status: 400, field: "reason" };
  const proposed = await proposeWallets(context, admin, submitted, reason.text || null);
  return proposed.ok ? { ok: true, message: PROPOSAL_MESSAGES.awaiting } : proposed;
}
