/**
 * The back office's money acts, one command each, as the client page and the desk run them: approving or
 * rejecting a client's request, posting a ledger entry, changing the deposit wallets. Each takes the signed-in
 * admin and the submitted form, asks for a fresh code where the rules table says so, decides from the same table
 * whether the act is done now or waits for a second admin, and answers a `FormOutcome`. The after-commit effects
 * go through `afterCommit` in the commands they call.
 */

import { formatCents } from "~/lib/format";
import { refusalOf } from "~/lib/forms";
import { typeLabel } from "~/lib/labels";
import { needsSecondAdmin } from "~/lib/money/constraints";
import { decisionPermission, type Permission } from "~/lib/permissions";
import { awaitingBecause, PROPOSAL_MESSAGES, parseEntryReason } from "~/lib/proposals";
import { ENTRY_MESSAGES, parseLedgerEntryForm } from "~/lib/schemas/admin";
import { idempotencyKeyOf } from "~/lib/schemas/money";
import { parseReason } from "~/lib/schemas/reason";
import { checkStepUp, type StepUpAction, type StepUpCheck } from "../auth/step-up.server";
import type { CommandContext, FormOutcome } from "../commands.server";
import { assertMay } from "../permissions.server";
import type { SessionUser } from "../session.server";
import { decide, type RequestToDecide, requestToDecide } from "./decisions.server";
import { postEntry } from "./entries.server";
import { proposalChanged, proposeEntry, proposeWallets } from "./proposals.server";
import { proposeApprovalOf } from "./request-approvals.server";

const APPROVED = "Transaction approved";
const REJECTED = "Transaction rejected";

/** A client's request on this client's page: the id must be theirs, so a page never decides another's row. */
interface RequestOnPage {
  transactionId: number;
  userId: string;
}

/** An act the admin's roles must allow, then a fresh code for it: whoever may not act is never asked for a code. */
async function mayActWithCode(
  context: CommandContext,
  admin: SessionUser,
  form: FormData,
  permission: Permission,
  action: StepUpAction,
): Promise<StepUpCheck> {
  const allowed = assertMay(admin, permission);
  return allowed.ok ? checkStepUp(context, admin, form, action) : allowed;
}

/**
 * The request a decision on this client's page names, read once (null when there is none or it is another
 * client's: the decision answers that it was not found), and whether this admin may decide its type.
 */
async function requestToDecideOnPage(context: CommandContext, admin: SessionUser, input: RequestOnPage) {
  const read = await requestToDecide(context.db, input.transactionId);
  const request = read?.userId === input.userId ? read : null;
  // The row's type says whose decision it is (a withdrawal the approvers', a deposit the operators'), checked
  // before any code is asked for: an admin who may not decide it is refused whatever their code.
  const allowed = request ? assertMay(admin, decisionPermission(request.transactionType)) : ({ ok: true } as const);
  return allowed.ok ? { ok: true as const, request } : allowed;
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
 * Approve on a client's request: the row is read once and its type's permission checked, a fresh code asked
 * (every approval changes what the client may take out), then at or above the threshold the approval becomes a
 * proposal (answered 'Awaiting second approval', also when one already waits); below it, the decision is written,
 * unless the admin's approval limits refuse it in the same statement: then it becomes a proposal too, with the
 * limit as its reason.
 */
export async function approveOrPropose(
  context: CommandContext,
  admin: SessionUser,
  form: FormData,
  input: RequestOnPage,
): Promise<FormOutcome> {
  const allowed = await requestToDecideOnPage(context, admin, input);
  if (!allowed.ok) return allowed;
  const { request } = allowed;
  const stepUp = await checkStepUp(context, admin, form, "requestApproval");
  if (!stepUp.ok) return { ...stepUp, subject: String(input.transactionId) };
  if (request && needsSecondAdmin("requestApproval", context.env.FOUR_EYES_THRESHOLD, request.amountCents)) {
    return proposeApproval(context, admin, request, null);
  }
  const decided = await decide(context, admin, { ...input, decision: "approved", request });
  if (decided.ok) return { ok: true, message: APPROVED };
  if (!(decided.heldBy && request)) return decided;
  return proposeApproval(context, admin, request, decided.heldBy);
}

/** Reject on a client's request, with the admin's optional reason (the client reads it). */
export async function rejectRequest(
  context: CommandContext,
  admin: SessionUser,
  form: FormData,
  input: RequestOnPage,
): Promise<FormOutcome> {
  const allowed = await requestToDecideOnPage(context, admin, input);
  if (!allowed.ok) return allowed;
  const decided = await decide(context, admin, {
    ...input,
    decision: "rejected",
    reason: String(form.get("reason") ?? ""),
    request: allowed.request,
  });
  if (decided.ok) return { ok: true, message: REJECTED };
  return decided.field ? { ...decided, subject: String(input.transactionId) } : decided;
}

/**
 * A ledger entry on the client's page: a fresh code, the entry's fields, the page's key; then at or above the
 * threshold a proposal (its reason required), below it the entry itself (its reason optional, told to the client),
 * unless the admin's approval limits refuse it: then a proposal with the limit as its reason (and the admin's
 * reason required, as for any entry proposal).
 */
export async function postOrPropose(
  context: CommandContext,
  admin: SessionUser,
  form: FormData,
  userId: string,
): Promise<FormOutcome> {
  const allowed = await mayActWithCode(context, admin, form, "postEntries", "ledgerEntry");
  if (!allowed.ok) return allowed;
  const parsed = parseLedgerEntryForm(form);
  if (!parsed.ok) return { ok: false, ...refusalOf(parsed), status: 400 };
  const idempotencyKey = idempotencyKeyOf(form);
  if (!idempotencyKey) return { ok: false, error: ENTRY_MESSAGES.failed, status: 400 };
  const entry = { ...parsed.data, idempotencyKey };
  const proposal = needsSecondAdmin("ledgerEntry", context.env.FOUR_EYES_THRESHOLD, entry.amountCents);
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
 * Update Deposit Wallets on the desk: a fresh code, the changed addresses and an optional reason; every change
 * waits for a second admin (the rules table's `walletChange`), one proposal per changed wallet.
 */
export async function proposeWalletsForm(
  context: CommandContext,
  admin: SessionUser,
  form: FormData,
): Promise<FormOutcome> {
  const allowed = await mayActWithCode(context, admin, form, "proposeWallets", "depositWallets");
  if (!allowed.ok) return allowed;
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
