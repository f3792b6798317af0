/**
 * The quotes simulator (the chain simulator's `quotes` area, scripts/lib/quotes-simulator/): Alpaca's latest-quotes
 * answer, its key check, the walk from the list prices, the control API (set, age, walk, fail, ok, state) and its
 * refusals, and `npm run quotes` (its parsing, and a run against a simulator). Each test takes its own namespace.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { type ChainSimulator, startChainSimulator } from "../../scripts/lib/chain-simulator.ts";
import { BIN, ROOT } from "../../scripts/lib/local-d1.ts";
import { QuoteBoard } from "../../scripts/lib/quotes-simulator/board.ts";
import { quotesControl } from "../../scripts/lib/quotes-simulator/client.ts";
import { parseQuotesArgs } from "../../scripts/quotes.ts";

interface AlpacaQuote {
  ap: number;
  as: number;
  ax: string;
  bp: number;
  bs: number;
  bx: string;
  c: string[];
  t: string;
  z: string;
}

const KEYS = { "APCA-API-KEY-ID": "local-quotes", "APCA-API-SECRET-KEY": "local-quotes-secret" };

let simulator: ChainSimulator;
const logged: string[] = [];
before(async () => {
  simulator = await startChainSimulator({ log: (line) => logged.push(line) });
});
after(() => simulator.close());

async function latest(ns: string, symbols: string, headers: Record<string, string> = KEYS) {
  const response = await fetch(`${simulator.url}/${ns}/quotes/v2/stocks/quotes/latest?symbols=${symbols}`, {
    headers,
  });
  return { status: response.status, body: (await response.json()) as { quotes: Record<string, AlpacaQuote> } };
}

describe("Alpaca's latest quotes", () => {
  test("each watchlist symbol starts at its list price with a 2-cent spread; unknown symbols are left out", async () => {
    const { status, body } = await latest("q-start", "AAPL,TSLA,NOPE");
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body.quotes).sort(), ["AAPL", "TSLA"]);
    const aapl = body.quotes.AAPL as AlpacaQuote;
    // AAPL's list price is 229.87; a read in its first second has not stepped yet.
    assert.ok(Math.abs((aapl.ap + aapl.bp) / 2 - 229.87) < 0.5, `mid ${(aapl.ap + aapl.bp) / 2}`);
    assert.equal(Math.round((aapl.ap - aapl.bp) * 100), 2);
    assert.match(aapl.t, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/);
    assert.ok(Math.abs(Date.parse(`${aapl.t.slice(0, 23)}Z`) - Date.now()) < 5_000);
    assert.deepEqual(Object.keys(aapl).sort(), ["ap", "as", "ax", "bp", "bs", "bx", "c", "t", "z"]);
  });

  test("answers 401 without both key headers, 400 without symbols", async () => {
    assert.equal((await latest("q-keys", "AAPL", {})).status, 401);
    assert.equal((await latest("q-keys", "AAPL", { "APCA-API-KEY-ID": "x" })).status, 401);
    assert.equal((await latest("q-keys", "")).status, 400);
  });

  test("the walk moves a price by small steps, lazily, rounded to the cent", () => {
    let seed = 7;
    const board = new QuoteBoard(() => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    });
    const start = board.quote("AAPL", 0);
    const later = board.quote("AAPL", 600_000);
    assert.ok(start && later);
    assert.equal(start.bidE4, 2298700 - 100);
    assert.equal(later.at, 600_000);
    assert.equal(later.bidE4 % 100, 0);
    // 600 steps of at most 3 basis points: within 20% of the start, whatever the draws.
    assert.ok(Math.abs(later.bidE4 - start.bidE4) < start.bidE4 * 0.2);
    assert.equal(board.quote("NOPE", 0), undefined);
  });
});

describe("the control API", () => {
  test("set pins a price (a cent each side) or both sides, quoted afresh at every read, without walking", async () => {
    const quotes = quotesControl(simulator.url, "q-set");
    await quotes.set("aapl", "190.00");
    const first = (await latest("q-set", "AAPL")).body.quotes.AAPL as AlpacaQuote;
    assert.deepEqual([first.bp, first.ap], [189.99, 190.01]);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const again = (await latest("q-set", "AAPL")).body.quotes.AAPL as AlpacaQuote;
    assert.deepEqual([again.bp, again.ap], [189.99, 190.01]);
    assert.ok(Date.parse(`${again.t.slice(0, 23)}Z`) > Date.parse(`${first.t.slice(0, 23)}Z`));
    await quotes.set("MSFT", { bid: "415.1234", ask: "415.2" });
    const msft = (await latest("q-set", "MSFT")).body.quotes.MSFT as AlpacaQuote;
    assert.deepEqual([msft.bp, msft.ap], [415.1234, 415.2]);
    assert.ok(logged.includes("chain simulator [q-set]: quotes: AAPL pinned at bid 189.99, ask 190.01"));
  });

  test("age times a quote seconds ago until walk; fail and ok switch an outage", async () => {
    const quotes = quotesControl(simulator.url, "q-age");
    await quotes.set("TSLA", 250);
    const aged = await quotes.age("TSLA", 60);
    assert.ok(Math.abs(aged.at - (Date.now() - 60_000)) < 2_000);
    const read = (await latest("q-age", "TSLA")).body.quotes.TSLA as AlpacaQuote;
    assert.equal(Date.parse(`${read.t.slice(0, 23)}Z`), aged.at);
    assert.deepEqual([read.bp, read.ap], [249.99, 250.01]);
    assert.deepEqual(await quotes.walk("TSLA"), { walking: ["TSLA"] });
    const walking = (await latest("q-age", "TSLA")).body.quotes.TSLA as AlpacaQuote;
    assert.ok(Date.now() - Date.parse(`${walking.t.slice(0, 23)}Z`) < 2_000);
    await quotes.fail();
    assert.equal((await latest("q-age", "TSLA")).status, 503);
    // Another world is not down.
    assert.equal((await latest("q-other", "TSLA")).status, 200);
    assert.equal((await quotes.state()).outage, true);
    await quotes.ok();
    assert.equal((await latest("q-age", "TSLA")).status, 200);
    const state = await quotes.state();
    assert.deepEqual(Object.keys(state.quotes), ["TSLA"]);
    assert.equal(state.quotes.TSLA?.pinned, false);
  });

  test("refuses what it cannot do", async () => {
    const quotes = quotesControl(simulator.url, "q-refuse");
    await assert.rejects(quotes.set("NOPE", 10), /NOPE is not on the watchlist/);
    await assert.rejects(quotes.set("AAPL", "ten"), /price must be dollars/);
    await assert.rejects(quotes.set("AAPL", "190.123456"), /price must be dollars/);
    await assert.rejects(quotes.age("AAPL", -1), /seconds must be a whole number/);
    await assert.rejects(
      fetch(`${simulator.url}/q-refuse/quotes/control/nothing`, { method: "POST", body: "{}" }).then(async (r) => {
        throw new Error(((await r.json()) as { error: string }).error);
      }),
      /unknown command nothing/,
    );
  });
});

describe("npm run quotes", () => {
  test("parses its commands", () => {
    assert.deepEqual(parseQuotesArgs(["set", "aapl", "190.00"]), { command: "set", symbol: "AAPL", price: "190.00" });
    assert.deepEqual(parseQuotesArgs(["set", "AAPL", "--bid", "189.98", "--ask", "190.02"]), {
      command: "set",
      symbol: "AAPL",
      bid: "189.98",
      ask: "190.02",
    });
    assert.deepEqual(parseQuotesArgs(["walk"]), { command: "walk" });
    assert.deepEqual(parseQuotesArgs(["walk", "tsla"]), { command: "walk", symbol: "TSLA" });
    assert.deepEqual(parseQuotesArgs(["age", "AAPL", "60"]), { command: "age", symbol: "AAPL", seconds: 60 });
    for (const command of ["fail", "ok", "state"]) assert.deepEqual(parseQuotesArgs([command]), { command });
    assert.deepEqual(parseQuotesArgs(["--help"]), { command: "help" });
    for (const [args, problem] of [
      [["set", "AAPL"], /needs a price/],
      [["set", "AAPL", "--bid", "1"], /both --bid and --ask/],
      [["set", "AAPL", "190", "--bid", "1", "--ask", "2"], /not both/],
      [["age", "AAPL"], /whole number of seconds/],
      [["fail", "now"], /takes no arguments/],
      [["dance"], /unknown command dance/],
      [["set", "AAPL", "1", "--colour", "red"], /colour/],
    ] as const) {
      const parsed = parseQuotesArgs([...args]);
      assert.ok("problem" in parsed && problem.test(parsed.problem), `${args.join(" ")}: ${JSON.stringify(parsed)}`);
    }
  });

  test("moves the dev world of the simulator found by CHAIN_SIMULATOR_PORT", async () => {
    const port = new URL(simulator.url).port;
    const run = (...args: string[]) =>
      promisify(execFile)(join(BIN, "node"), ["scripts/quotes.ts", ...args], {
        cwd: ROOT,
        env: { ...process.env, CHAIN_SIMULATOR_PORT: port },
      });
    const set = await run("set", "AAPL", "190.00");
    assert.match(set.stdout, /AAPL: bid \$189\.99, ask \$190\.01, quoted now and pinned/);
    assert.match((await run("state")).stdout, /AAPL {3}bid \$189\.99, ask \$190\.01 at .* UTC \(pinned\)/);
    assert.match((await run("fail")).stdout, /answers 503/);
    assert.equal((await latest("dev", "AAPL")).status, 503);
    await run("ok");
    await assert.rejects(run("set", "NOPE", "1"), /NOPE is not on the watchlist/);
    await assert.rejects(
      promisify(execFile)(join(BIN, "node"), ["scripts/quotes.ts", "state"], {
        cwd: ROOT,
        env: { ...process.env, CHAIN_SIMULATOR_PORT: "1" },
      }),
      /No quotes simulator answers on http:\/\/127\.0\.0\.1:1\b/,
    );
  });
});
