import { formatQuotePrice, formatQuoteTime, QUOTE_LABELS, type QuoteView } from "~/lib/quotes";

/**
 * A stock's live price: the mid and the quote's time ("$190.00 · 10:00:05 UTC"), or the words saying there is none
 * ("Price unavailable", "Price out of date"). No live region: a change every 5 s would be read out every 5 s; the
 * time beside the price says how current it is. `bidAsk` adds both sides on a line of their own (the stock's page).
 */
export function LivePrice({ quote, bidAsk = false }: { quote: QuoteView | undefined; bidAsk?: boolean }) {
  if (quote?.state !== "live" || quote.mid === null || quote.at === null) {
    const state = quote?.state === "stale" ? "stale" : "unavailable";
    return (
      <span className="font-normal text-ink-muted" data-quote-state={state}>
        {QUOTE_LABELS[state]}
      </span>
    );
  }
  const price = (
    <span className="tabular-nums" data-quote-state="live">
      {formatQuotePrice(quote.mid)}{" "}
      <span className="text-sm font-normal text-ink-muted">
        · <time dateTime={new Date(quote.at).toISOString()}>{formatQuoteTime(quote.at)}</time>
      </span>
    </span>
  );
  if (!bidAsk || quote.bid === null || quote.ask === null) return price;
  return (
    <>
      {price}
      <span className="block text-sm font-normal tabular-nums text-ink-muted">
        Bid {formatQuotePrice(quote.bid)} · Ask {formatQuotePrice(quote.ask)}
      </span>
    </>
  );
}
