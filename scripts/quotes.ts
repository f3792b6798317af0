/**
 * `npm run quotes -- <command>`: moves the stock quotes of the simulator `npm run dev` runs (the chain simulator's
 * `quotes` area, scripts/lib/quotes-simulator/, the `dev` world): pin a price, let it walk, age a quote, make the API
 * fail. It finds the simulator as dev does: CHAIN_SIMULATOR_PORT, else PORT + 2000 (`PORT=8917 npm run quotes --
 * state` for a dev server on 8917).
 */
import { parseArgs } from "node:util";
import { chainSimulatorPort, DEV_NAMESPACE } from "./lib/chain-simulator.ts";
import { quotesControl } from "./lib/quotes-simulator/client.ts";

const USAGE = `usage: npm run quotes -- <command>
  set <symbol> <price>                   pin bid = price - 0.01 and ask = price + 0.01, quoted now (no walk)
  set <symbol> --bid <bid> --ask <ask>   pin both sides exactly
  walk [symbol]                          the random walk again (every pinned symbol unless one is named)
  age <symbol> <seconds>                 the quote as it is, timed that many seconds ago (an out-of-date price)
  fail                                   the quotes API answers 503 to every read
  ok                                     it answers again
  state                                  the quotes read or pinned so far, and the outage`;

export type QuotesCommand =
  | { command: "set"; symbol: string; price: string }
  | { command: "set"; symbol: string; bid: string; ask: string }
  | { command: "walk"; symbol?: string }
  | { command: "age"; symbol: string; seconds: number }
  | { command: "fail" | "ok" | "state" }
  | { command: "help" };

const DOLLARS = /^\d{1,7}(\.\d{1,4})?$/;

/** The command line as a command, or a problem to print with the usage. */
export function parseQuotesArgs(args: string[]): QuotesCommand | { problem: string } {
  let parsed: ReturnType<typeof parseArgs<{ allowPositionals: true; options: typeof OPTIONS }>>;
  const OPTIONS = {
    bid: { type: "string" },
    ask: { type: "string" },
    help: { type: "boolean", short: "h" },
  } as const;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    return { problem: (error as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: "help" };
  const [command = "", first, second, ...more] = positionals;
  if (more.length > 0) return { problem: `too many arguments: ${more.join(" ")}` };
  const symbol = first?.toUpperCase();
  switch (command) {
    case "set": {
      if (!symbol) return { problem: "set needs a symbol" };
      if (values.bid !== undefined || values.ask !== undefined) {
        if (second !== undefined) return { problem: "set takes a price or --bid and --ask, not both" };
        if (!values.bid || !values.ask) return { problem: "set needs both --bid and --ask" };
        if (!DOLLARS.test(values.bid) || !DOLLARS.test(values.ask)) return { problem: "bid and ask must be dollars" };
        return { command, symbol, bid: values.bid, ask: values.ask };
      }
      if (!second || !DOLLARS.test(second)) return { problem: "set needs a price in dollars, e.g. 190.00" };
      return { command, symbol, price: second };
    }
    case "walk":
      if (second !== undefined) return { problem: "walk takes at most a symbol" };
      return symbol ? { command, symbol } : { command };
    case "age": {
      const seconds = Number(second);
      if (!symbol || second === undefined || !Number.isInteger(seconds) || seconds < 0) {
        return { problem: "age needs a symbol and a whole number of seconds" };
      }
      return { command, symbol, seconds };
    }
    case "fail":
    case "ok":
    case "state":
      if (first !== undefined) return { problem: `${command} takes no arguments` };
      return { command };
    case "":
      return { problem: "" };
    default:
      return { problem: `unknown command ${command}` };
  }
}

const money = (e4: number) => `$${(e4 / 10_000).toFixed(e4 % 100 === 0 ? 2 : 4)}`;
const clock = (at: number) => `${new Date(at).toISOString().slice(11, 19)} UTC`;

async function run(parsed: QuotesCommand, origin: string, again: string): Promise<string> {
  const quotes = quotesControl(origin, DEV_NAMESPACE);
  switch (parsed.command) {
    case "set": {
      const pinned = await quotes.set(
        parsed.symbol,
        "price" in parsed ? parsed.price : { bid: parsed.bid, ask: parsed.ask },
      );
      return `${parsed.symbol}: bid ${money(pinned.bidE4)}, ask ${money(pinned.askE4)}, quoted now and pinned (\`${again} walk ${parsed.symbol}\` lets it move).`;
    }
    case "walk": {
      const { walking } = await quotes.walk(parsed.symbol);
      return walking.length ? `${walking.join(", ")} walk(s) again.` : "Nothing was pinned: every price walks.";
    }
    case "age": {
      const aged = await quotes.age(parsed.symbol, parsed.seconds);
      return `${parsed.symbol}: quoted at ${clock(aged.at)}, ${parsed.seconds} s ago, and pinned (\`${again} walk ${parsed.symbol}\` ends it).`;
    }
    case "fail":
      await quotes.fail();
      return `The quotes API answers 503 to every read (\`${again} ok\` ends it).`;
    case "ok":
      await quotes.ok();
      return "The quotes API answers again.";
    case "state": {
      const state = await quotes.state();
      const lines = Object.entries(state.quotes).map(
        ([symbol, quote]) =>
          `  ${symbol.padEnd(6)} bid ${money(quote.bidE4)}, ask ${money(quote.askE4)} at ${clock(quote.at)}${quote.pinned ? " (pinned)" : ""}`,
      );
      return [
        `Quotes simulator on ${origin}/${DEV_NAMESPACE}/quotes${state.outage ? ": answering 503 (an outage)" : ""}`,
        ...(lines.length ? lines : ["  no symbol read yet: each starts at its list price"]),
      ].join("\n");
    }
    default:
      return USAGE;
  }
}

async function main(): Promise<void> {
  const parsed = parseQuotesArgs(process.argv.slice(2));
  if ("problem" in parsed) {
    if (parsed.problem) console.error(parsed.problem);
    console.error(USAGE);
    process.exit(2);
  }
  if (parsed.command === "help") {
    console.log(USAGE);
    return;
  }
  const origin = `http://127.0.0.1:${chainSimulatorPort()}`;
  const { CHAIN_SIMULATOR_PORT, PORT } = process.env;
  const again = `${CHAIN_SIMULATOR_PORT ? `CHAIN_SIMULATOR_PORT=${CHAIN_SIMULATOR_PORT} ` : PORT && PORT !== "8787" ? `PORT=${PORT} ` : ""}npm run quotes --`;
  try {
    console.log(await run(parsed, origin, again));
  } catch (error) {
    const message = (error as Error).message;
    if (message.startsWith("quotes simulator ")) {
      console.error(message);
      process.exit(1);
    }
    console.error(
      `No quotes simulator answers on ${origin}. It runs with \`npm run dev\` (in the chain simulator); for a dev ` +
        "server on another port, give this command the same PORT (or CHAIN_SIMULATOR_PORT).",
    );
    process.exit(1);
  }
}

// Imported by its test for the parsing alone.
if (import.meta.main) await main();
