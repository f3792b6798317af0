import { Moment } from "~/components/moment";
import { ASSET_NAMES, formatUnits } from "~/lib/chain/deposit-texts";
import { type IncomingPayment, incomingStatus } from "~/lib/chain/incoming";

/**
 * Payments to the client's own deposit addresses that are not in the ledger yet: seen and confirming, or dropped.
 * Nothing is shown when there are none. Updated live through the client's feed by the page that shows it.
 */
export function IncomingPayments({ payments }: { payments: IncomingPayment[] }) {
  if (payments.length === 0) return null;
  return (
    <article aria-labelledby="incoming-payments-title" className="rounded-xl border border-border bg-surface p-5">
      <h2 id="incoming-payments-title" className="text-lg font-semibold">
        Incoming payments
      </h2>
      <ul className="mt-3 divide-y divide-border">
        {payments.map((payment) => (
          <li
            key={payment.id}
            data-testid="incoming-payment"
            className="flex flex-wrap items-baseline justify-between gap-2 py-2"
          >
            <span className="font-medium">
              {formatUnits(payment.units, payment.asset)} {ASSET_NAMES[payment.asset]}
            </span>
            <span data-testid="incoming-status" className="text-sm">
              {incomingStatus(payment)}
            </span>
            <span className="w-full break-all font-mono text-xs text-ink-muted">
              <span className="sr-only">Transaction </span>
              {payment.txid} · <Moment at={payment.seenAt} />
            </span>
          </li>
        ))}
      </ul>
    </article>
  );
}
