/** What the client reads about a payment seen on chain (docs/product.md, "Deposits on chain"). */
import type { ChainAsset } from "../../../db/enums";

export const ASSET_NAMES: Record<ChainAsset, string> = { BTC: "BTC", ETH: "ETH", USDT_ERC20: "USDT (ERC-20)" };
/** Decimals of each asset's smallest unit: satoshi, wei, USDT's millionth. */
export const ASSET_DECIMALS: Record<ChainAsset, number> = { BTC: 8, ETH: 18, USDT_ERC20: 6 };

export const CHAIN_DEPOSIT_TEXTS = {
  /** `assets`: what the address takes, by ASSET_NAMES (two where Ether and USDT share an Ethereum key). */
  ownAddressTitle: (assets: readonly string[]) => `Your ${assets.join(" and ")} deposit address`,
  ownAddressNote: (assets: readonly string[], confirmations: number) =>
    (assets.length > 1
      ? `This address is yours alone and takes both ${assets.join(" and ")}. Send either to it from any wallet: `
      : `This address is yours alone. Send ${assets.join(" and ")} to it from any wallet: `) +
    "we see the payment within a minute and credit it at the US dollar rate once it has " +
    `${confirmations} confirmation${confirmations === 1 ? "" : "s"}. No request is needed.` +
    // Ether a contract sends on is in no transaction the watcher reads (docs/decisions/0067).
    (assets.includes("ETH") ? " Ether sent by a smart contract is not seen: send it from a wallet you hold." : ""),
  noClaimForWatched: (walletType: string) =>
    `${walletType} deposits are seen on chain: send them to your own address shown on this page, no request is needed`,
  seen: (confirmations: number, needed: number) =>
    `Seen, ${Math.min(confirmations, needed)} of ${needed} confirmations`,
  dropped: "Not credited: the payment left the chain before its confirmations",
  held: "Received, awaiting review",
  credited: "Credited",
  waitingForRate: "Confirmed, waiting for a current USD rate",
} as const;

/** An amount in the asset's smallest unit (decimal text) as the asset's whole units, without trailing zeros. */
export function formatUnits(units: string, asset: ChainAsset): string {
  const decimals = ASSET_DECIMALS[asset];
  const padded = units.replace(/^0+/, "").padStart(decimals + 1, "0");
  const whole = padded.slice(0, -decimals);
  const fraction = padded.slice(-decimals).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

/** A rate older than this is never used: the credit waits, and says why. */
export const RATE_MAX_AGE_MS = 5 * 60_000;

/**
 * A payment seen in the mempool and not in a block this long after is dropped (shown as `dropped`): a transaction
 * that pays too little fee can wait for weeks, and the client must not read "Seen" for ever. Nodes evict such
 * transactions after 336 hours by default; 72 hours is three days of blocks without it. Mined later, it is seen again.
 */
export const UNMINED_PAYMENT_MAX_AGE_MS = 72 * 60 * 60_000;

/** Why a payment with its confirmations is not credited yet (kept on the payment, shown to its client and the desk). */
export const CHAIN_WAITING = {
  noRate: (asset: ChainAsset) =>
    `No ${ASSET_NAMES[asset]} rate newer than ${RATE_MAX_AGE_MS / 60_000} minutes: the credit waits for one`,
  dust: "Worth less than one cent at the current rate: not credited",
  tooLarge: "Larger than any deposit the ledger takes: for the desk to look at",
  failed: "Could not be credited: tried again at the next run",
} as const;

/** The reasons a payment is set aside for good rather than tried again at every run; the client reads them as such. */
export const SET_ASIDE_REASONS: readonly string[] = [CHAIN_WAITING.dust, CHAIN_WAITING.tooLarge];

/**
 * Kept in `waiting` of a credited or held payment whose block left the chain afterwards: the watcher never takes
 * money back, so the desk must look (docs/decisions/0067).
 */
export const REORGANISED_OUT = "Its block left the chain after it reached the ledger: check the transaction on chain";
