/**
 * The control API (`POST /<ns>/control/<command>`, JSON in and out): what a developer or a test does to a world
 * that a chain does by itself in production. Pay an address, mine blocks, reorganise the tip, replace a mempool
 * transaction by fee, set a rate, switch an API off and on, make an API lag, fill the mempool with
 * strangers' payments, and read a summary.
 */
import { baseUnits, coins } from "./bytes.ts";
import { isEthAddress, USDT_CONTRACT, USDT_DECIMALS } from "./ethereum-chain.ts";
import { Refusal } from "./reply.ts";
import { ASSETS, type Asset, SERVICES, type Service, type World } from "./world.ts";

type Network = "bitcoin" | "ethereum";
const DECIMALS: Record<Asset, number> = { BTC: 8, ETH: 18, USDT: USDT_DECIMALS };
const NETWORK: Record<Asset, Network> = { BTC: "bitcoin", ETH: "ethereum", USDT: "ethereum" };

export interface ControlResult {
  body: unknown;
  /** One line for the simulator's log, or none for a read. */
  line?: string;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], name: string): T {
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  throw new Refusal(`${name} must be one of ${allowed.join(", ")}`);
}

function positiveWhole(value: unknown, name: string, fallback?: number): number {
  const number = value === undefined ? fallback : value;
  if (typeof number === "number" && Number.isInteger(number) && number >= 1 && number <= 10_000) return number;
  throw new Refusal(`${name} must be a whole number from 1 to 10000`);
}

/** BTC from a bech32 address, ETH from a 0x one; a token is never guessed. */
function assetOf(address: string, asked: unknown): Asset {
  if (asked !== undefined) return oneOf(asked, ASSETS, "asset");
  if (/^(tb|bcrt|bc)1/i.test(address)) return "BTC";
  if (address.startsWith("0x")) return "ETH";
  throw new Refusal(`cannot tell the asset of ${address}: give asset (BTC, ETH or USDT)`);
}

function pay(world: World, input: Record<string, unknown>): ControlResult {
  const address = typeof input.address === "string" ? input.address.trim() : "";
  if (!address) throw new Refusal("address is required");
  const asset = assetOf(address, input.asset);
  const amount = typeof input.amount === "number" ? String(input.amount) : input.amount;
  const units = typeof amount === "string" ? baseUnits(amount, DECIMALS[asset]) : null;
  if (units === null) {
    throw new Refusal(`amount must be a positive decimal string of ${asset} with at most ${DECIMALS[asset]} decimals`);
  }
  const network = NETWORK[asset];
  let paid: { txid: string; outputIndex: number };
  if (network === "bitcoin") {
    const fee = input.fee === undefined ? undefined : baseUnits(String(input.fee), 8);
    if (fee === null) throw new Refusal("fee must be a positive decimal string of BTC");
    try {
      paid = world.bitcoin.pay(address, units, fee, positiveWhole(input.outputs, "outputs", 1));
    } catch (error) {
      throw new Refusal((error as Error).message);
    }
  } else {
    if (!isEthAddress(address)) throw new Refusal(`${address} is not an Ethereum address (0x and 40 hex digits)`);
    paid =
      asset === "USDT" ? world.ethereum.payToken(USDT_CONTRACT, address, units) : world.ethereum.pay(address, units);
  }
  return {
    body: { ...paid, network, asset },
    line: `paid ${coins(units, DECIMALS[asset])} ${asset} to ${address}: ${paid.txid} (mempool until mined)`,
  };
}

function mine(world: World, input: Record<string, unknown>): ControlResult {
  const network = oneOf(input.network ?? "bitcoin", ["bitcoin", "ethereum"] as const, "network");
  const blocks = positiveWhole(input.blocks, "blocks", 1);
  if (network === "bitcoin") {
    const mined = world.bitcoin.mine(blocks);
    const txs = (mined[0]?.txs.length ?? 1) - 1;
    return {
      body: { height: world.bitcoin.tip.height, hashes: mined.map((block) => block.hash) },
      line: `mined ${blocks} bitcoin block(s) with ${txs} tx(s): height ${world.bitcoin.tip.height}`,
    };
  }
  const mined = world.ethereum.mine(blocks);
  return {
    body: { height: world.ethereum.tip.number, hashes: mined.map((block) => block.hash) },
    line: `mined ${blocks} ethereum block(s) with ${mined[0]?.txs.length ?? 0} tx(s): number ${world.ethereum.tip.number}`,
  };
}

