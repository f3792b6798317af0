/**
 * A withdrawal paid on chain (docs/product.md, "Payouts on chain"): which withdrawal currencies are checked, the
 * form of a transaction id, and the words the desk and the client read. Browser-safe.
 */
import type { ChainAsset, ChainPayoutStatus } from "../../../db/enums";
import { formatCents } from "../format";
import { PAYOUT_MATCH } from "../money/constraints";
import { ASSET_NAMES, formatUnits } from "./deposit-texts";

/** The withdrawal currencies whose payouts the watcher checks, and the asset each is paid in. */
const PAYOUT_ASSETS: Readonly<Record<string, ChainAsset>> = { BTC: "BTC", ETH: "ETH", "USDT (ERC)": "USDT_ERC20" };

export const payoutAssetOf = (currency: string | null | undefined): ChainAsset | null =>
  (currency && PAYOUT_ASSETS[currency]) || null;

/** The coin a transaction's network fee is paid in: a USDT transfer pays its fee in Ether. */
export const FEE_ASSET: Record<ChainAsset, ChainAsset> = { BTC: "BTC", ETH: "ETH", USDT_ERC20: "ETH" };

/** A transaction id as stored (lower case), or null when it is not one of the asset's chain. */
export function payoutTxid(asset: ChainAsset, text: string): string | null {
  const id = text.trim().toLowerCase();
  return (asset === "BTC" ? /^[0-9a-f]{64}$/ : /^0x[0-9a-f]{64}$/).test(id) ? id : null;
}

/** Whether a value paid (cents) is close enough to the withdrawal's amount (cents) to be its payout. */
export const payoutAmountMatches = (paidCents: number, amountCents: number) =>
  Math.abs(paidCents - amountCents) * 100 <= amountCents * PAYOUT_MATCH.tolerancePercent;

export const PAYOUT_TEXTS = {
  recordButton: "Record payout",
  recordTitle: (amount: string) => `Record the payout of ${amount}`,
  txidLabel: "Transaction id",
  txidHint: (asset: ChainAsset) =>
    `The ${ASSET_NAMES[asset]} transaction that paid this withdrawal. Within a minute it is checked on chain: it must ` +
    `pay the withdrawal's address its amount (within ${PAYOUT_MATCH.tolerancePercent}% at the current rate).`,
  badTxid: (asset: ChainAsset) =>
    asset === "BTC"
      ? "Enter the transaction id: 64 hexadecimal characters"
      : "Enter the transaction hash: 0x followed by 64 hexadecimal characters",
  notChecked: (currency: string) => `Payouts in ${currency} are not checked on chain`,
  notApproved: "Only an approved withdrawal has a payout to record",
  alreadyRecorded: "This withdrawal's payout is already accepted on chain",
  recorded: "Payout recorded: it is checked on chain within a minute",
  // What the watcher found (kept on the payout, shown to the desk).
  notFoundYet: "Not found on chain yet",
  notFound: `Not found on chain ${PAYOUT_MATCH.notFoundAfterMs / 3_600_000} hours after it was recorded`,
  leftChain: "The transaction left the chain",
  reverted: "The transaction failed on chain",
  otherAddress: (address: string) => `The transaction does not pay the withdrawal's address ${address}`,
  outputTaken: "That payment is already recorded as another withdrawal's payout",
  otherAmount: (paid: string, usdCents: number, amountCents: number) =>
    `The transaction pays ${paid} (${formatCents(usdCents)} at the current rate), not ${formatCents(amountCents)}`,
  noRate: (asset: ChainAsset) => `Waiting for a current ${ASSET_NAMES[asset]} rate to check the amount`,
  replaced: "Replaced by a later record before the check accepted it",
  clientDeleted: "The client's data was deleted",
} as const;

/** A payout as the client and the desk see it on the withdrawal's row. */
export interface PayoutView {
  asset: ChainAsset;
  txid: string;
  status: ChainPayoutStatus;
  problem: string | null;
  amountUnits: string | null;
  feeUnits: string | null;
  confirmations: number;
  needed: number;
  /** In a block now: a client is shown only a mined payout. */
  mined: boolean;
  /** The block explorer's page of the transaction. */
  explorerUrl: string;
}

/** "0.0005 BTC", "1.25 USDT (ERC-20)". */
export const unitsText = (units: string, asset: ChainAsset) => `${formatUnits(units, asset)} ${ASSET_NAMES[asset]}`;

/** Where an accepted payout stands, in words: its confirmations, then Confirmed once it has them all. */
export function payoutProgress(payout: PayoutView): string {
  if (payout.status === "confirmed" || payout.confirmations >= payout.needed) return "Confirmed";
  return `${Math.min(payout.confirmations, payout.needed)} of ${payout.needed} confirmations`;
}

export const feeText = (payout: PayoutView) =>
  payout.feeUnits === null ? null : `Network fee ${unitsText(payout.feeUnits, FEE_ASSET[payout.asset])}`;
