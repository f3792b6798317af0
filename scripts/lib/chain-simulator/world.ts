/**
 * A namespace's world: its own bitcoin and Ethereum chains, its USD rates, its stock quotes and its outage switches. Each namespace
 * (`dev` for `npm run dev`, one per test file) is made on its first request and never shares state with another.
 */

import { QuoteBoard } from "../quotes-simulator/board.ts";
import { BitcoinChain } from "./bitcoin-chain.ts";
import { EthereumChain } from "./ethereum-chain.ts";

export type Asset = "BTC" | "ETH" | "USDT";
export const ASSETS: Asset[] = ["BTC", "ETH", "USDT"];
export type Service = "bitcoin" | "ethereum" | "rates";
export const SERVICES: Service[] = ["bitcoin", "ethereum", "rates"];

export interface Rate {
  usd: number;
  /** Unix seconds the rate was set with; absent, the rate reads as updated just now. */
  at?: number;
}

export const DEFAULT_RATES: Record<Asset, number> = { BTC: 65_000, ETH: 3_200, USDT: 1 };

export class World {
  readonly bitcoin: BitcoinChain;
  readonly ethereum: EthereumChain;
  readonly rates: Record<Asset, Rate> = {
    BTC: { usd: DEFAULT_RATES.BTC },
    ETH: { usd: DEFAULT_RATES.ETH },
    USDT: { usd: DEFAULT_RATES.USDT },
  };
  /** The services answering 503 to every read. */
  readonly outages = new Set<Service>();
  /** Blocks at each chain's tip its API does not know yet: a node of a provider's pool that lags the others. */
  readonly behind: Record<"bitcoin" | "ethereum", number> = { bitcoin: 0, ethereum: 0 };

  /** Stock quotes, Alpaca's way (the quotes simulator, scripts/lib/quotes-simulator/). */
  readonly quotes = new QuoteBoard();

  readonly ns: string;

  constructor(ns: string) {
    this.ns = ns;
    this.bitcoin = new BitcoinChain(ns);
    this.ethereum = new EthereumChain(ns);
  }
}

export const NAMESPACE = /^[a-z0-9-]{1,40}$/;

export class Worlds {
  private readonly all = new Map<string, World>();

  get(ns: string): World {
    let world = this.all.get(ns);
    if (!world) {
      world = new World(ns);
      this.all.set(ns, world);
    }
    return world;
  }
}
