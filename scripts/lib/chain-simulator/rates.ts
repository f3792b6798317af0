/**
 * CoinGecko's simple price call (`/api/v3/simple/price`) over one world's rates: the ids a deposit needs (bitcoin,
 * ethereum, tether) in US dollars, with the time each was last updated when asked.
 */
import { json, type Reply } from "./reply.ts";
import type { Asset, World } from "./world.ts";

const IDS: Record<string, Asset> = { bitcoin: "BTC", ethereum: "ETH", tether: "USDT" };

/** `path` is what follows `/<ns>/rates`, `query` the request's search parameters. */
export function rates(world: World, method: string, path: string, query: URLSearchParams): Reply {
  if (method !== "GET") return json({ error: "Method not allowed" }, 405);
  if (path !== "/api/v3/simple/price") return json({ error: "Not found" }, 404);
  const ids = (query.get("ids") ?? "").split(",").map((id) => id.trim().toLowerCase());
  const currencies = (query.get("vs_currencies") ?? "").split(",").map((currency) => currency.trim().toLowerCase());
  if (!query.get("ids")) return json({ error: "Missing parameter ids" }, 400);
  if (!query.get("vs_currencies")) return json({ error: "Missing parameter vs_currencies" }, 400);
  const withTime = query.get("include_last_updated_at") === "true";
  const now = Math.floor(Date.now() / 1000);
  const prices: Record<string, Record<string, number>> = {};
  for (const id of ids) {
    const asset = IDS[id];
    if (!asset) continue;
    const rate = world.rates[asset];
    // Only US dollars are kept; like CoinGecko, a currency it does not know is left out of the answer.
    prices[id] = currencies.includes("usd") ? { usd: rate.usd } : {};
    if (withTime) prices[id].last_updated_at = rate.at ?? now;
  }
  return json(prices);
}
