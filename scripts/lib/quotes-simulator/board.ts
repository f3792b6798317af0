/**
 * One world's stock quotes: each watchlist symbol starts at its list price (app/lib/stocks.ts) and moves by a small
 * random walk, a step a second, worked out lazily from the time elapsed when read. A symbol may be pinned (set, aged),
 * which stops its walk until told to walk again. Prices are whole ten-thousandths of a dollar (E4), as the portal's.
 */
import { STOCKS } from "../../../app/lib/stocks.ts";

const STEP_MS = 1_000;
/** One step moves the mid by up to this many basis points either way. */
const STEP_BPS = 3;
/** The walk never works out more steps than this at one read (an hour): a price left alone all day is still cheap. */
const MAX_STEPS = 3_600;
/** Half the spread: bid and ask a cent either side of the mid. */
const HALF_SPREAD_E4 = 100;
const CENT_E4 = 100;

export interface BoardQuote {
  bidE4: number;
  askE4: number;
  /** The quote's time, ms since the epoch. */
  at: number;
  pinned: boolean;
}

interface Line {
  /** The walk's mid, a whole number of cents in E4. */
  midE4: number;
  /** When the walk last stepped (its quote's time). */
  steppedAt: number;
  /** Set or aged by the control API: a price that does not walk, with a fixed time only when aged. */
  pin?: { bidE4: number; askE4: number; agedAt?: number };
}

export const LIST_PRICES_E4: ReadonlyMap<string, number> = new Map(
  STOCKS.map((stock) => [stock.symbol, Math.round(stock.price * 100) * CENT_E4]),
);

export class QuoteBoard {
  private readonly lines = new Map<string, Line>();
  /** An outage: the API answers 503 to every read. */
  down = false;

  private readonly random: () => number;

  constructor(random: () => number = Math.random) {
    this.random = random;
  }

  knows(symbol: string): boolean {
    return LIST_PRICES_E4.has(symbol);
  }

  private line(symbol: string, now: number): Line {
    let line = this.lines.get(symbol);
    if (!line) {
      line = { midE4: LIST_PRICES_E4.get(symbol) ?? 0, steppedAt: now };
      this.lines.set(symbol, line);
    }
    return line;
  }

  private walk(line: Line, now: number): void {
    const steps = Math.floor((now - line.steppedAt) / STEP_MS);
    if (steps <= 0) return;
    for (let i = 0; i < Math.min(steps, MAX_STEPS); i++) {
      const move = (this.random() * 2 - 1) * (STEP_BPS / 10_000);
      // Rounded to the cent, and never below two cents: the bid stays above zero.
      line.midE4 = Math.max(2 * CENT_E4, Math.round((line.midE4 * (1 + move)) / CENT_E4) * CENT_E4);
    }
    line.steppedAt += steps * STEP_MS;
  }

  /** The symbol's quote at `now`, or undefined for a symbol not on the watchlist. */
  quote(symbol: string, now: number): BoardQuote | undefined {
    if (!this.knows(symbol)) return undefined;
    const line = this.line(symbol, now);
    // A pinned price is a market standing still, quoted afresh at every read; an aged one keeps its old time.
    if (line.pin) return { ...line.pin, at: line.pin.agedAt ?? now, pinned: true };
    this.walk(line, now);
    return {
      bidE4: line.midE4 - HALF_SPREAD_E4,
      askE4: line.midE4 + HALF_SPREAD_E4,
      at: line.steppedAt,
      pinned: false,
    };
  }

  /** Pins bid and ask (crossed or zero ones too: the portal must refuse them), quoted now. */
  pin(symbol: string, bidE4: number, askE4: number, now: number): BoardQuote {
    const line = this.line(symbol, now);
    line.pin = { bidE4, askE4 };
    return { bidE4, askE4, at: now, pinned: true };
  }

  /** The symbol's quote as it is now, pinned with a time `seconds` ago. */
  age(symbol: string, seconds: number, now: number): BoardQuote {
    const current = this.quote(symbol, now) as BoardQuote;
    const line = this.line(symbol, now);
    const agedAt = now - seconds * 1000;
    line.pin = { bidE4: current.bidE4, askE4: current.askE4, agedAt };
    return { bidE4: current.bidE4, askE4: current.askE4, at: agedAt, pinned: true };
  }

  /** The walk again, from the pinned mid (a cent-rounded one), for one symbol or all. */
  release(symbol: string | undefined, now: number): string[] {
    const released: string[] = [];
    for (const [name, line] of this.lines) {
      if (symbol !== undefined && name !== symbol) continue;
      if (!line.pin) continue;
      const mid = Math.round((line.pin.bidE4 + line.pin.askE4) / 2 / CENT_E4) * CENT_E4;
      line.midE4 = Math.max(2 * CENT_E4, mid);
      line.steppedAt = now;
      line.pin = undefined;
      released.push(name);
    }
    return released;
  }

  /** The symbols read or pinned so far, with their quotes at `now`. */
  summary(now: number): Record<string, BoardQuote> {
    return Object.fromEntries([...this.lines.keys()].map((symbol) => [symbol, this.quote(symbol, now) as BoardQuote]));
  }
}
