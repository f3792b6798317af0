/**
 * A local stand-in for the blockchains a deposit watcher reads, for `npm run dev`, the worker tests and the browser
 * tests: Esplora's API for bitcoin (mempool.space, Blockstream), an Ethereum JSON-RPC node, and CoinGecko's price
 * call, each answering as the real one does, over chains in memory that a control API moves on (pay, mine, reorg,
 * replace, rates, outages; `npm run chain`, scripts/chain.ts). Its `quotes` area is the quotes simulator: Alpaca's
 * latest stock quotes (scripts/lib/quotes-simulator/, `npm run quotes`, scripts/quotes.ts). Loopback only.
 *
 * Every path starts with a namespace, `/<ns>/…`: a world of its own (chains, rates, quotes, outages) made on first use, so
 * that test files running side by side never see each other's payments. `npm run dev` uses `dev`.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { chainWorkerVars } from "./chain-simulator/client.ts";
import { control } from "./chain-simulator/control.ts";
import { esplora } from "./chain-simulator/esplora.ts";
import { ethereumRpc } from "./chain-simulator/ethereum-rpc.ts";
import { rates } from "./chain-simulator/rates.ts";
import { json, Refusal, type Reply, text } from "./chain-simulator/reply.ts";
import { NAMESPACE, type Service, Worlds } from "./chain-simulator/world.ts";
import { latestQuotes } from "./quotes-simulator/api.ts";
import { quotesWorkerVars } from "./quotes-simulator/client.ts";
import { quotesControl } from "./quotes-simulator/control.ts";

export { chainControl, chainWorkerVars, USDT_CONTRACT } from "./chain-simulator/client.ts";
export { quotesControl, quotesWorkerVars } from "./quotes-simulator/client.ts";

export interface ChainSimulator {
  /** `http://127.0.0.1:<port>`, without a namespace. */
  readonly url: string;
  close(): Promise<void>;
}

/** The namespace `npm run dev` and the browser tests' server point the app at. */
export const DEV_NAMESPACE = "dev";

/** Where `npm run dev` runs it: CHAIN_SIMULATOR_PORT, else the dev server's port (PORT, 8787) + 2000. */
export function chainSimulatorPort(environment: NodeJS.ProcessEnv = process.env): number {
  const port = Number(environment.CHAIN_SIMULATOR_PORT || Number(environment.PORT || 8787) + 2000);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`The chain simulator's port would be ${port}: set CHAIN_SIMULATOR_PORT to a free port.`);
  }
  return port;
}

/** The Worker's settings that point it at one world of a simulator: its chains, rates and quotes. */
export const chainSimulatorVars = (simulatorUrl: string, ns = DEV_NAMESPACE) => ({
  ...chainWorkerVars(simulatorUrl, ns),
  ...quotesWorkerVars(simulatorUrl, ns),
});

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function controlReply(reply: () => { body: unknown; line?: string }, log: (line: string) => void, ns: string) {
  try {
    const { body, line } = reply();
    if (line) log(`chain simulator [${ns}]: ${line}`);
    return json(body);
  } catch (error) {
    if (error instanceof Refusal) return json({ error: error.message }, 400);
    throw error;
  }
}

async function route(worlds: Worlds, request: IncomingMessage, log: (line: string) => void): Promise<Reply> {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  const [, ns = "", area = "", ...rest] = url.pathname.split("/");
  const method = request.method ?? "GET";
  if (!NAMESPACE.test(ns)) return text(`Paths start with a namespace, /<[a-z0-9-]{1,40}>/: not ${url.pathname}`, 404);
  const world = worlds.get(ns);
  const service: Service | undefined = area === "bitcoin" || area === "ethereum" || area === "rates" ? area : undefined;
  if (service && world.outages.has(service)) return text("Service Unavailable", 503);
  if (area === "bitcoin" && rest[0] === "api")
    return esplora(world.bitcoin, method, rest.slice(1), world.behind.bitcoin);
  if (area === "ethereum" && rest.length === 0) {
    if (method !== "POST") return text("Ethereum's JSON-RPC takes POST", 405);
    return json(ethereumRpc(world.ethereum, await bodyOf(request), world.behind.ethereum));
  }
  // A block explorer's transaction page, as the portal links a payout to: here the transaction's JSON.
  if (area === "explorer" && rest[1] === "tx" && rest[2] && rest.length === 3) {
    if (rest[0] === "bitcoin") return esplora(world.bitcoin, method, ["tx", rest[2]]);
    if (rest[0] === "ethereum") {
      const ask = (rpc: string) => ({ jsonrpc: "2.0", id: rpc, method: rpc, params: [rest[2]] });
      const body = JSON.stringify([ask("eth_getTransactionByHash"), ask("eth_getTransactionReceipt")]);
      return json(ethereumRpc(world.ethereum, body));
    }
  }
  if (area === "rates") return rates(world, method, `/${rest.join("/")}`, url.searchParams);
  if (area === "control" && rest.length === 1 && rest[0]) {
    return command(request, rest[0], (name, input) => control(world, name, input), log, ns);
  }
  if (area === "quotes" && rest[0] === "control" && rest.length === 2 && rest[1]) {
    return command(request, rest[1], (name, input) => quotesControl(world.quotes, name, input), log, ns);
  }
  if (area === "quotes") {
    return latestQuotes(world.quotes, method, `/${rest.join("/")}`, url.searchParams, request.headers);
  }
  return text(`The chain simulator has no ${method} ${url.pathname}`, 404);
}

/** A control command: GET for state, else POST with a JSON object; one log line for each change. */
async function command(
  request: IncomingMessage,
  name: string,
  run: (name: string, input: Record<string, unknown>) => { body: unknown; line?: string },
  log: (line: string) => void,
  ns: string,
): Promise<Reply> {
  const method = request.method ?? "GET";
  if (method === "GET" && name === "state") return controlReply(() => run("state", {}), log, ns);
  if (method !== "POST") return json({ error: "POST a command (GET only for state)" }, 405);
  const body = await bodyOf(request);
  let input: unknown;
  try {
    input = body.trim() ? JSON.parse(body) : {};
  } catch {
    return json({ error: "the body must be JSON" }, 400);
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return json({ error: "the body must be a JSON object" }, 400);
  }
  return controlReply(() => run(name, input as Record<string, unknown>), log, ns);
}

/** Starts a simulator on `port` (0: any free one); `log` gets one line per change made through the control API. */
export async function startChainSimulator(
  options: { port?: number; host?: string; log?: (line: string) => void } = {},
): Promise<ChainSimulator> {
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? (() => {});
  const worlds = new Worlds();
  const server = createServer((request, response) => {
    route(worlds, request, log)
      .catch((error: unknown) => text(`The chain simulator failed: ${String(error)}`, 500))
      .then((reply) => {
        response.writeHead(reply.status, { "Content-Type": reply.type });
        response.end(reply.body);
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
