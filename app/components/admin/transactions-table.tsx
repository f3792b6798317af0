import { useCallback, useEffect, useId, useState } from "react";
import { Form, useNavigation } from "react-router";
import { CopyButton } from "~/components/copy-button";
import { Banner } from "~/components/form";
import { HistoryFilterForm } from "~/components/history-filter-form";
import { HistoryPageLinks } from "~/components/history-page-links";
import { Modal } from "~/components/modal";
import { Moment } from "~/components/moment";
import { StackedTable } from "~/components/stacked-table";
import { StepUpDialog } from "~/components/step-up";
import { PAYOUT_TEXTS, type PayoutView } from "~/lib/chain/payouts";
import { formatCents } from "~/lib/format";
import type { HistoryFilters } from "~/lib/history-filters";
import { type IntentReply, refusalFor } from "~/lib/intent-reply";
import { statusLabel, typeInSentence, typeLabel } from "~/lib/labels";
import { decisionPermission, type Permission } from "~/lib/permissions";
import type { FeedTransaction } from "~/lib/realtime";
import { REASON_MAX_LENGTH } from "~/lib/schemas/reason";
import type { VerificationLevel } from "~/lib/verification";
import { WatchBadge } from "./client-flags";
import { DeskPayout, mayRecordPayout, RecordPayoutDialog } from "./payout-record";
import { VerificationLevelBadge } from "./verification-level";

/**
 * What the table shows of a transaction (a row read with the page, or one pushed by the live feed, which
 * carries no payout details until the page reloads its rows).
 */
type TransactionRow = Omit<FeedTransaction, "userId"> & {
  reference: string;
  withdrawalWalletAddress?: string | null;
  payoutCurrency?: string | null;
  /** A withdrawal to an address this client was never paid to (1 or true). */
  newPayoutAddress?: number | boolean | null;
};

/**
 * What the rows' cells share, set once on the table body rather than on each of the 350 cells: padding, the
 * reference's monospace on one line, the amount's figures, the status's case, the actions' layout, and rejected
 * and cancelled rows greyed out by the row's `data-status`. Approve and Reject have a class of their own
 * (app/tailwind.css).
 */
const ROWS_CLASS = [
  "divide-y divide-border [&>tr>td]:py-2 [&>tr>td]:pr-4",
  "[&>tr>td:first-child]:font-mono [&>tr>td:first-child]:whitespace-nowrap",
  "[&>tr>td:nth-child(3)]:tabular-nums [&>tr>td:nth-child(6)]:capitalize",
  "[&>[data-status=rejected]]:opacity-50 [&>[data-status=cancelled]]:opacity-50",
  "[&>tr>td:last-child>div]:flex [&>tr>td:last-child>div]:flex-wrap [&>tr>td:last-child>div]:items-center",
  "[&>tr>td:last-child>div]:gap-2",
].join(" ");

/**
 * The client page's Transactions table, 50 rows a page newest first (Previous and Next by keyset), filtered by
 * type, status, dates and reference in the URL, each row with its reference: Approve and Reject on pending rows
 * (Reject asks for an optional reason the client is mailed), rejected and cancelled rows greyed out, 'New
 * address' on a withdrawal to an address this client was never paid to. Approving any request may need a
 * second-factor code: when the reply asks for one, a dialog repeats that approval with the code field. Rows in
 * `awaitingSecondApproval` (an approval already proposed, at or above the four-eyes threshold) say so instead of
 * offering Approve.
 */
