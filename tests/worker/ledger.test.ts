import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type LedgerRow,
  parseAmountToCents,
  summarize,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  totalsFromRows,
  withdrawable,
} from "~/lib/ledger";
import { isValidAddress } from "~/lib/wallet-address";
import { ledgerSummary, ledgerTotals, withdrawableCents } from "~/server/ledger/figures.server";
import { createUser, db, insertLedger } from "../support/fixtures";

const row = (
  transactionType: LedgerRow["transactionType"],
  status: LedgerRow["status"],
  amountCents: number,
): LedgerRow => ({
  transactionType,
  status,
  amountCents,
});

describe("ledger formulas", () => {
  it("compute the product's figures for a known ledger", () => {
    const totals = totalsFromRows([
      row("deposit", "approved", 500_000),
      row("stock_deposit", "approved", 150_000),
      row("fee_deposit", "approved", 15_000),
      row("profit", "approved", 42_050),
      row("loss", "approved", 12_025),
      row("withdraw", "approved", 60_000),
      row("profit", "approved", 7_500),
      row("deposit", "rejected", 30_000),
      row("deposit", "pending", 120_000),
      row("stock_deposit", "pending", 80_000),
      row("withdraw", "pending", 25_000),
    ]);
    expect(summarize(totals)).toEqual({
      ledgerBalance: 500_000 + 150_000 + 15_000 + 42_050 + 7_500 - 12_025 - 60_000,
      available: 500_000 + 150_000 + 42_050 + 7_500 - 12_025 - 60_000,
      gross: 627_525 + 120_000 + 80_000 + 15_000 - 25_000,
      withdrawable: 500_000 + 42_050 + 7_500 - 12_025 - 60_000 - 25_000,
      totalTrades: 3,
      winRate: 66.7,
      totalProfit: 42_050 + 7_500 - 12_025,
      deposits: 665_000,
      withdrawals: 60_000,
    });
  });

  it("give a win rate of 0 and no trades for an empty ledger", () => {
    expect(summarize(totalsFromRows([]))).toMatchObject({ totalTrades: 0, winRate: 0, available: 0, gross: 0 });
  });

  it("agree with the SQL aggregate on random ledgers", async () => {
    const ledger = fc.array(
      fc.record({
        transactionType: fc.constantFrom(...TRANSACTION_TYPES),
        status: fc.constantFrom(...TRANSACTION_STATUSES),
        amountCents: fc.integer({ min: 1, max: 10_000_000 }),
      }),
      { maxLength: 60 },
    );
    await fc.assert(
      fc.asyncProperty(ledger, async (rows) => {
        const { id } = await createUser();
        await insertLedger(id, rows);
        const expected = summarize(totalsFromRows(rows));
        expect(await ledgerSummary(db, id)).toEqual(expected);
        expect(await withdrawableCents(db, id)).toBe(withdrawable(totalsFromRows(rows)));
      }),
      { numRuns: 40 },
    );
  });

  it("agree with the SQL aggregate on a 20,000-row ledger", async () => {
    const { id } = await createUser();
    const rows = Array.from({ length: 20_000 }, (_, i) =>
      row(
        TRANSACTION_TYPES[i % 6] ?? "deposit",
        TRANSACTION_STATUSES[(i * 7) % 3] ?? "approved",
        100 + ((i * 7919) % 500_000),
      ),
    );
    await insertLedger(id, rows);
    expect(await ledgerTotals(db, id)).toEqual(totalsFromRows(rows));
    expect(await withdrawableCents(db, id)).toBe(withdrawable(totalsFromRows(rows)));
  });
});

describe("amounts", () => {
  it.each([
    ["100", 10_000],
    ["0.01", 1],
    ["2500.5", 250_050],
    [" 12.30 ", 1_230],
  ])("read %j as %d cents", (input, cents) => {
    expect(parseAmountToCents(input)).toBe(cents);
  });

  it.each([
    "",
    "0",
    "0.00",
    "-5",
    "abc",
    "1.234",
    "1e5",
    "Infinity",
    "10000000000.01",
    "1,50",
    "1,234.56",
    "1.000,50",
    "12.",
    ".5",
    "1..2",
    "1.2.3",
    "+5",
    "0x10",
    "1 000",
  ])("refuse %j", (input) => {
    expect(parseAmountToCents(input)).toBeNull();
  });
});

describe("wallet address formats", () => {
  it.each([
    ["BTC", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"],
    ["BTC", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"],
    ["BTC", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"],
    ["ETH", "0x000000000000000000000000000000000000dEaD"],
    ["USDT (ERC)", "0x1111111111111111111111111111111111111111"],
    ["USDT (TRC)", "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb"],
    ["TRON", "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7"],
    ["SOLANA", "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"],
    ["LITECOIN", "LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9"],
    ["USDT (TRC20)", "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb"],
  ])("accept a %s address", (currency, address) => {
    expect(isValidAddress(currency, address)).toBe(true);
  });

  it.each([
    ["BTC", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5"], // one character off: checksum fails
    ["BTC", "0x000000000000000000000000000000000000dEaD"],
    ["ETH", "0x00000000000000000000000000000000000dEaD"],
    ["ETH", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"],
    ["USDT (TRC)", "0x1111111111111111111111111111111111111111"],
    ["SOLANA", "0OIl-not-base58"],
    ["LITECOIN", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"],
  ])("refuse a malformed %s address", (currency, address) => {
    expect(isValidAddress(currency, address)).toBe(false);
  });

  it("take Bitcoin addresses of the deployment's network only: testnet's where it pays on testnet", () => {
    const testnet = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx";
    const mainnet = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
    expect([isValidAddress("BTC", testnet), isValidAddress("BTC", mainnet)]).toEqual([false, true]);
    expect([isValidAddress("BTC", testnet, "testnet"), isValidAddress("BTC", mainnet, "testnet")]).toEqual([
      true,
      false,
    ]);
  });
});
