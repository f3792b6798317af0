/**
 * Orders and positions (docs/product.md, "Orders and positions"): the terms' rules as constants, the arithmetic of
 * shares, prices and cents, and the serial numbers. Shares are integers in ten-thousandths of a share (4 decimals)
 * and prices in ten-thousandths of a dollar, so no figure ever passes through a floating-point sum. Browser-safe,
 * no imports: the ticket's estimate and the server's fill are the same arithmetic.
 */

export const ORDER_RULES = {
  /** Shares are fractional to this many decimals. */
  shareDecimals: 4,
  /** The terms: "A client may cancel an order within 3 seconds of placing it." Only an order to open a position. */
  cancelWindowMs: 3000,
  /** The smallest order, in cents of its cost (a buy) or proceeds (a sale). */
  minimumCents: 100,
  /**
   * The most shares one order may ask for, the most it may cost, and the highest price traded: bounds that keep
   * every product of the arithmetic below inside SQLite's 64-bit integers.
   */
  maximumSharesE4: 100_000 * 10_000,
  maximumCents: 1_000_000_000,
  maximumPriceE4: 100_000 * 10_000,
} as const;

export const SHARE_UNITS = 10_000;
export const PRICE_UNITS = 10_000;

const MICRO = 1_000_000n;

/**
 * Cents of `sharesE4` shares at `priceE4`: shares x price / 10^6, in integers (exact here as BigInt). A market value
 * rounds half up; what a client pays rounds up and what a client is paid rounds down, so that no way of splitting
 * an order turns the rounding into a gain.
 */
export function centsOf(sharesE4: number, priceE4: number): number {
  return Number((BigInt(sharesE4) * BigInt(priceE4) + MICRO / 2n) / MICRO);
}

/** What a buy costs: shares x ask, rounded up to the cent. */
export function costOf(sharesE4: number, priceE4: number): number {
  return Number((BigInt(sharesE4) * BigInt(priceE4) + MICRO - 1n) / MICRO);
}

/** What a sale pays: shares x bid, rounded down to the cent. */
export function proceedsOf(sharesE4: number, priceE4: number): number {
  return Number((BigInt(sharesE4) * BigInt(priceE4)) / MICRO);
}

/**
 * The most whole ten-thousandths of a share that `amountCents` pays for at `priceE4`: an order by amount never
 * costs more than the amount (its cost, rounded up, stays at or under it).
 */
export function sharesForAmount(amountCents: number, priceE4: number): number {
  if (priceE4 <= 0) return 0;
  return Number((BigInt(amountCents) * 1_000_000n) / BigInt(priceE4));
}

/**
 * The part of a lot's remaining cost that `takeE4` of its `openE4` shares carry, rounded half up; the whole
 * remaining cost when the lot is sold out, so a lot's closes always add up to its cost.
 */
export function costPart(openCostCents: number, openE4: number, takeE4: number): number {
  if (takeE4 >= openE4) return openCostCents;
  return Number((BigInt(openCostCents) * BigInt(takeE4) * 2n + BigInt(openE4)) / (2n * BigInt(openE4)));
}

/** `costPart` in SQL. */
export const costPartSql = (costSql: string, openSql: string, takeSql: string) =>
  `(CASE WHEN ${takeSql} >= ${openSql} THEN ${costSql} ELSE (${costSql} * ${takeSql} * 2 + ${openSql}) / (2 * ${openSql}) END)`;

/** "3.5" or "2.012" to ten-thousandths; null for anything else (more than 4 decimals, signs, exponents). */
export function parseShares(text: string): number | null {
  const match = /^(\d{1,7})(?:\.(\d{1,4}))?$/.exec(text.trim());
  if (!match) return null;
  const value = Number(match[1]) * SHARE_UNITS + Number((match[2] ?? "").padEnd(4, "0"));
  return value > 0 && value <= ORDER_RULES.maximumSharesE4 ? value : null;
}

/** Shares as a person reads them: up to 4 decimals, no trailing zeros ("3.5", "2.012", "10"). */
export function formatShares(sharesE4: number): string {
  const whole = Math.floor(sharesE4 / SHARE_UNITS);
  const part = String(sharesE4 % SHARE_UNITS)
    .padStart(4, "0")
    .replace(/0+$/, "");
  return `${whole.toLocaleString("en-US")}${part ? `.${part}` : ""}`;
}

/** A price in dollars, as the quote gives it: two decimals, or up to four when it has them. */
export function formatPrice(priceE4: number): string {
  const dollars = priceE4 / PRICE_UNITS;
  const decimals = priceE4 % 100 === 0 ? 2 : 4;
  return dollars.toLocaleString("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
}

/** A count of `1 / units` as a CSV writes it: no separators, at least `minimumDecimals`, no trailing zeros past them. */
function plainDecimal(value: number, units: number, minimumDecimals: number): string {
  const part = String(value % units)
    .padStart(String(units).length - 1, "0")
    .replace(/0+$/, "")
    .padEnd(minimumDecimals, "0");
  return `${Math.floor(value / units)}${part ? `.${part}` : ""}`;
}

/** Shares and a price as the CSVs write them: plain decimals, no thousands separator ("1000.5", "190.02"). */
export const sharesDecimal = (sharesE4: number) => plainDecimal(sharesE4, SHARE_UNITS, 0);
export const priceDecimal = (priceE4: number) => plainDecimal(priceE4, PRICE_UNITS, 2);

/** The serial number of a position (P-000123) and of a sale (S-000045): the database's never-reused ids. */
export const positionSerial = (id: number) => `P-${String(id).padStart(6, "0")}`;
export const saleSerial = (id: number) => `S-${String(id).padStart(6, "0")}`;

export function parsePositionSerial(text: string): number | null {
  const match = /^P-(\d{6,9})$/.exec(text.trim().toUpperCase());
  return match ? Number(match[1]) : null;
}

/** Whether a position placed at `openedAt` may still be cancelled at `now`. */
export const withinCancelWindow = (openedAt: number, now: number) => now - openedAt < ORDER_RULES.cancelWindowMs;

/** The part of the server's quote an order trades on: prices in ten-thousandths of a dollar, its time. */
export interface TradedQuote {
  bidE4: number;
  askE4: number;
  at: number;
}

/** What an order fills at: its shares, the price it trades at and what that comes to in cents. */
export interface Fill {
  sharesE4: number;
  priceE4: number;
  cents: number;
}

/**
 * An order's fill at a quote (docs/product.md, "Orders and positions"): a buy at the ask, a sale at the bid; by
 * shares as asked, by amount the most shares the amount pays for. "small" when it comes to less than the
 * minimum, "large" over the maximum or the highest price traded. The ticket's estimate and the server's fill.
 */
export function fillOf(
  order: { side: "buy" | "sell"; sizing: "shares" | "amount"; quantity: number },
  quote: { bidE4: number; askE4: number },
): Fill | "small" | "large" {
  const priceE4 = order.side === "buy" ? quote.askE4 : quote.bidE4;
  if (priceE4 > ORDER_RULES.maximumPriceE4) return "large";
  const sharesE4 = order.sizing === "shares" ? order.quantity : sharesForAmount(order.quantity, priceE4);
  if (sharesE4 > ORDER_RULES.maximumSharesE4) return "large";
  const cents = order.side === "buy" ? costOf(sharesE4, priceE4) : proceedsOf(sharesE4, priceE4);
  if (sharesE4 <= 0 || cents < ORDER_RULES.minimumCents) return "small";
  if (cents > ORDER_RULES.maximumCents) return "large";
  return { sharesE4, priceE4, cents };
}
