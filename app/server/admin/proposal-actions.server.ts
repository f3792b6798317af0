/**
 * The approve and reject forms of the 'Awaiting second approval' card, as both pages (/admin, /user/{id}) run
 * them through the acts runner: the proposer is refused before anything else (before a code is asked), approving
 * needs the fresh second factor the runner asks for, rejecting a reason.
 */
import { sql } from "drizzle-orm";
import { PROPOSAL_MESSAGES } from "~/lib/proposals";
import { parseReason } from "~/lib/schemas/reason";
import type { Checked } from "../acts.server";
import type { CommandContext, FormOutcome } from "../commands.server";
import { schema } from "../db.server";
import { assertMay } from "../permissions.server";
import type { SessionUser } from "../session.server";
import { approve, reject } from "./proposal-decisions.server";

type ProposalDecision = { intent: "approveProposal" | "rejectProposal"; proposalId: number | null; userId?: string };

/** The proposer may not decide their own proposal, whatever their code: refused before one is asked. */
export async function notOwnProposal(
  context: CommandContext,
  admin: SessionUser,
  input: ProposalDecision,
): Promise<Checked<number>> {
  if (input.proposalId === null) return { ok: false, error: PROPOSAL_MESSAGES.notFound, status: 400 };
  const { proposals } = schema;
  const own = await context.db
    .select({ id: proposals.id })
    .from(proposals)
    .where(sql`${proposals.id} = ${input.proposalId} AND ${proposals.proposedBy} = ${admin.id}`)
    .get();
  if (own) {
    const error =
      input.intent === "approveProposal" ? PROPOSAL_MESSAGES.ownProposal : PROPOSAL_MESSAGES.ownProposalReject;
    return { ok: false, error, status: 403 };
  }
  return { ok: true, data: input.proposalId };
}

export async function decideProposalForm(
  context: CommandContext,
  admin: SessionUser,
  form: FormData,
  input: ProposalDecision & { proposalId: number },
): Promise<FormOutcome> {
  const allowed = assertMay(admin, "decideProposals");
  if (!allowed.ok) return allowed;
  if (input.intent === "approveProposal") {
    const result = await approve(context, admin, input);
    return result.ok ? { ok: true, message: PROPOSAL_MESSAGES.approved } : result;
  }
  const reason = parseReason(form.get("reason"), PROPOSAL_MESSAGES.rejectReasonRequired);
  if (!reason.ok) return { ok: false, error: reason.error, status: 400, field: "reason" };
  const result = await reject(context, admin, { ...input, reason: reason.text });
  return result.ok ? { ok: true, message: PROPOSAL_MESSAGES.rejected } : result;
}
