/**
 * The approve and reject forms of the 'Awaiting second approval' card, as both pages (/admin, /user/{id}) run
 * them: the proposer is refused before anything else, approving needs a fresh second factor, rejecting a reason.
 */
import { sql } from "drizzle-orm";
import { PROPOSAL_MESSAGES } from "~/lib/proposals";
import { parseReason } from "~/lib/schemas/reason";
import { checkStepUp } from "../auth/step-up.server";
import type { CommandContext, FormOutcome } from "../commands.server";
import { schema } from "../db.server";
import { assertMay } from "../permissions.server";
import type { SessionUser } from "../session.server";
import { approve, reject } from "./proposal-decisions.server";

export async function decideProposalForm(
  context: CommandContext,
  admin: SessionUser,
  form: FormData,
  input: { intent: "approveProposal" | "rejectProposal"; proposalId: number; userId?: string },
): Promise<FormOutcome> {
  const allowed = assertMay(admin, "decideProposals");
  if (!allowed.ok) return allowed;
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
  if (input.intent === "approveProposal") {
    const stepUp = await checkStepUp(context, admin, form, "proposalApproval");
    if (!stepUp.ok) return { ...stepUp, subject: String(input.proposalId) };
    const result = await approve(context, admin, input);
    return result.ok ? { ok: true, message: PROPOSAL_MESSAGES.approved } : result;
  }
  const reason = parseReason(form.get("reason"), PROPOSAL_MESSAGES.rejectReasonRequired);
  if (!reason.ok) return { ok: false, error: reason.error, status: 400, field: "reason" };
  const result = await reject(context, admin, { ...input, reason: reason.text });
  return result.ok ? { ok: true, message: PROPOSAL_MESSAGES.rejected } : result;
}
