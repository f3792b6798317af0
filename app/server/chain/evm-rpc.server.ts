/**
 * Ethereum through JSON-RPC (a node or a provider; locally the chain simulator): blocks with their transactions for
 * Ether, and the USDT contract's Transfer logs for a range of blocks, one call each however many clients there are.
 */
import { ChainApiError } from "./esplora.server";

const TIMEOUT_MS = 10_000;
/** keccak256("Transfer(address,address,uint256)"): the ERC-20 Transfer event's topic. */
export const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

const hex = (n: number) => `0x${n.toString(16)}`;
const isHash = (value: unknown): value is string => typeof value === "string" && /^0x[0-9a-f]{64}$/i.test(value);
const isAddress = (value: unknown): value is string => typeof value === "string" && /^0x[0-9a-f]{40}$/i.test(value);

export interface EvmBlock {
  height: number;
  hash: string;
  parentHash: string;
  transfers: Array<{ txid: string; to: string; value: bigint }>;
}

export interface TokenTransfer {
  txid: string;
  logIndex: number;
  to: string;
  value: bigint;
  height: number;
  blockHash: string;
}

/** A transaction and its receipt as the payout check reads them; `height` null while it waits to be mined. */
export interface EvmTransaction {
  to: string | null;
  value: bigint;
  height: number | null;
  /** Mined and succeeded (receipt status 1); false when mined and reverted; null before a receipt. */
  succeeded: boolean | null;
  /** gasUsed × effectiveGasPrice, in wei, once mined. */
  feeWei: bigint | null;
  /** The receipt's logs: a token transfer is read from them. */
  logs: Array<{ address: string; topics: string[]; data: string; logIndex: number }>;
}

const quantityOf = (value: unknown): bigint => {
  if (typeof value !== "string" || !/^0x[0-9a-f]+$/i.test(value)) throw new ChainApiError("JSON-RPC: bad quantity");
  return BigInt(value);
};

export function evmRpc(url: string) {
  let id = 0;
  async function call<T>(method: string, params: unknown[]): Promise<T> {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new ChainApiError(`JSON-RPC ${method}: HTTP ${response.status}`);
    }
    const answer = (await response.json()) as { result?: T; error?: { message?: string } };
    if (answer.error) throw new ChainApiError(`JSON-RPC ${method}: ${answer.error.message ?? "error"}`);
    return answer.result as T;
  }
  return {
    /** The id of the chain the node is on (EIP-155): 1 for mainnet. */
    async chainId(): Promise<number> {
      const id = Number.parseInt(await call<string>("eth_chainId", []), 16);
      if (!Number.isSafeInteger(id) || id < 1) throw new ChainApiError("JSON-RPC: bad chain id");
      return id;
    },
    async tipHeight(): Promise<number> {
      const result = await call<string>("eth_blockNumber", []);
      const height = Number.parseInt(result, 16);
      if (!Number.isSafeInteger(height)) throw new ChainApiError("JSON-RPC: bad block number");
      return height;
    },
    /** A block with its Ether transfers (transactions with a value and a recipient); null past the tip. */
    async block(height: number): Promise<EvmBlock | null> {
      const block = await call<{
        hash?: unknown;
        parentHash?: unknown;
        transactions?: Array<{ hash?: unknown; to?: unknown; value?: unknown }>;
      } | null>("eth_getBlockByNumber", [hex(height), true]);
      if (!block) return null;
      if (!isHash(block.hash) || !isHash(block.parentHash) || !Array.isArray(block.transactions))
        throw new ChainApiError("JSON-RPC: bad block");
      const transfers = block.transactions.flatMap((tx) =>
        isHash(tx.hash) && isAddress(tx.to) && typeof tx.value === "string" && BigInt(tx.value) > 0n
          ? [{ txid: tx.hash.toLowerCase(), to: tx.to.toLowerCase(), value: BigInt(tx.value) }]
          : [],
      );
      return { height, hash: block.hash.toLowerCase(), parentHash: block.parentHash.toLowerCase(), transfers };
    },
    /** The token's Transfer logs in a range of blocks, to anyone: matched against our addresses afterwards. */
    async tokenTransfers(contract: string, from: number, to: number): Promise<TokenTransfer[]> {
      const logs = await call<Array<Record<string, unknown>>>("eth_getLogs", [
        { fromBlock: hex(from), toBlock: hex(to), address: contract, topics: [TRANSFER_TOPIC] },
      ]);
      if (!Array.isArray(logs)) throw new ChainApiError("JSON-RPC: bad logs");
      return logs.flatMap((log) => {
        const topics = log.topics as unknown[];
        // Only the token's own Transfer logs: a provider's answer may hold others (another token anyone can mint).
        if (
          log.removed === true ||
          typeof log.address !== "string" ||
          log.address.toLowerCase() !== contract.toLowerCase() ||
          !Array.isArray(topics) ||
          topics.length !== 3 ||
          topics[0] !== TRANSFER_TOPIC ||
          !isHash(log.transactionHash)
        )
          return [];
        const recipient = typeof topics[2] === "string" ? `0x${topics[2].slice(-40)}`.toLowerCase() : "";
        if (!isAddress(recipient) || typeof log.data !== "string" || !isHash(log.blockHash)) return [];
        return [
          {
            txid: log.transactionHash.toLowerCase(),
            logIndex: Number.parseInt(String(log.logIndex), 16),
            to: recipient,
            value: BigInt(log.data),
            height: Number.parseInt(String(log.blockNumber), 16),
            blockHash: log.blockHash.toLowerCase(),
          },
        ];
      });
    },
    /** A transaction with its receipt (when mined); null when the node does not know it. */
    async transaction(txid: string): Promise<EvmTransaction | null> {
      const tx = await call<Record<string, unknown> | null>("eth_getTransactionByHash", [txid]);
      if (!tx) return null;
      if (typeof tx.hash !== "string" || tx.hash.toLowerCase() !== txid)
        throw new ChainApiError("JSON-RPC: bad transaction");
      const to = isAddress(tx.to) ? tx.to.toLowerCase() : null;
      const value = quantityOf(tx.value);
      if (tx.blockNumber === null || tx.blockNumber === undefined)
        return { to, value, height: null, succeeded: null, feeWei: null, logs: [] };
      const receipt = await call<Record<string, unknown> | null>("eth_getTransactionReceipt", [txid]);
      if (!receipt) return { to, value, height: null, succeeded: null, feeWei: null, logs: [] };
      const logs = Array.isArray(receipt.logs) ? (receipt.logs as Array<Record<string, unknown>>) : [];
      return {
        to,
        value,
        height: Number(quantityOf(receipt.blockNumber)),
        succeeded: receipt.status === "0x1",
        feeWei: quantityOf(receipt.gasUsed) * quantityOf(receipt.effectiveGasPrice ?? tx.gasPrice),
        logs: logs.flatMap((log) =>
          typeof log.address === "string" && Array.isArray(log.topics) && typeof log.data === "string"
            ? [
                {
                  address: log.address.toLowerCase(),
                  topics: (log.topics as unknown[]).map((topic) => String(topic).toLowerCase()),
                  data: log.data,
                  logIndex: Number(quantityOf(log.logIndex)),
                },
              ]
            : [],
        ),
      };
    },
    /** Whether the node still knows a transaction (a payment reorganised out and not mined again is dropped). */
    async knowsTransaction(txid: string): Promise<boolean> {
      return (await call<unknown>("eth_getTransactionByHash", [txid])) !== null;
    },
  };
}

export type EvmRpc = ReturnType<typeof evmRpc>;
