import { feeText, type PayoutView, payoutProgress } from "~/lib/chain/payouts";

/** A transaction id short enough for a row, its ends kept: "3f2a9c…81d0e4". */
const shortTxid = (txid: string) => `${txid.slice(0, txid.startsWith("0x") ? 8 : 6)}…${txid.slice(-6)}`;

/**
 * An accepted payout under its withdrawal, as exchanges show one: the transaction hash linking to a block explorer,
 * its network fee and its confirmations ('Confirmed' once it has them all). The client's rows and the desk's share it.
 */
export function PayoutLine({ payout }: { payout: PayoutView }) {
  const fee = feeText(payout);
  return (
    <p className="mt-1 text-xs text-ink-muted" data-testid="payout-line">
      {"Paid on chain: "}
      <a
        href={payout.explorerUrl}
        target="_blank"
        rel="noopener noreferrer"
        className="font-mono text-brand hover:underline"
        title={payout.txid}
        aria-label={`Transaction ${payout.txid} (opens a block explorer)`}
      >
        {shortTxid(payout.txid)}
      </a>
      {fee ? ` · ${fee}` : null}
      {` · ${payoutProgress(payout)}`}
    </p>
  );
}
