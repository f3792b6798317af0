/**
 * Where the deposit watcher reads each chain and how many confirmations credit a payment (wrangler vars; local
 * defaults point at the chain simulator `npm run dev` starts). A chain without its API address is not watched:
 * its wallets stay on the claim flow even with a key. Validated once per isolate, like the rest of the configuration.
 */
import { z } from "zod";
import { settingsReader } from "../settings-reader.server";

const httpUrl = (name: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => value?.replace(/\/+$/, "") || undefined)
    .refine((value) => value === undefined || /^https?:\/\/[^\s]+$/.test(value), `${name} must be an http(s) URL`);

const count = (name: string, fallback: number) =>
  z.preprocess(
    (value) => (value === undefined || value === "" ? String(fallback) : String(value).trim()),
    z
      .string()
      .regex(/^\d{1,3}$/, `${name} must be a whole number of confirmations`)
      .transform(Number)
      .refine((n) => n >= 1, `${name} must be at least 1`),
  );

const settingsSchema = z
  .object({
    ENVIRONMENT: z.string().optional(),
    /** An Esplora API (mempool.space's, Blockstream's, or the deployment's own). */
    BITCOIN_ESPLORA_URL: httpUrl("BITCOIN_ESPLORA_URL"),
    /** mainnet (bc1q…, zpub) or testnet (tb1q…, vpub): a key of the other network is refused. */
    BITCOIN_NETWORK: z.enum(["mainnet", "testnet"]).optional().default("mainnet"),
    BITCOIN_CONFIRMATIONS: count("BITCOIN_CONFIRMATIONS", 2),
    /** An Ethereum JSON-RPC endpoint: the deployment's node or its provider's URL (with its key). */
    ETHEREUM_RPC_URL: httpUrl("ETHEREUM_RPC_URL"),
    ETHEREUM_CONFIRMATIONS: count("ETHEREUM_CONFIRMATIONS", 12),
    /** The chain the node must be on (eth_chainId): 1 is mainnet; a node on any other chain is not scanned. */
    ETHEREUM_CHAIN_ID: z.preprocess(
      (value) => (value === undefined || value === "" ? "1" : String(value).trim()),
      z
        .string()
        .regex(/^[1-9]\d{0,14}$/, "ETHEREUM_CHAIN_ID must be a chain id, a whole number (1 for mainnet)")
        .transform(Number),
    ),
    USDT_ERC20_CONTRACT: z
      .string()
      .trim()
      .optional()
      .default("0xdAC17F958D2ee523a2206206994597C13D831ec7")
      .refine((value) => /^0x[0-9a-fA-F]{40}$/.test(value), "USDT_ERC20_CONTRACT must be a 0x address")
      .transform((value) => value.toLowerCase()),
    /** A CoinGecko-style price API. */
    RATES_URL: httpUrl("RATES_URL"),
    /** Where a payout's transaction is shown to its client: `<url>/tx/<id>`. */
    BITCOIN_EXPLORER_URL: httpUrl("BITCOIN_EXPLORER_URL"),
    ETHEREUM_EXPLORER_URL: httpUrl("ETHEREUM_EXPLORER_URL"),
  })
  .refine(
    (s) =>
      s.ENVIRONMENT !== "production" ||
      [s.BITCOIN_ESPLORA_URL, s.ETHEREUM_RPC_URL, s.RATES_URL, s.BITCOIN_EXPLORER_URL, s.ETHEREUM_EXPLORER_URL].every(
        (url) => !url || url.startsWith("https://"),
      ),
    { message: "the chain, rate and explorer URLs must be https in production" },
  );

export interface ChainSettings {
  bitcoin: { esploraUrl?: string; network: "mainnet" | "testnet"; confirmations: number };
  ethereum: { rpcUrl?: string; usdtContract: string; confirmations: number; chainId: number };
  ratesUrl?: string;
  explorers: { bitcoin: string; ethereum: string };
}

export { RATE_MAX_AGE_MS } from "~/lib/chain/deposit-texts";

/** The chain settings of these bindings. */
export const chainSettings = settingsReader(settingsSchema, (s): ChainSettings => {
  return {
    bitcoin: { esploraUrl: s.BITCOIN_ESPLORA_URL, network: s.BITCOIN_NETWORK, confirmations: s.BITCOIN_CONFIRMATIONS },
    ethereum: {
      rpcUrl: s.ETHEREUM_RPC_URL,
      usdtContract: s.USDT_ERC20_CONTRACT,
      confirmations: s.ETHEREUM_CONFIRMATIONS,
      chainId: s.ETHEREUM_CHAIN_ID,
    },
    ratesUrl: s.RATES_URL,
    explorers: {
      bitcoin: s.BITCOIN_EXPLORER_URL ?? "https://mempool.space",
      ethereum: s.ETHEREUM_EXPLORER_URL ?? "https://etherscan.io",
    },
  };
});
