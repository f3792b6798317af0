/**
 * Stock quotes as the pages show them (docs/decisions/0072): the texts, the shape `/quotes` answers and the
 * formats. Browser-safe: no server import. Prices travel in ten-thousandths of a dollar (E4), whole numbers.
 */

export type QuoteState = "live" | "stale" | "unavailable";

/** One symbol as `/quotes` answers it; prices and time only while `state` is "live". */
export interface QuoteView {
  symbol: string;
  /** Ten-thousandths of a dollar (190.02 is 1900200), or null when there is no live price. */
  bid: number | null;
  ask: number | null;
  /** (bid + ask) / 2: the price shown. */
  mid: number | null;
  /** The quote's time, ms since the epoch. */
  at: number | null;
  state: QuoteState;
}

/** What a client is told when there is no price to act on (an order refused, a price missing). */
export const QUOTE_TEXTS = {
  unavailable: "The price is unavailable right now. Try again in a moment.",
  stale: "The price is out of date right now. Try again in a moment.",
} as const;

/** The short label a price's place shows instead of a price. Words, never colour alone. */
export const QUOTE_LABELS = { stale: "Price out of date", unavailable: "Price unavailable" } as const;

/** How often an open page asks for new quotes, while it is visible. */
export const QUOTE_POLL_MS = 5_000;

/** The most symbols one `/quotes` request may ask for; a longer list goes in several requests. */
export const MAX_QUOTE_SYMBOLS = 60;

const usd4 = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});
const time = new Intl.DateTimeFormat("en-GB", {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

/** "$190.00"; a sub-cent price keeps its digits ("$0.1234"), since it is what an order fills at. */
export function formatQuotePrice(e4: number): string {
  return usd4.format(e4 / 10_000);
}

/** "10:00:05 UTC": a quote's time of day. There is no form without the zone (app/lib/format.ts). */
export function formatQuoteTime(at: number): string {
  return `${time.format(new Date(at))} UTC`;
}

/** Symbols from `?symbols=AAPL,MSFT`: upper case, trimmed, without repeats or blanks. */
export function parseSymbols(text: string | null): string[] {
  const symbols = (text ?? "").split(",").map((symbol) => symbol.trim().toUpperCase());
  return [...new Set(symbols.filter(Boolean))];
}

/** A request for more symbols than MAX_QUOTE_SYMBOLS. */
export const TOO_MANY_SYMBOLS = `Ask for at most ${MAX_QUOTE_SYMBOLS} symbols at a time.`;
