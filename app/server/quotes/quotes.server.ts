/**
 * Stock prices from one provider (docs/decisions/0072): the latest bid and ask of watchlist symbols, in whole
 * ten-thousandths of a dollar, with the mid the portal shows. A quote that is old, crossed or zero is never a price
 * to trade on, and an outage is an answer like any other: these functions never throw.
 */
import { findStock } from "~/lib/stocks";
import type { WorkerBindings } from "../env.server";
import { fetchLatestQuotes, type ProviderQuote } from "./alpaca.server";
import { quoteSettings } from "./settings.server";

export interface Quote {
  symbol: string;
  /** Prices in ten-thousandths of a dollar (190.02 is 1900200). */
  bidE4: number;
  askE4: number;
  /** (bid + ask) / 2, rounded: the displayed price. */
  midE4: number;
  /** The quote's time, ms since the epoch. */
  at: number;
}

export type QuoteRead = { ok: true; quote: Quote } | { ok: false; reason: "stale" | "unavailable" };

/** A quote stamped further ahead than this is a clock or a feed gone wrong, not a fresher price. */
const FUTURE_TOLERANCE_MS = 5_000;

const UNAVAILABLE: QuoteRead = { ok: false, reason: "unavailable" };

function judge(symbol: string, quote: ProviderQuote | undefined, now: number, maxAgeMs: number): QuoteRead {
  // No quote, a side at zero (no bid or no offer) or a crossed book: nothing a market order could fill at.
  if (!quote || quote.bidE4 <= 0 || quote.askE4 <= 0 || quote.bidE4 > quote.askE4) return UNAVAILABLE;
  if (quote.at > now + FUTURE_TOLERANCE_MS) return UNAVAILABLE;
  if (now - quote.at > maxAgeMs) return { ok: false, reason: "stale" };
  const midE4 = Math.round((quote.bidE4 + quote.askE4) / 2);
  return { ok: true, quote: { symbol, bidE4: quote.bidE4, askE4: quote.askE4, midE4, at: quote.at } };
}

/**
 * The latest quotes of these symbols (only symbols of the watchlist, app/lib/stocks.ts); a quote older than
 * QUOTE_MAX_AGE_SECONDS at `now`, or a crossed/zero one, is "stale"/"unavailable", never a price to trade on. One
 * HTTP call for all symbols; an outage or a bad answer gives "unavailable" for each. Keys are the symbols as the
 * watchlist writes them (upper case); a symbol the watchlist does not have is "unavailable" and never asked for.
 */
export async function readQuotes(
  bindings: WorkerBindings,
  symbols: readonly string[],
  now = Date.now(),
): Promise<Map<string, QuoteRead>> {
  const reads = new Map<string, QuoteRead>();
  const known: string[] = [];
  for (const asked of symbols) {
    const symbol = asked.trim().toUpperCase();
    if (reads.has(symbol)) continue;
    reads.set(symbol, UNAVAILABLE);
    if (findStock(symbol)) known.push(symbol);
  }
  if (known.length === 0) return reads;
  let settings: ReturnType<typeof quoteSettings>;
  try {
    settings = quoteSettings(bindings);
  } catch (error) {
    console.error(`quotes: ${(error as Error).message}`);
    return reads;
  }
  const { url, keyId, secretKey, maxAgeMs } = settings;
  if (!url) return reads;
  try {
    const found = await fetchLatestQuotes({ url, keyId, secretKey }, known);
    for (const symbol of known) reads.set(symbol, judge(symbol, found.get(symbol), now, maxAgeMs));
  } catch (error) {
    console.warn(`quotes: ${(error as Error).message}; every price unavailable`);
  }
  return reads;
}

/** One symbol's latest quote: readQuotes for one. */
export async function readQuote(bindings: WorkerBindings, symbol: string, now = Date.now()): Promise<QuoteRead> {
  const reads = await readQuotes(bindings, [symbol], now);
  return reads.get(symbol.trim().toUpperCase()) ?? UNAVAILABLE;
}
