import { useEffect, useState } from "react";
import { MAX_QUOTE_SYMBOLS, QUOTE_POLL_MS, type QuoteView } from "~/lib/quotes";

const unavailable = (symbol: string): QuoteView => ({
  symbol,
  bid: null,
  ask: null,
  mid: null,
  at: null,
  state: "unavailable",
});

const bySymbol = (views: readonly QuoteView[]) => new Map(views.map((view) => [view.symbol, view]));

/**
 * The latest quotes of `symbols`, starting from the loader's (`initial`, right before hydration) and asked again of
 * `/quotes` every QUOTE_POLL_MS while the page is visible (a hidden tab asks nothing; coming back asks at once).
 * `initial` null means no live prices for this visitor (signed out, an admin): nothing is asked. A failed request
 * shows every price as unavailable until the next one; a 401 or 403 (the session ended) stops asking.
 */
export function useQuotes(symbols: readonly string[], initial: readonly QuoteView[] | null): Map<string, QuoteView> {
  const [quotes, setQuotes] = useState(() => bySymbol(initial ?? []));
  // New loader data (another stock's page, a revalidation) replaces what was polled before it.
  const [source, setSource] = useState(initial);
  if (source !== initial) {
    setSource(initial);
    setQuotes(bySymbol(initial ?? []));
  }
  const enabled = initial !== null;
  const key = symbols.join(",");

  useEffect(() => {
    if (!enabled || key === "") return;
    const wanted = key.split(",");
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let controller: AbortController | undefined;

    const ask = async () => {
      controller?.abort();
      controller = new AbortController();
      const { signal } = controller;
      const batches: string[][] = [];
      for (let i = 0; i < wanted.length; i += MAX_QUOTE_SYMBOLS) batches.push(wanted.slice(i, i + MAX_QUOTE_SYMBOLS));
      try {
        const answers = await Promise.all(
          batches.map(async (batch) => {
            const response = await fetch(`/quotes?symbols=${batch.map(encodeURIComponent).join(",")}`, {
              signal,
              headers: { Accept: "application/json" },
            });
            if (response.status === 401 || response.status === 403) stopped = true;
            if (!response.ok) throw new Error(`/quotes answered ${response.status}`);
            return ((await response.json()) as { quotes: QuoteView[] }).quotes;
          }),
        );
        // Merged: a symbol the filter hides keeps its last quote (and its time) until it is shown and asked again.
        setQuotes((before) => new Map([...before, ...bySymbol(answers.flat())]));
      } catch {
        if (signal.aborted) return;
        setQuotes((before) => new Map([...before, ...bySymbol(wanted.map(unavailable))]));
      }
    };

    const schedule = () => {
      clearTimeout(timer);
      if (stopped || document.visibilityState !== "visible") return;
      timer = setTimeout(async () => {
        await ask();
        schedule();
      }, QUOTE_POLL_MS);
    };

    const onVisibility = async () => {
      clearTimeout(timer);
      if (document.visibilityState !== "visible" || stopped) return;
      await ask();
      schedule();
    };

    schedule();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      stopped = true;
      clearTimeout(timer);
      controller?.abort();
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [enabled, key]);

  return quotes;
}
