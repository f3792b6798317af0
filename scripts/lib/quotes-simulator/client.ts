/**
 * A typed client of the quotes simulator's control API (the chain simulator's `quotes` area) and the Worker
 * settings that read one of its worlds. Only fetch: the CLI, Playwright and the worker tests (in workerd) alike.
 */

/** Local keys for the simulator, which takes any non-empty pair: never real ones. */
export const SIMULATOR_QUOTES_KEYS = { QUOTES_KEY_ID: "local-quotes", QUOTES_SECRET_KEY: "local-quotes-secret" };

export interface SimulatedQuote {
  bidE4: number;
  askE4: number;
  at: number;
  pinned: boolean;
}

export interface QuotesState {
  outage: boolean;
  quotes: Record<string, SimulatedQuote>;
}

/** The Worker's settings for the world `ns` of the simulator at `baseUrl` (`http://127.0.0.1:<port>`). */
export function quotesWorkerVars(baseUrl: string, ns: string): Record<string, string> {
  return { QUOTES_URL: `${baseUrl.replace(/\/$/, "")}/${ns}/quotes`, ...SIMULATOR_QUOTES_KEYS };
}

export function quotesControl(baseUrl: string, ns: string) {
  const control = `${baseUrl.replace(/\/$/, "")}/${ns}/quotes/control`;
  async function command<T>(name: string, body: object): Promise<T> {
    const response = await fetch(`${control}/${name}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as T & { error?: string };
    if (!response.ok) throw new Error(`quotes simulator ${name}: ${answer.error ?? response.status}`);
    return answer;
  }
  type Pinned = SimulatedQuote & { symbol: string };
  return {
    /** Where the Worker reads this world: QUOTES_URL and the local keys. */
    vars: quotesWorkerVars(baseUrl, ns),
    url: quotesWorkerVars(baseUrl, ns).QUOTES_URL,
    /** Pins bid = price - 0.01 and ask = price + 0.01 (dollars: 190 or "190.00"), or both sides exactly. */
    set: (symbol: string, price: number | string | { bid: number | string; ask: number | string }) =>
      command<Pinned>("set", typeof price === "object" ? { symbol, ...price } : { symbol, price }),
    /** The symbol's quote as it is, pinned with a time `seconds` ago. */
    age: (symbol: string, seconds: number) => command<Pinned>("age", { symbol, seconds }),
    /** The random walk again, for one symbol or every pinned one. */
    walk: (symbol?: string) => command<{ walking: string[] }>("walk", symbol ? { symbol } : {}),
    /** Every read answers 503 until `ok`. */
    fail: () => command<{ outage: boolean }>("fail", {}),
    ok: () => command<{ outage: boolean }>("ok", {}),
    state: () => command<QuotesState>("state", {}),
  };
}

export type QuotesControl = ReturnType<typeof quotesControl>;
