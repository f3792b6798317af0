import { useEffect, useState } from "react";
import { Form, useNavigation } from "react-router";
import { Field, FormErrors, SubmitButton } from "~/components/form";
import { Modal } from "~/components/modal";
import { PayoutLine } from "~/components/payout-line";
import { PAYOUT_TEXTS, type PayoutView, payoutAssetOf } from "~/lib/chain/payouts";
import { formatCents } from "~/lib/format";
import { type IntentReply, refusalFor } from "~/lib/intent-reply";

/**
 * A recorded payout on the desk: accepted, its line as the client reads it; waiting for the watcher, what it waits
 * for; not accepted, the reason, for the admin to record the right transaction.
 */
export function DeskPayout({ payout }: { payout: PayoutView }) {
  const accepted = payout.status === "matched" || payout.status === "confirmed";
  if (accepted && payout.mined) return <PayoutLine payout={payout} />;
  if (accepted)
    return (
      <p className="mt-1 text-xs text-ink-muted" data-testid="desk-payout">
        Payout accepted, not in a block yet: the client sees it once it is
      </p>
    );
  const refused = payout.status === "mismatch";
  return (
    <p className={`mt-1 text-xs ${refused ? "font-medium text-danger" : "text-ink-muted"}`} data-testid="desk-payout">
      {refused ? "Payout not accepted: " : "Payout recorded, checking on chain"}
      {refused ? payout.problem : payout.problem ? ` (${payout.problem})` : ""}
    </p>
  );
}

/** Whether a row offers Record payout: an approved withdrawal in a currency checked on chain, with no live payout. */
export const mayRecordPayout = (
  row: { status: string; transactionType: string; payoutCurrency?: string | null },
  payout: PayoutView | undefined,
) =>
  row.status === "approved" &&
  row.transactionType === "withdraw" &&
  payoutAssetOf(row.payoutCurrency) !== null &&
  (!payout || payout.status === "mismatch");

interface Row {
  id: number;
  amountCents: number;
  payoutCurrency?: string | null;
}

/**
 * The Record payout dialog: the transaction id that paid the withdrawal. It stays open with its refusal under the
 * field, and closes once the payout is recorded.
 */
export function RecordPayoutDialog({
  row,
  reply,
  onClose,
}: {
  row: Row | null;
  reply?: IntentReply;
  onClose: () => void;
}) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formData?.get("intent") === "recordPayout";
  const [sent, setSent] = useState(false);
  const refusal = refusalFor(reply, "recordPayout");
  useEffect(() => {
    if (submitting) setSent(true);
    else if (sent && navigation.state === "idle") {
      setSent(false);
      if (!refusal) onClose();
    }
  }, [submitting, sent, navigation.state, refusal, onClose]);
  const asset = payoutAssetOf(row?.payoutCurrency);
  return (
    <Modal
      open={row !== null}
      title={row ? PAYOUT_TEXTS.recordTitle(formatCents(row.amountCents)) : PAYOUT_TEXTS.recordButton}
      onClose={onClose}
    >
      {row && asset ? (
        <FormErrors reply={refusal}>
          <Form method="post" className="space-y-3">
            <input type="hidden" name="transactionId" value={row.id} />
            <Field
              label={PAYOUT_TEXTS.txidLabel}
              name="txid"
              required
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              hint={PAYOUT_TEXTS.txidHint(asset)}
              error={refusal && !refusal.field ? refusal.error : undefined}
            />
            <SubmitButton intent="recordPayout" pendingText="Recording..." className="w-full">
              {PAYOUT_TEXTS.recordButton}
            </SubmitButton>
          </Form>
        </FormErrors>
      ) : null}
    </Modal>
  );
}
