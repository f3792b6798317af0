import { describe, expect, it } from "vitest";
import {
  filterStocks,
  findStock,
  isKnownStock,
  SECTORS,
  STOCKS,
  similarStocks,
  stockView,
  TRADING_PAIRS,
} from "~/lib/stocks";

describe("stock reference data", () => {
  it("has complete entries with finite prices and changes", () => {
    for (const stock of STOCKS) {
      expect(stock.symbol.trim(), JSON.stringify(stock)).not.toBe("");
      expect(stock.symbol).toBe(stock.symbol.toUpperCase());
      expect(stock.name.trim(), stock.symbol).not.toBe("");
      expect(stock.domain.trim(), stock.symbol).not.toBe("");
      expect(stock.description.trim(), stock.symbol).not.toBe("");
      expect(stock.marketCap.trim(), stock.symbol).not.toBe("");
      expect(Number.isFinite(stock.price) && stock.price > 0, stock.symbol).toBe(true);
      expect(Number.isFinite(stock.change), stock.symbol).toBe(true);
    }
  });

  it("has between 100 and 120 stocks with case-insensitively unique symbols", () => {
    expect(STOCKS.length).toBeGreaterThanOrEqual(100);
    expect(STOCKS.length).toBeLessThanOrEqual(120);
    const symbols = STOCKS.map((stock) => stock.symbol.toUpperCase());
    expect(new Set(symbols).size).toBe(symbols.length);
  });

  it("uses only the listed sectors and covers every one of them", () => {
    const sectors: readonly string[] = SECTORS;
    for (const stock of STOCKS) expect(sectors, stock.symbol).toContain(stock.sector);
    for (const sector of SECTORS) {
      expect(
        STOCKS.some((stock) => stock.sector === sector),
        sector,
      ).toBe(true);
    }
  });

  it("lists the trading pairs without duplicates", () => {
    expect(new Set(TRADING_PAIRS).size).toBe(TRADING_PAIRS.length);
    for (const pair of [
      "EUR/USD",
      "USD/JPY",
      "GBP/JPY",
      "XAU/USD",
      "BTC/USD",
      "ETH/USD",
      "SOL/USD",
      "ADA/USD",
      "USDT/BTC",
      "ETH/USDT",
    ]) {
      expect(TRADING_PAIRS).toContain(pair);
    }
  });
});

describe("stock lookups", () => {
  it("finds stocks case-insensitively", () => {
    expect(findStock("aapl")?.name).toBe("Apple Inc.");
    expect(findStock(" AAPL ")?.symbol).toBe("AAPL");
    expect(findStock("brk.b")?.symbol).toBe("BRK.B");
    expect(findStock("nope")).toBeUndefined();
    expect(isKnownStock("tsla")).toBe(true);
    expect(isKnownStock("nope")).toBe(false);
  });

  it("filters by symbol or name, ignoring case", () => {
    const symbols = filterStocks("app").map((stock) => stock.symbol);
    expect(symbols).toContain("AAPL");
    expect(filterStocks("APPLE").map((stock) => stock.symbol)).toContain("AAPL");
    expect(filterStocks("tesla").map((stock) => stock.symbol)).toEqual(["TSLA"]);
    expect(filterStocks("msft").map((stock) => stock.symbol)).toEqual(["MSFT"]);
    expect(filterStocks("zzzz-none")).toEqual([]);
    expect(filterStocks("  ")).toEqual([...STOCKS]);
    expect(filterStocks("")).toHaveLength(STOCKS.length);
  });

  it("suggests at most five other stocks of the same sector", () => {
    const apple = findStock("AAPL");
    if (!apple) throw new Error("AAPL missing");
    const similar = similarStocks(apple);
    expect(similar.length).toBeGreaterThan(0);
    expect(similar.length).toBeLessThanOrEqual(5);
    for (const stock of similar) {
      expect(stock.sector).toBe(apple.sector);
      expect(stock.symbol).not.toBe(apple.symbol);
    }
    expect(similarStocks(apple, 2)).toEqual(similar.slice(0, 2));
  });

  it("returns a known stock view in any case, and an unknown symbol as itself, flagged, with no borrowed data", () => {
    expect(stockView("aapl")).toMatchObject({ symbol: "AAPL", name: "Apple Inc.", known: true });
    const unknown = stockView("nOpE");
    expect(unknown).toMatchObject({ symbol: "NOPE", name: "NOPE", known: false, price: 0, change: 0, domain: "" });
    // Nothing of a real stock leaks into the page of an unknown one.
    expect(STOCKS.some((stock) => stock.description === unknown.description || stock.sector === unknown.sector)).toBe(
      false,
    );
  });
});
