/**
 * The prices holdings are marked at: the mid of each stock's fresh quote, one provider call for every stock a
 * page shows. A stock without a fresh quote has no mark: its value and result read 'Price unavailable', never a
 * guess.
 */
import type { Mark } from "~/lib/holdings";
import type { WorkerBindings } from "../env.server";
import { readQuotes } from "../quotes/quotes.server";

export async function marksOf(
  bindings: WorkerBindings,
  symbols: readonly string[],
  now = Date.now(),
): Promise<Record<string, Mark | null>> {
  const unique = [...new Set(symbols)];
  if (unique.length === 0) return {};
  const reads = await readQuotes(bindings, unique, now);
  return Object.fromEntries(
    unique.map((symbol) => {
      const read = reads.get(symbol);
      return [symbol, read?.ok ? { midE4: read.quote.midE4, at: read.quote.at } : null];
    }),
  );
}
