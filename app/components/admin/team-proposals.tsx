import { Form } from "react-router";
import { Banner, SubmitButton } from "~/components/form";
import { Moment } from "~/components/moment";
import { StepUpDialog } from "~/components/step-up";
import { type IntentReply, refusalFor } from "~/lib/intent-reply";
import { asksForCode } from "~/lib/step-up";
import { TEAM_MESSAGES, TEAM_PROPOSAL_LABELS } from "~/lib/team";
import type { TeamProposalKind } from "../../../db/enums";

export interface TeamProposalView {
  id: number;
  kind: TeamProposalKind;
  targetEmail: string;
  proposedBy: string | null;
  proposerEmail: string | null;
  proposedAt: number;
  proposerOwns: boolean;
}

/** What owners proposed and another owner decides: approve or reject, never one's own. */
export function TeamProposals({
  proposals,
  viewerId,
  reply,
}: {
  proposals: TeamProposalView[];
  viewerId: string;
  reply: IntentReply | undefined;
}) {
  if (proposals.length === 0) return null;
  return (
    <section aria-labelledby="team-proposals-heading" className="rounded-xl border border-border bg-surface p-4 sm:p-6">
      <h2 id="team-proposals-heading" className="text-xl font-semibold">
        Waiting for a second owner
      </h2>
      <ul className="mt-3 divide-y divide-border">
        {proposals.map((proposal) => {
          const answered = reply?.subject === String(proposal.id) ? reply : undefined;
          return (
            <li key={proposal.id} className="space-y-2 py-3">
              <p>
                <span className="font-medium">{TEAM_PROPOSAL_LABELS[proposal.kind]}</span>:{" "}
                <span className="break-all">{proposal.targetEmail}</span>
              </p>
              <p className="text-sm text-ink-muted">
                Proposed by {proposal.proposerEmail ?? "a former admin"}, <Moment at={proposal.proposedAt} />
              </p>
              {answered && !asksForCode(answered) ? <Banner tone={answered.tone}>{answered.message}</Banner> : null}
              <StepUpDialog
                reply={refusalFor(answered, "approve")}
                stamp={answered?.at}
                title={`Approve: ${TEAM_PROPOSAL_LABELS[proposal.kind]}, ${proposal.targetEmail}`}
                intent="approve"
                fields={{ proposalId: String(proposal.id) }}
                submitLabel="Approve"
                pendingText="Approving…"
              />
              {proposal.proposedBy === viewerId ? (
                <p className="text-sm text-ink-muted">Another owner approves or rejects it.</p>
              ) : (
                <Form method="post" className="flex flex-wrap items-center gap-2">
                  <input type="hidden" name="proposalId" value={proposal.id} />
                  {proposal.proposerOwns ? (
                    <SubmitButton intent="approve" pendingText="Approving…" className="text-sm">
                      Approve
                    </SubmitButton>
                  ) : (
                    <p className="w-full text-sm text-ink-muted">{TEAM_MESSAGES.proposerGone}</p>
                  )}
                  <SubmitButton intent="reject" pendingText="Rejecting…" tone="danger" className="text-sm">
                    Reject
                  </SubmitButton>
                </Form>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
