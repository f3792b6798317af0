import { Form } from "@remix-run/react";
import { ColumnHeads, NewestOlderLinks } from "~/components/admin/table";
import { CopyButton } from "~/components/copy-button";
import { StepUpDialog } from "~/components/step-up";
import { formatCents, formatDateTime } from "~/lib/format";
import type { FeedTransaction } from "~/lib/realtime";
import { TYPE_LABELS } from "~/lib/schemas/admin";
import { type AdminReply, refusalFor } from "./reply";

/**
 * What the table shows of a transaction (a row read with the page, or one pushed by the live feed, which
 * carries no payout details until the page reloads its rows).
 */
type TransactionRow = Omit<FeedTransaction, "userId"> & {
  withdrawalWalletAddress?: string | null;
  payoutCurrency?: string | null;
};

/** The two decisions on a pending row, in the order their buttons stand. */
const DECISIONS = [
  {
    intent: "approve",
    label: "Approve",
    className: "rounded-md bg-success/20 px-3 py-1 font-medium text-success hover:bg-success/30",
  },
  {
    intent: "reject",
    label: "Reject",
    className: "rounded-md bg-danger/20 px-3 py-1 font-medium text-danger hover:bg-danger/30",
  },
] as const;

/**
 * The client page's Transactions table, 25 rows a page, newest first: Approve and Reject on pending rows,
 * rejected rows greyed out, links to older rows and back to the newest. Approving a withdrawal may need a
 * second-factor code: when the reply asks for one, a dialog repeats that approval with the code field.
 */
export function TransactionsTable({
  rows,
  next,
  reply,
}: {
  rows: TransactionRow[];
  next: string | null;
  reply?: AdminReply;
}) {
  const awaitingCode = rows.find((tx) => reply?.intent === "approve" && String(tx.id) === reply.subject);
  return (
    <article className="rounded-xl border border-border bg-surface p-5">
      <h2 className="text-lg font-semibold">Transactions</h2>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full min-w-[44rem] text-left text-sm">
          <ColumnHeads columns={["Type", "Amount", "Trading Pair/Stock", "Date", "Status", "Actions"]} />
          <tbody className="divide-y divide-border">
            {rows.map((tx) => (
              <tr key={tx.id} data-status={tx.status} className={tx.status === "rejected" ? "opacity-50" : undefined}>
                <td className="py-2 pr-4">
                  {TYPE_LABELS[tx.transactionType]}
                  {tx.transactionType === "withdraw" && tx.withdrawalWalletAddress ? (
                    <PayoutAddress currency={tx.payoutCurrency ?? null} address={tx.withdrawalWalletAddress} />
                  ) : null}
                </td>
                <td className="py-2 pr-4 tabular-nums">{formatCents(tx.amountCents)}</td>
                <td className="py-2 pr-4">{tx.tradingPair ?? tx.stock ?? "—"}</td>
                <td className="py-2 pr-4">{formatDateTime(tx.createdAt)}</td>
                <td className="py-2 pr-4 capitalize">{tx.status}</td>
                <td className="py-2">
                  {tx.status === "pending" ? (
                    <Form method="post" className="flex gap-2">
                      <input type="hidden" name="transactionId" value={tx.id} />
                      {DECISIONS.map(({ intent, label, className }) => (
                        <button
                          key={intent}
                          type="submit"
                          name="intent"
                          value={intent}
                          aria-label={`${label} ${TYPE_LABELS[tx.transactionType]} of ${formatCents(tx.amountCents)}`}
                          className={className}
                        >
                          {label}
                        </button>
                      ))}
                    </Form>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length === 0 ? <p className="py-4 text-sm text-ink-muted">No transactions found</p> : null}
      </div>
      <NewestOlderLinks next={next} olderLabel="Older transactions" />
      {awaitingCode ? (
        <StepUpDialog
          reply={refusalFor(reply, "approve")}
          stamp={reply?.at}
          title={`Approve ${TYPE_LABELS[awaitingCode.transactionType]} of ${formatCents(awaitingCode.amountCents)}`}
          intent="approve"
          fields={{ transactionId: String(awaitingCode.id) }}
          submitLabel="Approve"
          pendingText="Approving..."
        />
      ) : null}
    </article>
  );
}

/** Where a withdrawal pays out: the currency and the address, in full, to check and copy. */
function PayoutAddress({ currency, address }: { currency: string | null; address: string }) {
  return (
    <div className="mt-1 flex flex-wrap items-center gap-2 text-xs text-ink-muted">
      <span>Pays out{currency ? ` in ${currency}` : ""} to</span>
      <code className="break-all font-mono text-ink" data-testid="payout-address">
        {address}
      </code>
      <CopyButton value={address} />
    </div>
  );
}
