/**
 * What the watcher makes of a recorded payout's transaction (docs/product.md, "Payouts on chain"): the same rule for
 * every asset, over what its chain's API says of the transaction (`Found`). Writes nothing: payout-check.server.ts
 * reads the chains and writes the finding.
 */
import { ASSET_DECIMALS, RATE_MAX_AGE_MS } from "~/lib/chain/deposit-texts";
import { PAYOUT_TEXTS, payoutAmountMatches, unitsText } from "~/lib/chain/payouts";
import { MAX_AMOUNT_CENTS } from "~/lib/ledger";
import { PAYOUT_MATCH } from "~/lib/money/constraints";
import type { ChainAsset, ChainPayoutStatus } from "../../../db/enums";
import { type UsdRate, usdCents } from "./rates.server";

export interface OpenPayout {
  id: number;
  userId: string;
  asset: ChainAsset;
  txid: string;
  status: ChainPayoutStatus;
  recordedAt: number;
  missingSince: number | null;
  amountCents: number;
  address: string;
}

/** What a chain says of a transaction, the same for every asset. */
export interface Found {
  outputs: Array<{ index: number; address: string; units: bigint }>;
  feeUnits: bigint | null;
  height: number | null;
  reverted: boolean;
}

export type Finding =
  | { kind: "wait"; problem: string }
  | { kind: "missing" }
  | { kind: "refuse"; problem: string }
  | { kind: "accept"; output: Found["outputs"][number]; paidCents: number; rate: UsdRate; found: Found }
  | { kind: "progress"; found: Found };

export interface Judging {
  /** The USD rates of this run (read once, and only when a payout's amount is judged). */
  rates: () => Promise<Partial<Record<ChainAsset, UsdRate>>>;
  /** The outputs of this transaction already accepted as other withdrawals' payouts. */
  taken: () => Promise<number[]>;
}

/** A transaction not found: an accepted payout waits, then is refused once missing too long; so is one never found. */
function notFound(payout: OpenPayout, now: number): Finding {
  const { notFoundAfterMs } = PAYOUT_MATCH;
  if (payout.status === "recorded") {
    if (now - payout.recordedAt > notFoundAfterMs) return { kind: "refuse", problem: PAYOUT_TEXTS.notFound };
    return { kind: "wait", problem: PAYOUT_TEXTS.notFoundYet };
  }
  // Accepted once: one read where the API does not know it (a lagging provider, a reorganisation) is not a refusal.
  if (payout.missingSince !== null && now - payout.missingSince > notFoundAfterMs)
    return { kind: "refuse", problem: PAYOUT_TEXTS.leftChain };
  return { kind: "missing" };
}

export async function judge(payout: OpenPayout, found: Found | null, judging: Judging, now: number): Promise<Finding> {
  if (!found) return notFound(payout, now);
  if (found.reverted) return { kind: "refuse", problem: PAYOUT_TEXTS.reverted };
  // Accepted once, the same payment stays accepted: it is not judged again at a later price.
  if (payout.status !== "recorded") return { kind: "progress", found };
  // A token transfer is known only from its receipt: not before its block.
  if (payout.asset === "USDT_ERC20" && found.height === null)
    return { kind: "wait", problem: PAYOUT_TEXTS.notFoundYet };
  const toAddress = found.outputs.filter((output) => output.address === payout.address.toLowerCase());
  if (toAddress.length === 0) return { kind: "refuse", problem: PAYOUT_TEXTS.otherAddress(payout.address) };
  // One output proves one withdrawal: a batch transaction's other outputs to the same address may prove others.
  const taken = new Set(await judging.taken());
  const free = toAddress.filter((output) => !taken.has(output.index));
  if (free.length === 0) return { kind: "refuse", problem: PAYOUT_TEXTS.outputTaken };
  const rate = (await judging.rates())[payout.asset];
  if (!rate || now - rate.at > RATE_MAX_AGE_MS) return { kind: "wait", problem: PAYOUT_TEXTS.noRate(payout.asset) };
  const valued = free.map((output) => ({
    output,
    paidCents: usdCents(output.units, ASSET_DECIMALS[payout.asset], rate.usd, MAX_AMOUNT_CENTS) ?? MAX_AMOUNT_CENTS + 1,
  }));
  // Of several outputs to the address, the one closest to the amount.
  valued.sort((a, b) => Math.abs(a.paidCents - payout.amountCents) - Math.abs(b.paidCents - payout.amountCents));
  const best = valued[0];
  if (!best) return { kind: "refuse", problem: PAYOUT_TEXTS.outputTaken };
  if (!payoutAmountMatches(best.paidCents, payout.amountCents)) {
    const paid = unitsText(best.output.units.toString(), payout.asset);
    return { kind: "refuse", problem: PAYOUT_TEXTS.otherAmount(paid, best.paidCents, payout.amountCents) };
  }
  return { kind: "accept", output: best.output, paidCents: best.paidCents, rate, found };
}
