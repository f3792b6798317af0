/**
 * `npm run chain -- <command>`: moves the chains of the simulator `npm run dev` runs (scripts/lib/chain-simulator.ts,
 * the `dev` world): pay an address, mine, reorganise, replace a payment by fee, set a rate, make an API fail. It
 * finds the simulator as dev does: CHAIN_SIMULATOR_PORT, else PORT + 2000 (`PORT=8917 npm run chain -- state` for a
 * dev server on 8917).
 */
import { parseArgs } from "node:util";
import { type ChainAsset, type ChainNetwork, chainControl } from "./lib/chain-simulator/client.ts";
import { chainSimulatorPort, DEV_NAMESPACE } from "./lib/chain-simulator.ts";

const USAGE = `usage: npm run chain -- <command>
  pay <address> <amount> [--asset USDT] [--fee <btc>]   pay an address (amount in coins: 0.01, 1.5, 250)
  mine [n] [--network ethereum]                          mine n blocks (1; bitcoin unless told)
  reorg <depth> [--network ethereum] [--drop]            replace the last blocks; --drop loses their txs
  replace <txid>                                         replace a mempool bitcoin tx by fee, paying elsewhere
  rate <BTC|ETH|USDT> <usd>                              set a USD rate
  fail <bitcoin|ethereum|rates>                          that API answers 503 to every read
  ok <bitcoin|ethereum|rates>                            it answers again
  behind <n> [--network ethereum]                        that API lags n blocks behind its tip (0 ends it)
  traffic <n>                                            n strangers' bitcoin payments into the mempool
  state                                                  tips, mempools, rates, outages`;

function usage(problem?: string): never {
  if (problem) console.error(problem);
  console.error(USAGE);
  process.exit(2);
}

const { values, positionals } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        asset: { type: "string" },
        fee: { type: "string" },
        network: { type: "string" },
        drop: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    return usage((error as Error).message);
  }
})();
const [command = "", first, second] = positionals;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!command) usage();

const origin = `http://127.0.0.1:${chainSimulatorPort()}`;
/** This command again, as typed for this simulator: for the hints after a payment and an outage. */
const again = `${process.env.CHAIN_SIMULATOR_PORT ? `CHAIN_SIMULATOR_PORT=${process.env.CHAIN_SIMULATOR_PORT} ` : process.env.PORT && process.env.PORT !== "8787" ? `PORT=${process.env.PORT} ` : ""}npm run chain --`;
const chain = chainControl(origin, DEV_NAMESPACE);
const network = (values.network ?? "bitcoin") as ChainNetwork;
const wholeNumber = (text: string | undefined, name: string, fallback?: number) => {
  const number = text === undefined ? fallback : Number(text);
  return number !== undefined && Number.isInteger(number) && number > 0
    ? number
    : usage(`${name} must be a whole number`);
};

async function run(): Promise<string> {
  switch (command) {
    case "pay": {
      if (!first || !second) usage("pay needs an address and an amount");
      const paid = await chain.pay({
        address: first,
        amount: second,
        asset: values.asset?.toUpperCase() as ChainAsset | undefined,
        fee: values.fee,
      });
      const where = paid.network === "bitcoin" ? `output ${paid.outputIndex}` : `log index ${paid.outputIndex}`;
      return `Paid ${second} ${paid.asset} to ${first}: ${paid.txid} (${where}), in the mempool until \`${again} mine${paid.network === "ethereum" ? " --network ethereum" : ""}\`.`;
    }
    case "mine": {
      const { height, hashes } = await chain.mine(wholeNumber(first, "n", 1), network);
      return `Mined ${hashes.length} ${network} block(s): height ${height}, tip ${hashes.at(-1)}.`;
    }
    case "reorg": {
      const depth = wholeNumber(first, "depth");
      const { height } = await chain.reorg(depth, { network, drop: values.drop });
      const fate = values.drop ? "dropped (gone)" : "back in the mempool until the next mine";
      return `Replaced the last ${depth} ${network} block(s) (height ${height}); their transactions are ${fate}.`;
    }
    case "replace": {
      if (!first) usage("replace needs a txid");
      const { txid } = await chain.replace(first);
      return `Replaced ${first} by ${txid}, which pays another address; the old txid is gone.`;
    }
    case "rate": {
      const usd = Number(second);
      if (!first || !(usd > 0)) usage("rate needs an asset and a positive USD amount");
      await chain.rate(first.toUpperCase() as ChainAsset, usd);
      return `${first.toUpperCase()} is ${usd} USD.`;
    }
    case "fail":
    case "ok": {
      if (!first) usage(`${command} needs bitcoin, ethereum or rates`);
      await chain.outage(first as ChainNetwork | "rates", command === "fail");
      return command === "fail"
        ? `${first} answers 503 to every read (\`${again} ok ${first}\` ends it).`
        : `${first} answers again.`;
    }
    case "behind": {
      const blocks = first === "0" ? 0 : wholeNumber(first, "n");
      await chain.behind(blocks, network);
      const flag = network === "ethereum" ? " --network ethereum" : "";
      return blocks === 0
        ? `The ${network} API knows every block again.`
        : `The ${network} API does not know the last ${blocks} block(s) (\`${again} behind 0${flag}\` ends it).`;
    }
    case "traffic": {
      const { mempool } = await chain.traffic(wholeNumber(first, "n"));
      return `${mempool} tx(s) in the bitcoin mempool, for the next block.`;
    }
    case "state": {
      const state = await chain.state();
      const lagging = Object.entries(state.behind)
        .filter(([, blocks]) => blocks > 0)
        .map(([name, blocks]) => `${name} API ${blocks} block(s)`)
        .join(", ");
      const rates = Object.entries(state.rates).map(([asset, rate]) => `${asset} ${rate.usd}`);
      return [
        `Chain simulator on ${origin}, world ${state.ns}:`,
        `  bitcoin  height ${state.bitcoin.height}, ${state.bitcoin.mempool.length} tx(s) in the mempool`,
        `  ethereum height ${state.ethereum.height}, ${state.ethereum.pending.length} tx(s) pending`,
        `  rates    ${rates.join(", ")} (USD)`,
        `  outages  ${state.outages.join(", ") || "none"}${lagging ? `; behind: ${lagging}` : ""}`,
      ].join("\n");
    }
    default:
      return usage(`unknown command ${command}`);
  }
}

try {
  console.log(await run());
} catch (error) {
  const message = (error as Error).message;
  if (message.startsWith("chain simulator ")) {
    console.error(message);
    process.exit(1);
  }
  console.error(
    `No chain simulator answers on ${origin}. It runs with \`npm run dev\`; for a dev server on another port, give ` +
      "this command the same PORT (or CHAIN_SIMULATOR_PORT).",
  );
  process.exit(1);
}