export function TransactionsTable({
  rows,
  next,
  previous,
  filters,
  submitted,
  filterErrors,
  clientId,
  reply,
  awaitingSecondApproval = [],
  level,
  watched = false,
  payouts = {},
  may,
}: {
  rows: TransactionRow[];
  next: string | null;
  previous: string | null;
  filters: HistoryFilters;
  submitted: Partial<Record<string, string>>;
  filterErrors: string[];
  clientId: string;
  reply?: IntentReply;
  awaitingSecondApproval?: number[];
  /** The client's verification level, shown on each pending withdrawal (an unverified client's cannot be paid). */
  level?: VerificationLevel;
  /** Whether the client carries the Watch flag, shown beside each pending withdrawal's amount. */
  watched?: boolean;
  /** The recorded payouts of the rows' approved withdrawals, by the withdrawal's id. */
  payouts?: Record<number, PayoutView>;
  /** What the viewing admin may do: Approve and Reject show only on the rows whose type they may decide. */
  may: Record<Permission, boolean>;
}) {
  const [rejecting, setRejecting] = useState<TransactionRow | null>(null);
  const [recording, setRecording] = useState<TransactionRow | null>(null);
  // Every pending row's Approve submits this one form (the button's value is the row's id), not a form per row.
  const approveForm = useId();
  const awaitingCode = rows.find((tx) => reply?.intent === "approve" && String(tx.id) === reply.subject);
  // One handler for every pending row's Reject (the row's id is the button's value), not one closure per row.
  const chooseRejecting = (event: React.MouseEvent<HTMLButtonElement>) => {
    const id = Number(event.currentTarget.value);
    setRejecting(rows.find((tx) => tx.id === id) ?? null);
  };
  const closeRecording = useCallback(() => setRecording(null), []);
  const chooseRecording = (event: React.MouseEvent<HTMLButtonElement>) => {
    const id = Number(event.currentTarget.value);
    setRecording(rows.find((tx) => tx.id === id) ?? null);
  };
  return (
    <article className="rounded-xl border border-border bg-surface p-5">
      <h2 className="text-lg font-semibold">Transactions</h2>
      <div className="mt-3">
        <HistoryFilterForm look="desk" idPrefix="client-tx" submitted={submitted} clearTo={`/user/${clientId}`} />
      </div>
      {filterErrors.length > 0 ? (
        <div className="mt-3">
          <Banner tone="error">{filterErrors.join(" ")}</Banner>
        </div>
      ) : null}
      <div className="mt-3 overflow-x-auto">
        <StackedTable
          columns={["Reference", "Type", "Amount", "Trading Pair/Stock", "Date", "Status", "Actions"]}
          className="w-full text-left text-sm sm:min-w-[44rem]"
          bodyClassName={ROWS_CLASS}
        >
          {rows.map((tx) => (
            <tr key={tx.id} data-status={tx.status}>
              <td>{tx.reference}</td>
              <td>
                {typeLabel(tx.transactionType)}
                {tx.transactionType === "withdraw" && tx.withdrawalWalletAddress ? (
                  <PayoutAddress
                    currency={tx.payoutCurrency ?? null}
                    address={tx.withdrawalWalletAddress}
                    isNew={Boolean(tx.newPayoutAddress)}
                  />
                ) : null}
                {payouts[tx.id] ? <DeskPayout payout={payouts[tx.id] as PayoutView} /> : null}
              </td>
              <td>
                {formatCents(tx.amountCents)}
                {watched && tx.status === "pending" && tx.transactionType === "withdraw" ? <WatchBadge /> : null}
              </td>
              <td>{tx.tradingPair ?? tx.stock ?? "—"}</td>
              <td>
                <Moment at={tx.createdAt} />
              </td>
              <td>{statusLabel(tx.status, "deskTable")}</td>
              <td>
                {tx.status === "pending" ? (
                  <div>
                    {level && tx.transactionType === "withdraw" ? <VerificationLevelBadge level={level} /> : null}
                    {!may[decisionPermission(tx.transactionType)] ? null : awaitingSecondApproval.includes(tx.id) ? (
                      <span className="text-xs font-medium text-pending">Awaiting second approval</span>
                    ) : (
                      <button
                        type="submit"
                        form={approveForm}
                        name="transactionId"
                        value={tx.id}
                        aria-label={`Approve ${describe(tx)}`}
                        className="row-action-approve"
                      >
                        Approve
                      </button>
                    )}
                    {may[decisionPermission(tx.transactionType)] ? (
                      <button
                        type="button"
                        value={tx.id}
                        onClick={chooseRejecting}
                        aria-label={`Reject ${describe(tx)}`}
                        className="row-action-reject"
                      >
                        Reject
                      </button>
                    ) : null}
                  </div>
                ) : may.decideWithdrawals && mayRecordPayout(tx, payouts[tx.id]) ? (
                  <button
                    type="button"
                    value={tx.id}
                    onClick={chooseRecording}
                    aria-label={`${PAYOUT_TEXTS.recordButton} of ${describe(tx)}`}
                    className="row-action-approve"
                  >
                    {PAYOUT_TEXTS.recordButton}
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </StackedTable>
        {rows.length === 0 ? <p className="py-4 text-sm text-ink-muted">No transactions found</p> : null}
      </div>
      <HistoryPageLinks look="desk" filters={filters} previous={previous} next={next} />
      <Form method="post" id={approveForm}>
        <input type="hidden" name="intent" value="approve" />
      </Form>
      <RejectDialog row={rejecting} onClose={() => setRejecting(null)} />
      <RecordPayoutDialog row={recording} reply={reply} onClose={closeRecording} />
      {awaitingCode ? (
        <StepUpDialog
          reply={refusalFor(reply, "approve")}
          stamp={reply?.at}
          title={`Approve ${describe(awaitingCode)}`}
          intent="approve"
          fields={{ transactionId: String(awaitingCode.id) }}
          submitLabel="Approve"
          pendingText="Approving..."
        />
      ) : null}
    </article>
  );
}

/** A row inside a button's or a dialog's name: "withdrawal of $75.00". */
const describe = (tx: TransactionRow) => `${typeInSentence(tx.transactionType)} of ${formatCents(tx.amountCents)}`;

/** Reject with an optional reason, which the client reads in the decision mail. Closes once the reply is in. */
function RejectDialog({ row, onClose }: { row: TransactionRow | null; onClose: () => void }) {
  const navigation = useNavigation();
  const reasonId = useId();
  const submitting = navigation.state === "submitting" && navigation.formData?.get("intent") === "reject";
  const [sent, setSent] = useState(false);
  useEffect(() => {
    if (submitting) setSent(true);
    else if (sent) {
      setSent(false);
      onClose();
    }
  }, [submitting, sent, onClose]);
  return (
    <Modal open={row !== null} title={row ? `Reject ${describe(row)}` : "Reject"} onClose={onClose}>
      {row ? (
        <Form method="post" className="space-y-3">
          <input type="hidden" name="transactionId" value={row.id} />
          <label htmlFor={reasonId} className="block text-sm font-medium">
            Reason
          </label>
          <textarea
            id={reasonId}
            name="reason"
            rows={3}
            maxLength={REASON_MAX_LENGTH}
            aria-describedby={`${reasonId}-hint`}
            className="block w-full rounded-md border border-border bg-canvas px-3 py-2 text-ink focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40"
          />
          <p id={`${reasonId}-hint`} className="text-xs text-ink-muted">
            Optional. The client reads it in the e-mail telling them of the decision.
          </p>
          <button type="submit" name="intent" value="reject" disabled={submitting} className="button-danger w-full">
            {submitting ? "Rejecting..." : "Reject"}
          </button>
        </Form>
      ) : null}
    </Modal>
  );
}

/** Where a withdrawal pays out: the currency and the address, in full, to check and copy. */
function PayoutAddress({ currency, address, isNew }: { currency: string | null; address: string; isNew: boolean }) {
  return (
    <div className="mt-1 flex flex-wrap items-center gap-2 text-xs text-ink-muted">
      <span>Pays out{currency ? ` in ${currency}` : ""} to</span>
      <code className="break-all font-mono text-ink" data-testid="payout-address">
        {address}
      </code>
      <CopyButton value={address} />
      {isNew ? <NewAddressBadge /> : null}
    </div>
  );
}

/** Never paid to before for this client: worth a second look before approving. */
export function NewAddressBadge() {
  return (
    <span
      className="rounded-full bg-pending/15 px-2 py-0.5 text-xs font-medium text-pending"
      title="This client was never paid to this address before"
    >
      New address
    </span>
  );
}
