/** A payment to a client's own deposit address not yet in the ledger, as their pages show it. */
import type { ChainAsset } from "../../../db/enums";
import { CHAIN_DEPOSIT_TEXTS, SET_ASIDE_REASONS } from "./deposit-texts";

export interface IncomingPayment {
  id: number;
  asset: ChainAsset;
  units: string;
  txid: string;
  status: "seen" | "dropped";
  confirmations: number;
  /** The confirmations its chain needs before it is credited. */
  needed: number;
  /** Why a confirmed payment is not credited yet (no current rate), or null. */
  waiting: string | null;
  seenAt: number;
}

/** Where a payment stands, in words (never by colour alone). */
export function incomingStatus(payment: IncomingPayment): string {
  if (payment.status === "dropped") return CHAIN_DEPOSIT_TEXTS.dropped;
  if (payment.confirmations >= payment.needed && payment.waiting) {
    // Set aside for good (dust, an amount beyond the ledger's) says so; anything else is a wait for a fresh rate.
    return SET_ASIDE_REASONS.includes(payment.waiting) ? payment.waiting : CHAIN_DEPOSIT_TEXTS.waitingForRate;
  }
  return CHAIN_DEPOSIT_TEXTS.seen(payment.confirmations, payment.needed);
}
