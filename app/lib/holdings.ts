/**
 * Holdings at market value (docs/product.md, "Orders and positions", "Portfolio"): a client's open positions of
 * each stock marked at the quote's mid price, with the unrealized result and the share of the account's value.
 * The account's value is the ledger balance (which still holds the open positions' cost) plus the unrealized
 * results. Browser-safe: the page re-marks the same rows when a newer price arrives.
 */
import { centsOf } from "./money/orders";
import type { QuoteView } from "./quotes";

/** One stock's open positions, summed: open shares and the cost they carry. */
export interface HoldingRow {
  symbol: string;
  sharesE4: number;
  costCents: number;
  positions: number;
}

/** The price a holding is marked at: the mid of a fresh quote, or none (its value is then unknown). */
export interface Mark {
  midE4: number;
  at: number;
}

export interface HoldingView extends HoldingRow {
  averagePriceE4: number;
  mark: Mark | null;
  valueCents: number | null;
  resultCents: number | null;
  /** Unrealized result over cost, in percent with two decimals. */
  resultPercent: number | null;
  /** Value over the account's value, in percent with one decimal. */
  sharePercent: number | null;
}

/** The price paid per share on average, in ten-thousandths of a dollar, rounded half up. */
export function averagePriceE4(costCents: number, sharesE4: number): number {
  if (sharesE4 <= 0) return 0;
  return Number((BigInt(costCents) * 2_000_000n + BigInt(sharesE4)) / (2n * BigInt(sharesE4)));
}

const percent = (part: number, whole: number, decimals: number) =>
  whole === 0 ? null : Math.round((part / whole) * 100 * 10 ** decimals) / 10 ** decimals;

/** A position (or a holding) marked at `mark`: its value and unrealized result. */
export function marked(sharesE4: number, costCents: number, mark: Mark | null) {
  if (!mark) return { valueCents: null, resultCents: null };
  const valueCents = centsOf(sharesE4, mark.midE4);
  return { valueCents, resultCents: valueCents - costCents };
}

/**
 * The holdings marked at `marks` (by symbol), the account's value and the unrealized result. `complete` is false
 * when a holding has no price: the account's value then counts that holding at its cost.
 */
export function holdingViews(rows: HoldingRow[], marks: Record<string, Mark | null>, balanceCents: number) {
  const priced = rows.map((row) => ({ row, mark: marks[row.symbol] ?? null }));
  const unrealizedCents = priced.reduce(
    (sum, { row, mark }) => sum + (marked(row.sharesE4, row.costCents, mark).resultCents ?? 0),
    0,
  );
  const accountValueCents = balanceCents + unrealizedCents;
  const holdings = priced.map(({ row, mark }): HoldingView => {
    const { valueCents, resultCents } = marked(row.sharesE4, row.costCents, mark);
    return {
      ...row,
      averagePriceE4: averagePriceE4(row.costCents, row.sharesE4),
      mark,
      valueCents,
      resultCents,
      resultPercent: resultCents === null ? null : percent(resultCents, row.costCents, 2),
      sharePercent: valueCents === null || accountValueCents <= 0 ? null : percent(valueCents, accountValueCents, 1),
    };
  });
  return { holdings, accountValueCents, unrealizedCents, complete: priced.every(({ mark }) => mark !== null) };
}

/** The marks of live quotes as the pages poll them (`useQuotes`): a quote that is not live marks nothing. */
export function marksOf(quotes: ReadonlyMap<string, QuoteView>): Record<string, Mark | null> {
  return Object.fromEntries(
    [...quotes].map(([symbol, q]) => [
      symbol,
      q.state === "live" && q.mid !== null && q.at !== null ? { midE4: q.mid, at: q.at } : null,
    ]),
  );
}
