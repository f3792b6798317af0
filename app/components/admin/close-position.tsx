import { useEffect, useState } from "react";
import { Form } from "react-router";
import { FormErrors, SubmitButton } from "~/components/form";
import { Modal } from "~/components/modal";
import type { OpenPosition } from "~/components/orders/open-positions";
import { StepUpField } from "~/components/step-up";
import { formatCents } from "~/lib/format";
import { type Mark, marked } from "~/lib/holdings";
import { type IntentReply, refusalFor } from "~/lib/intent-reply";
import { formatShares, positionSerial } from "~/lib/money/orders";
import { ReasonField } from "./reason-field";

/** What the desk needs to close a client's positions from their page. */
export interface ClosingPositions {
  reply?: IntentReply;
  idempotencyKey: string;
  /** From this value at the bid a second admin approves the close. */
  secondApprovalFromCents: number;
  /** The client's waiting proposals: a position whose close is among them says so instead of offering Close. */
  proposals: ReadonlyArray<{ kind: string; positionId: number | null }>;
}

/**
 * Close on each open position of the client page: a dialog that says what the close sells (all the position's
 * open shares, at the bid of the server's quote when it is sent) and what it was worth at the page's price, takes
 * the reason (required when a second admin must approve) and, when the server asks, the admin's code. It stays
 * open on a refusal and closes once the close is done or proposed.
 */
export function useClosePosition(
  closing: ClosingPositions,
  positions: OpenPosition[],
  marks: Record<string, Mark | null>,
) {
  const [chosen, setChosen] = useState<OpenPosition | null>(null);
  const [dismissed, setDismissed] = useState<number | undefined>(undefined);
  const { reply } = closing;
  // A refusal names its position: the page drawn with it (before any script) has the dialog open, code field and all.
  const refused =
    reply?.intent === "closePosition" && reply.tone === "error" && reply.at !== dismissed
      ? (positions.find((p) => String(p.id) === reply.subject) ?? null)
      : null;
  const position = chosen ?? refused;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per reply, identified by its stamp
  useEffect(() => {
    if (reply?.intent === "closePosition" && reply.tone === "success") setChosen(null);
  }, [reply?.at]);
  const closeDialog = () => {
    setChosen(null);
    setDismissed(reply?.at);
  };

  const waiting = new Set(closing.proposals.flatMap((p) => (p.kind === "position_close" ? [p.positionId] : [])));
  const actions = (p: OpenPosition) =>
    waiting.has(p.id) ? (
      <span className="text-xs font-medium text-pending">Close awaiting second approval</span>
    ) : (
      <button
        type="button"
        onClick={() => setChosen(p)}
        aria-label={`Close position ${positionSerial(p.id)}`}
        className="row-action-reject"
      >
        Close
      </button>
    );

  const dialog = (
    <Modal
      open={position !== null}
      title={position ? `Close position ${positionSerial(position.id)}` : "Close position"}
      onClose={closeDialog}
      closeLabel="Keep it open"
    >
      {position ? (
        <FormErrors reply={refusalFor(reply, "closePosition")}>
          <Form method="post" className="space-y-3">
            <input type="hidden" name="positionId" value={position.id} />
            <input type="hidden" name="idempotencyKey" value={closing.idempotencyKey} />
            <CloseFacts position={position} mark={marks[position.symbol] ?? null} closing={closing} />
            <ReasonField hint="Kept in the audit log; the second admin reads it when one must approve." />
            <StepUpField />
            <SubmitButton intent="closePosition" pendingText="Closing..." tone="danger" className="w-full">
              Close position
            </SubmitButton>
          </Form>
        </FormErrors>
      ) : null}
    </Modal>
  );
  return { actions, dialog };
}

function CloseFacts({
  position,
  mark,
  closing,
}: {
  position: OpenPosition;
  mark: Mark | null;
  closing: ClosingPositions;
}) {
  const { valueCents } = marked(position.openSharesE4, position.openCostCents, mark);
  return (
    <div className="space-y-1 text-sm">
      <p>
        Sells all {formatShares(position.openSharesE4)} {position.symbol} of this position at the bid of the
        server&apos;s quote when you confirm. The result is posted to the client&apos;s ledger and the client is told.
      </p>
      {valueCents !== null ? (
        <p className="text-ink-muted">Worth about {formatCents(valueCents)} at this page&apos;s price.</p>
      ) : null}
      <p className="text-ink-muted">
        From {formatCents(closing.secondApprovalFromCents)} a second admin approves it, and it closes at the bid of that
        moment.
      </p>
    </div>
  );
}
