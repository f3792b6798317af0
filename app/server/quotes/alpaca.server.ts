/**
 * Alpaca's Market Data API v2, "latest quotes": the only module that knows its path, headers and answer.
 * `GET /v2/stocks/quotes/latest?symbols=AAPL,TSLA` with APCA-API-KEY-ID and APCA-API-SECRET-KEY answers
 * `{"quotes":{"AAPL":{"ap":190.02,"as":1,"ax":"V","bp":189.98,"bs":2,"bx":"V","c":["R"],"t":"…Z","z":"C"}}}`; a
 * symbol it has no quote for is left out. Prices become whole ten-thousandths of a dollar here, once.
 */

// A page waits for it before it renders (the loaders' first values), and an order must not hang: short.
const TIMEOUT_MS = 3_000;
/** No share trades at a million dollars: a larger figure is a broken answer, not a price. */
const MAX_PRICE_E4 = 1_000_000 * 10_000;

export interface ProviderQuote {
  bidE4: number;
  askE4: number;
  /** The quote's time, ms since the epoch. */
  at: number;
}

export class QuotesApiError extends Error {}

/** Dollars as the provider writes them (at most 4 decimals for a stock) to whole ten-thousandths, or null. */
export function toE4(price: unknown): number | null {
  if (typeof price !== "number" || !Number.isFinite(price) || price < 0) return null;
  const e4 = Math.round(price * 10_000);
  return e4 <= MAX_PRICE_E4 ? e4 : null;
}

/**
 * An RFC 3339 time with up to nine decimals of a second (Alpaca's are nanoseconds, which Date.parse may refuse):
 * cut to milliseconds first. Null for anything else.
 */
export function quoteTime(text: unknown): number | null {
  if (typeof text !== "string") return null;
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (!match) return null;
  const millis = (match[2] ?? "").slice(0, 3).padEnd(3, "0");
  const at = Date.parse(`${match[1]}.${millis}${match[3]}`);
  return Number.isNaN(at) ? null : at;
}

function providerQuote(raw: unknown): ProviderQuote | null {
  if (typeof raw !== "object" || raw === null) return null;
  const fields = raw as Record<string, unknown>;
  const bidE4 = toE4(fields.bp);
  const askE4 = toE4(fields.ap);
  const at = quoteTime(fields.t);
  return bidE4 === null || askE4 === null || at === null ? null : { bidE4, askE4, at };
}

/**
 * The latest quote of each symbol the provider answered for; a symbol missing from the map had none (or an answer
 * that was not a quote). Throws QuotesApiError on any failure of the call itself: the caller decides what that means.
 */
export async function fetchLatestQuotes(
  settings: { url: string; keyId: string; secretKey: string },
  symbols: readonly string[],
): Promise<Map<string, ProviderQuote>> {
  const address = `${settings.url}/v2/stocks/quotes/latest?symbols=${symbols.map(encodeURIComponent).join(",")}`;
  let response: Response;
  try {
    response = await fetch(address, {
      headers: {
        "APCA-API-KEY-ID": settings.keyId,
        "APCA-API-SECRET-KEY": settings.secretKey,
        Accept: "application/json",
      },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new QuotesApiError(`Quotes: ${(error as Error).message}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new QuotesApiError(`Quotes: HTTP ${response.status}`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new QuotesApiError("Quotes: the answer is not JSON");
  }
  const quotes = (body as { quotes?: unknown } | null)?.quotes;
  if (typeof quotes !== "object" || quotes === null || Array.isArray(quotes)) {
    throw new QuotesApiError("Quotes: the answer has no quotes object");
  }
  const found = new Map<string, ProviderQuote>();
  // Only the symbols asked for: whatever else an answer holds is no quote of ours.
  for (const symbol of symbols) {
    const quote = providerQuote((quotes as Record<string, unknown>)[symbol]);
    if (quote) found.set(symbol, quote);
  }
  return found;
}
