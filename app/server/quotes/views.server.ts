/** Quotes as the pages show them (app/lib/quotes.ts's QuoteView): for `/quotes` and the loaders' first values. */
import type { QuoteView } from "~/lib/quotes";
import type { WorkerBindings } from "../env.server";
import { type QuoteRead, readQuotes } from "./quotes.server";

export function quoteView(symbol: string, read: QuoteRead | undefined): QuoteView {
  if (!read?.ok) return { symbol, bid: null, ask: null, mid: null, at: null, state: read?.reason ?? "unavailable" };
  const { bidE4, askE4, midE4, at } = read.quote;
  return { symbol, bid: bidE4, ask: askE4, mid: midE4, at, state: "live" };
}

/** The views of these symbols, in their order; an empty list asks nothing. */
export async function quoteViews(bindings: WorkerBindings, symbols: readonly string[]): Promise<QuoteView[]> {
  if (symbols.length === 0) return [];
  const reads = await readQuotes(bindings, symbols);
  return symbols.map((symbol) => quoteView(symbol, reads.get(symbol)));
}
