/**
 * USD prices of the watched assets from a CoinGecko-style API (`/api/v3/simple/price`; locally the chain
 * simulator's), read when a payment is credited. A price older than RATE_MAX_AGE_MS is not a price: the credit
 * waits. One read per watcher run, whatever the number of payments.
 */
import type { ChainAsset } from "../../../db/enums";
import { ChainApiError } from "./esplora.server";

const MAX_USD_PER_COIN = 1_000_000_000;
const FUTURE_TOLERANCE_MS = 60_000;

const IDS: Record<ChainAsset, string> = { BTC: "bitcoin", ETH: "ethereum", USDT_ERC20: "tether" };

export interface UsdRate {
  /** USD per whole coin, as the API wrote it. */
  usd: string;
  /** When the source last updated it (ms). */
  at: number;
  source: string;
}

export async function readUsdRates(ratesUrl: string): Promise<Partial<Record<ChainAsset, UsdRate>>> {
  const path = `/api/v3/simple/price?ids=${Object.values(IDS).join(",")}&vs_currencies=usd&include_last_updated_at=true`;
  const response = await fetch(`${ratesUrl}${path}`, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) {
    await response.body?.cancel();
    throw new ChainApiError(`Rates: HTTP ${response.status}`);
  }
  const prices = (await response.json()) as Record<string, { usd?: unknown; last_updated_at?: unknown }>;
  const source = new URL(ratesUrl).host;
  const rates: Partial<Record<ChainAsset, UsdRate>> = {};
  for (const [asset, id] of Object.entries(IDS) as Array<[ChainAsset, string]>) {
    const price = prices[id];
    // A price outside any real one (no coin is worth a billion dollars) or stamped in the future is no price.
    if (
      typeof price?.usd === "number" &&
      price.usd > 0 &&
      price.usd < MAX_USD_PER_COIN &&
      typeof price.last_updated_at === "number" &&
      price.last_updated_at * 1000 <= Date.now() + FUTURE_TOLERANCE_MS
    ) {
      // Fixed-point text, never an exponent: the credit multiplies by it exactly.
      const usd = price.usd.toFixed(8).replace(/\.?0+$/, "");
      rates[asset] = { usd, at: price.last_updated_at * 1000, source };
    }
  }
  return rates;
}

/**
 * Whole cents of an amount in smallest units at a USD rate, rounded down (the client is never credited more), or
 * null past the largest amount the ledger takes.
 */
export function usdCents(units: bigint, decimals: number, usd: string, maxCents: number): number | null {
  const [whole = "0", fraction = ""] = usd.split(".");
  const rateScale = fraction.length;
  const rate = BigInt(whole + fraction);
  const cents = (units * rate * 100n) / 10n ** BigInt(decimals + rateScale);
  return cents > BigInt(maxCents) ? null : Number(cents);
}
