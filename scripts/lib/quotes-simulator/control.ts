/**
 * The quotes simulator's control API (`POST /<ns>/quotes/control/<command>`, JSON in and out; GET for state): pin a
 * price or both sides, let it walk again, age a quote, switch the API off and on.
 */
import { Refusal } from "../chain-simulator/reply.ts";
import type { BoardQuote, QuoteBoard } from "./board.ts";

export interface QuotesControlResult {
  body: unknown;
  /** One line for the simulator's log, or none for a read. */
  line?: string;
}

const money = (e4: number) => (e4 / 10_000).toFixed(e4 % 100 === 0 ? 2 : 4);
const told = (quote: BoardQuote) => `bid ${money(quote.bidE4)}, ask ${money(quote.askE4)}`;

function symbolOf(board: QuoteBoard, value: unknown): string {
  const symbol = typeof value === "string" ? value.trim().toUpperCase() : "";
  if (!symbol) throw new Refusal("symbol is required");
  if (!board.knows(symbol)) throw new Refusal(`${symbol} is not on the watchlist (app/lib/stocks.ts)`);
  return symbol;
}

/** Dollars (a number or a decimal string, at most 4 decimals, 0 allowed) to E4. */
function e4Of(value: unknown, name: string): number {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  if (!/^\d{1,7}(\.\d{1,4})?$/.test(text))
    throw new Refusal(`${name} must be dollars, e.g. 190.00 (4 decimals at most)`);
  return Math.round(Number(text) * 10_000);
}

function set(board: QuoteBoard, input: Record<string, unknown>, now: number): QuotesControlResult {
  const symbol = symbolOf(board, input.symbol);
  let bidE4: number;
  let askE4: number;
  if (input.price !== undefined) {
    if (input.bid !== undefined || input.ask !== undefined) throw new Refusal("give price, or bid and ask, not both");
    const price = e4Of(input.price, "price");
    if (price < 200) throw new Refusal("price must be at least 0.02 (the bid is a cent below it)");
    bidE4 = price - 100;
    askE4 = price + 100;
  } else {
    bidE4 = e4Of(input.bid, "bid");
    askE4 = e4Of(input.ask, "ask");
  }
  const quote = board.pin(symbol, bidE4, askE4, now);
  return { body: { symbol, ...quote }, line: `quotes: ${symbol} pinned at ${told(quote)}` };
}

function age(board: QuoteBoard, input: Record<string, unknown>, now: number): QuotesControlResult {
  const symbol = symbolOf(board, input.symbol);
  const seconds = input.seconds;
  if (typeof seconds !== "number" || !Number.isInteger(seconds) || seconds < 0 || seconds > 86_400 * 30) {
    throw new Refusal("seconds must be a whole number from 0 to 2592000");
  }
  const quote = board.age(symbol, seconds, now);
  return { body: { symbol, ...quote }, line: `quotes: ${symbol} quoted ${seconds} s ago (${told(quote)}), pinned` };
}

function walk(board: QuoteBoard, input: Record<string, unknown>, now: number): QuotesControlResult {
  const symbol = input.symbol === undefined ? undefined : symbolOf(board, input.symbol);
  const released = board.release(symbol, now);
  return { body: { walking: released }, line: `quotes: ${symbol ?? "every symbol"} walks again` };
}

function outage(board: QuoteBoard, down: boolean): QuotesControlResult {
  board.down = down;
  return { body: { outage: down }, line: down ? "quotes answer 503 to every read" : "quotes answer again" };
}

export function quotesSummary(board: QuoteBoard, now: number) {
  return { outage: board.down, quotes: board.summary(now) };
}

const COMMANDS: Record<
  string,
  (board: QuoteBoard, input: Record<string, unknown>, now: number) => QuotesControlResult
> = {
  set,
  age,
  walk,
  fail: (board) => outage(board, true),
  ok: (board) => outage(board, false),
  state: (board, _input, now) => ({ body: quotesSummary(board, now) }),
};

export function quotesControl(
  board: QuoteBoard,
  command: string,
  input: Record<string, unknown>,
  now = Date.now(),
): QuotesControlResult {
  const run = COMMANDS[command];
  if (!run) throw new Refusal(`unknown command ${command}: ${Object.keys(COMMANDS).join(", ")}`);
  return run(board, input, now);
}
