/** What the client reads about a payment seen on chain (docs/product.md, "Deposits on chain"). */
import type { ChainAsset } from "../../../db/enums";

export const ASSET_NAMES: Record<ChainAsset, string> = { BTC: "BTC", ETH: "ETH", USDT_ERC20: "USDT (ERC-20)" };
/** Decimals of each asset's smallest unit: satoshi, wei, USDT's millionth. */
export const ASSET_DECIMALS: Record<ChainAsset, number> = { BTC: 8, ETH: 18, USDT_ERC20: 6 };

export const CHAIN_DEPOSIT_TEXTS = {
  ownAddressTitle: (walletType: string) => `Your ${walletType} deposit address`,
  ownAddressNote: (walletType: string, confirmations: number) =>
    `This address is yours alone. Send ${walletType} to it from any wallet: we see the payment within a minute and ` +
    `credit it at the US dollar rate once it has ${confirmations} confirmation${confirmations === 1 ? "" : "s"}. ` +
    "No request is needed.",
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
