/**
 * Alpaca's Market Data API v2, latest quotes (`GET /v2/stocks/quotes/latest?symbols=AAPL,TSLA`), over one world's
 * quote board: the key headers required (401 without them, as Alpaca answers), a symbol it has no quote for left out
 * of the answer, times with nanoseconds.
 */
import type { IncomingHttpHeaders } from "node:http";
import { json, type Reply } from "../chain-simulator/reply.ts";
import type { QuoteBoard } from "./board.ts";

/** RFC 3339 with nine decimals, as Alpaca writes its times: the milliseconds, then made-up nanoseconds. */
export function nanosecondTime(at: number): string {
  const nanos = String(Math.floor(Math.random() * 1_000_000)).padStart(6, "0");
  return `${new Date(at).toISOString().slice(0, 23)}${nanos}Z`;
}

const dollars = (e4: number) => e4 / 10_000;

/** `path` is what follows `/<ns>/quotes`. */
export function latestQuotes(
  board: QuoteBoard,
  method: string,
  path: string,
  query: URLSearchParams,
  headers: IncomingHttpHeaders,
  now = Date.now(),
): Reply {
  if (path !== "/v2/stocks/quotes/latest") return json({ message: "Not Found" }, 404);
  if (method !== "GET") return json({ message: "Method Not Allowed" }, 405);
  if (!headers["apca-api-key-id"] || !headers["apca-api-secret-key"]) return json({ message: "unauthorized." }, 401);
  if (board.down) return json({ message: "Service Unavailable" }, 503);
  const symbols = (query.get("symbols") ?? "")
    .split(",")
    .map((symbol) => symbol.trim().toUpperCase())
    .filter(Boolean);
  if (symbols.length === 0) return json({ message: "invalid symbols" }, 400);
  const quotes: Record<string, unknown> = {};
  for (const symbol of symbols) {
    const quote = board.quote(symbol, now);
    if (!quote) continue;
    quotes[symbol] = {
      ap: dollars(quote.askE4),
      as: 1,
      ax: "V",
      bp: dollars(quote.bidE4),
      bs: 2,
      bx: "V",
      c: ["R"],
      t: nanosecondTime(quote.at),
      z: "C",
    };
  }
  return json({ quotes });
}
