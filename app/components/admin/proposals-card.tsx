import { useEffect, useState } from "react";
import { Form } from "react-router";
import { Banner, FormErrors, SubmitButton, useFieldError } from "~/components/form";
import { Modal } from "~/components/modal";
import { StepUpDialog } from "~/components/step-up";
import { formatDateTimeUtc } from "~/lib/format";
import { type IntentReply, refusalFor } from "~/lib/intent-reply";
import { rolesFor } from "~/lib/permissions";
import { PROPOSAL_MESSAGES } from "~/lib/proposals";
import { REASON_MAX_LENGTH } from "~/lib/schemas/reason";
import { asksForCode } from "~/lib/step-up";
import { formatRoles } from "~/lib/team";
import { KeyAddresses } from "./key-addresses";

interface ProposalRow {
  id: number;
  description: string;
  reason: string | null;
  /** Why an act under the threshold waits: the proposer's approval limit it would break. */
  limitReason?: string | null;
  /** A wallet change to an extended public key: the key's first addresses, derived by the server. */
  keyAddresses?: string[] | null;
  proposedBy: string;
  proposerEmail: string;
  proposedAt: number;
  expiresAt: number;
}

/**
 * The 'Awaiting second approval' card (/admin: every waiting proposal, oldest first; /user/{id}: that client's).
 * Another admin approves (the server may ask for a second-factor code, in a dialog) or rejects with a reason;
 * the proposer sees that it waits for someone else, or, in a firm of one admin, that a second admin is needed.
 */
export function ProposalsCard({
  proposals,
  viewerId,
  adminCount,
  reply,
  showOutcome = true,
  mayDecide,
}: {
  proposals: ProposalRow[];
  viewerId: string;
  /** Whether the viewer's roles let them approve or reject proposals: without, the rows show no buttons. */
  mayDecide: boolean;
  adminCount: number;
  reply?: IntentReply;
  /** Whether the card shows the outcome of an approve or reject (false where the page shows every reply). */
  showOutcome?: boolean;
}) {
  const [rejecting, setRejecting] = useState<ProposalRow | null>(null);
  const awaitingCode = proposals.find((p) => reply?.intent === "approveProposal" && String(p.id) === reply.subject);
  const rejectReply = refusalFor(reply, "rejectProposal");
  const outcome =
    showOutcome &&
    reply &&
    (reply.intent === "approveProposal" || reply.intent === "rejectProposal") &&
    !asksForCode(refusalFor(reply, reply.intent))
      ? reply
      : null;
  // A rejection that went through closes its dialog; a refusal keeps it open with the message.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per reply, identified by its stamp
  useEffect(() => {
    if (reply?.intent === "rejectProposal" && reply.tone === "success") setRejecting(null);
  }, [reply?.at]);
  return (
    <article className="rounded-xl border border-border bg-surface p-5" aria-labelledby="proposals-heading">
      <h2 id="proposals-heading" className="text-lg font-semibold">
        {PROPOSAL_MESSAGES.awaiting}
      </h2>
      {outcome ? (
        <div className="mt-3">
          <Banner tone={outcome.tone}>{outcome.message}</Banner>
        </div>
      ) : null}
      {proposals.length === 0 ? (
        <p className="mt-3 text-sm text-ink-muted">Nothing awaits a second approval.</p>
      ) : (
        <ul className="mt-3 divide-y divide-border">
          {proposals.map((proposal) => (
            <li
              key={proposal.id}
              data-testid="proposal"
              className="flex flex-col gap-3 py-3 sm:flex-row sm:items-start sm:justify-between"
            >
              <div className="min-w-0 text-sm sm:flex-1">
                <p className="break-words font-medium">{proposal.description}</p>
                <p className="text-ink-muted">
                  Proposed by {proposal.proposerEmail} on {formatDateTimeUtc(proposal.proposedAt)} · expires{" "}
                  {formatDateTimeUtc(proposal.expiresAt)}
                </p>
                {proposal.keyAddresses ? <KeyAddresses addresses={proposal.keyAddresses} /> : null}
                {proposal.reason ? <p className="mt-1 break-words">Reason: {proposal.reason}</p> : null}
                {proposal.limitReason ? (
                  <p className="mt-1 break-words" data-testid="proposal-limit">
                    {`Over the approval limit: ${proposal.limitReason}`}
                  </p>
                ) : null}
              </div>
              {proposal.proposedBy === viewerId ? (
                <p className="text-sm text-ink-muted sm:max-w-[16rem] sm:text-right">
                  {adminCount < 2 ? PROPOSAL_MESSAGES.secondAdminNeeded : PROPOSAL_MESSAGES.waitingForOther}
                </p>
              ) : !mayDecide ? (
                <p className="text-sm text-ink-muted sm:max-w-[16rem] sm:text-right">
                  {PROPOSAL_MESSAGES.decidedByRoles(formatRoles(rolesFor("decideProposals")))}
                </p>
              ) : (
                <div className="flex shrink-0 gap-2">
                  <Form method="post">
                    <input type="hidden" name="proposalId" value={proposal.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="approveProposal"
                      aria-label={`Approve: ${proposal.description}`}
                      className="rounded-md bg-success/20 px-3 py-1 text-sm font-medium text-success hover:bg-success/30"
                    >
                      Approve
                    </button>
                  </Form>
                  <button
                    type="button"
                    onClick={() => setRejecting(proposal)}
                    aria-label={`Reject: ${proposal.description}`}
                    className="rounded-md bg-danger/20 px-3 py-1 text-sm font-medium text-danger hover:bg-danger/30"
                  >
                    Reject
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <Modal
        open={rejecting !== null}
        title={rejecting ? `Reject: ${rejecting.description}` : "Reject"}
        onClose={() => setRejecting(null)}
      >
        {rejecting ? (
          <FormErrors reply={rejectReply}>
            {rejectReply?.error && !rejectReply.field ? (
              <p role="alert" className="mb-3 text-sm text-danger">
                {rejectReply.error}
              </p>
            ) : null}
            <RejectForm proposalId={rejecting.id} />
          </FormErrors>
        ) : null}
      </Modal>
      {awaitingCode ? (
        <StepUpDialog
          reply={refusalFor(reply, "approveProposal")}
          stamp={reply?.at}
          title={`Approve: ${awaitingCode.description}`}
          intent="approveProposal"
          fields={{ proposalId: String(awaitingCode.id) }}
          submitLabel="Approve"
          pendingText="Approving..."
        />
      ) : null}
    </article>
  );
}

/** The reject dialog's form: the reason is required (the proposer is told it). */
function RejectForm({ proposalId }: { proposalId: number }) {
  const reason = useFieldError("reason", undefined);
  return (
    <Form method="post" className="space-y-4">
      <input type="hidden" name="proposalId" value={proposalId} />
      <div>
        <label htmlFor="proposal-reject-reason" className="block text-sm font-medium">
          Reason
        </label>
        <textarea
          id="proposal-reject-reason"
          name="reason"
          required
          maxLength={REASON_MAX_LENGTH}
          rows={3}
          {...reason.controlProps}
          className="mt-1 w-full rounded-md border border-border bg-canvas px-3 py-2"
        />
        {reason.errorText}
      </div>
      <SubmitButton intent="rejectProposal" pendingText="Rejecting..." tone="danger" className="w-full">
        Reject
      </SubmitButton>
    </Form>
  );
}