function reorg(world: World, input: Record<string, unknown>): ControlResult {
  const network = oneOf(input.network ?? "bitcoin", ["bitcoin", "ethereum"] as const, "network");
  const depth = positiveWhole(input.depth, "depth");
  const drop = input.drop === true;
  try {
    if (network === "bitcoin") world.bitcoin.reorg(depth, drop);
    else world.ethereum.reorg(depth, drop);
  } catch (error) {
    throw new Refusal((error as Error).message);
  }
  const height = network === "bitcoin" ? world.bitcoin.tip.height : world.ethereum.tip.number;
  return {
    body: { height },
    line: `reorganised the last ${depth} ${network} block(s): their txs ${drop ? "dropped" : "back in the mempool"}`,
  };
}

function replace(world: World, input: Record<string, unknown>): ControlResult {
  if (typeof input.txid !== "string") throw new Refusal("txid is required");
  try {
    const txid = world.bitcoin.replace(input.txid.toLowerCase());
    return { body: { txid }, line: `replaced ${input.txid} by ${txid}, paying another address` };
  } catch (error) {
    throw new Refusal((error as Error).message);
  }
}

/** A chain's API lags: it does not know the last `blocks` blocks yet (0: it is up to date again). */
function behind(world: World, input: Record<string, unknown>): ControlResult {
  const network = oneOf(input.network ?? "bitcoin", ["bitcoin", "ethereum"] as const, "network");
  const blocks = input.blocks === 0 ? 0 : positiveWhole(input.blocks, "blocks");
  const height = network === "bitcoin" ? world.bitcoin.tip.height : world.ethereum.tip.number;
  if (blocks > height) throw new Refusal(`blocks must be at most ${height}`);
  world.behind[network] = blocks;
  return { body: { network, blocks }, line: `the ${network} API is ${blocks} block(s) behind the chain` };
}

/** `count` payments between strangers into the bitcoin mempool: the next block is as full as a real one. */
function traffic(world: World, input: Record<string, unknown>): ControlResult {
  const count = positiveWhole(input.count, "count");
  world.bitcoin.payStrangers(count);
  return { body: { mempool: world.bitcoin.mempool.size }, line: `${count} strangers' payments in the mempool` };
}

function rate(world: World, input: Record<string, unknown>): ControlResult {
  const asset = oneOf(input.asset, ASSETS, "asset");
  if (typeof input.usd !== "number" || !(input.usd > 0)) throw new Refusal("usd must be a positive number");
  if (input.at !== undefined && !(typeof input.at === "number" && Number.isInteger(input.at) && input.at > 0)) {
    throw new Refusal("at must be unix seconds");
  }
  world.rates[asset] = { usd: input.usd, at: input.at as number | undefined };
  return { body: { asset, ...world.rates[asset] }, line: `${asset} is ${input.usd} USD` };
}

function outage(world: World, input: Record<string, unknown>): ControlResult {
  const service: Service = oneOf(input.network, SERVICES, "network");
  if (typeof input.on !== "boolean") throw new Refusal("on must be true or false");
  if (input.on) world.outages.add(service);
  else world.outages.delete(service);
  return {
    body: { network: service, outage: input.on },
    line: input.on ? `${service} answers 503 to every read` : `${service} answers again`,
  };
}

export function summary(world: World) {
  return {
    ns: world.ns,
    bitcoin: {
      height: world.bitcoin.tip.height,
      hash: world.bitcoin.tip.hash,
      mempool: [...world.bitcoin.mempool.keys()],
    },
    ethereum: {
      height: world.ethereum.tip.number,
      hash: world.ethereum.tip.hash,
      pending: world.ethereum.pending.map((tx) => tx.hash),
    },
    rates: Object.fromEntries(ASSETS.map((asset) => [asset, world.rates[asset]])),
    outages: [...world.outages],
    behind: { ...world.behind },
  };
}

const COMMANDS: Record<string, (world: World, input: Record<string, unknown>) => ControlResult> = {
  pay,
  mine,
  reorg,
  replace,
  rate,
  outage,
  behind,
  traffic,
  state: (world) => ({ body: summary(world) }),
};

export function control(world: World, command: string, input: Record<string, unknown>): ControlResult {
  const run = COMMANDS[command];
  if (!run) throw new Refusal(`unknown command ${command}: ${Object.keys(COMMANDS).join(", ")}`);
  return run(world, input);
}
