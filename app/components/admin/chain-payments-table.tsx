import { Link } from "react-router";
import { Moment } from "~/components/moment";
import { LIST_ROWS, StackedTable } from "~/components/stacked-table";
import { ASSET_NAMES } from "~/lib/chain/deposit-texts";
import { transactionReference } from "~/lib/reference";
import type { DeskChainPayment } from "~/server/chain/desk-payments.server";

/** How the desk reads a payment's status (the client reads their own words, app/lib/chain/incoming.ts). */
const STATUS_WORDS: Record<DeskChainPayment["status"], string> = {
  seen: "Not credited",
  credited: "Credited",
  held: "Held for review",
  dropped: "Dropped",
};

/**
 * One section's payments: the client (to their page), the amount in coins, the transaction and output in full (for
 * an explorer), the confirmations, the status (with the ledger row, where there is one), the reason, and since when.
 */
export function ChainPaymentsTable({
  caption,
  payments,
  sinceLabel,
  testId,
}: {
  caption: string;
  testId: string;
  payments: DeskChainPayment[];
  sinceLabel: string;
}) {
  return (
    <StackedTable
      columns={["Client", "Amount", "Transaction", "Confirmations", "Status", "Reason", sinceLabel]}
      caption={caption}
      className="w-full text-left text-sm sm:min-w-[64rem]"
      bodyClassName={LIST_ROWS}
      testId={testId}
    >
      {payments.map((payment) => (
        <tr key={payment.id} data-payment={payment.id}>
          <td>
            <Link to={`/user/${payment.userId}`} className="font-medium text-brand hover:underline">
              {payment.client}
            </Link>
          </td>
          <td className="whitespace-nowrap">
            {payment.amount} {ASSET_NAMES[payment.asset]}
          </td>
          <td>
            <span className="break-all font-mono text-xs">
              {payment.txid}:{payment.outputIndex}
            </span>{" "}
            <span className="block break-all font-mono text-xs text-ink-muted">to {payment.address}</span>
          </td>
          <td>{payment.confirmations}</td>
          <td>
            {STATUS_WORDS[payment.status]}{" "}
            {payment.transactionId ? (
              <span className="block font-mono text-xs text-ink-muted">
                {transactionReference(payment.transactionId)}
              </span>
            ) : null}
          </td>
          <td>{payment.reason}</td>
          <td className="whitespace-nowrap">
            <Moment at={payment.since} />
          </td>
        </tr>
      ))}
    </StackedTable>
  );
}
