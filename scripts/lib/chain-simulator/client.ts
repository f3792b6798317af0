/**
 * A typed client of a chain simulator's control API and the Worker settings that point at one of its worlds. Only
 * fetch: it runs in node (the CLI, Playwright) and inside workerd (the worker tests) alike.
 */

/** The simulator's Ethereum chain id: Sepolia's. The Worker's ETHEREUM_CHAIN_ID when it reads the simulator. */
export const SIMULATOR_CHAIN_ID = 11_155_111;

/** Sepolia's test USDT, the token the simulator's USDT payments go through. */
export const USDT_CONTRACT = "0x7169d38820dfd117c3fa1f22a697dba58d90ba06";

export type ChainAsset = "BTC" | "ETH" | "USDT";
export type ChainNetwork = "bitcoin" | "ethereum";

export interface Payment {
  txid: string;
  network: ChainNetwork;
  asset: ChainAsset;
  /** The paying output's vout (BTC), the Transfer log's index in its block once mined (USDT), 0 (ETH). */
  outputIndex: number;
}

export interface ChainState {
  ns: string;
  bitcoin: { height: number; hash: string; mempool: string[] };
  ethereum: { height: number; hash: string; pending: string[] };
  rates: Record<ChainAsset, { usd: number; at?: number }>;
  outages: Array<ChainNetwork | "rates">;
  behind: Record<ChainNetwork, number>;
}

/** The Worker's settings for the world `ns` of the simulator at `baseUrl` (`http://127.0.0.1:<port>`). */
export function chainWorkerVars(baseUrl: string, ns: string): Record<string, string> {
  const world = `${baseUrl.replace(/\/$/, "")}/${ns}`;
  return {
    BITCOIN_ESPLORA_URL: `${world}/bitcoin/api`,
    ETHEREUM_RPC_URL: `${world}/ethereum`,
    RATES_URL: `${world}/rates`,
    USDT_ERC20_CONTRACT: USDT_CONTRACT,
    BITCOIN_NETWORK: "testnet",
    BITCOIN_EXPLORER_URL: `${world}/explorer/bitcoin`,
    ETHEREUM_EXPLORER_URL: `${world}/explorer/ethereum`,
    ETHEREUM_CHAIN_ID: String(SIMULATOR_CHAIN_ID),
  };
}

export function chainControl(baseUrl: string, ns: string) {
  const world = `${baseUrl.replace(/\/$/, "")}/${ns}`;
  async function command<T>(name: string, body: object): Promise<T> {
    const response = await fetch(`${world}/control/${name}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as T & { error?: string };
    if (!response.ok) throw new Error(`chain simulator ${name}: ${answer.error ?? response.status}`);
    return answer;
  }
  return {
    /** Where the Worker reads this world: BITCOIN_ESPLORA_URL and the rest. */
    vars: chainWorkerVars(baseUrl, ns),
    esploraUrl: `${world}/bitcoin/api`,
    ethereumRpcUrl: `${world}/ethereum`,
    ratesUrl: `${world}/rates`,
    /** `amount` in coins, as a decimal string: "0.01" BTC, "1.5" ETH, "250" USDT. `fee` in BTC. */
    /** `outputs`: how many outputs of `amount` the (bitcoin) transaction pays the address. */
    pay: (payment: { address: string; amount: string; asset?: ChainAsset; fee?: string; outputs?: number }) =>
      command<Payment>("pay", payment),
    mine: (blocks = 1, network: ChainNetwork = "bitcoin") =>
      command<{ height: number; hashes: string[] }>("mine", { network, blocks }),
    reorg: (depth: number, options: { network?: ChainNetwork; drop?: boolean } = {}) =>
      command<{ height: number }>("reorg", { network: options.network ?? "bitcoin", depth, drop: options.drop }),
    replace: (txid: string) => command<{ txid: string }>("replace", { txid }),
    rate: (asset: ChainAsset, usd: number, at?: number) =>
      command<{ asset: ChainAsset; usd: number; at?: number }>("rate", { asset, usd, at }),
    outage: (network: ChainNetwork | "rates", on: boolean) =>
      command<{ network: string; outage: boolean }>("outage", { network, on }),
    /** The chain's API forgets its last `blocks` blocks until called again with 0, as a lagging node answers. */
    behind: (blocks: number, network: ChainNetwork = "bitcoin") =>
      command<{ network: ChainNetwork; blocks: number }>("behind", { network, blocks }),
    /** `count` payments between strangers into the bitcoin mempool (a full block for the bench). */
    traffic: (count: number) => command<{ mempool: number }>("traffic", { count }),
    state: () => command<ChainState>("state", {}),
  };
}

export type ChainControl = ReturnType<typeof chainControl>;
