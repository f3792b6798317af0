/**
 * The Ethereum JSON-RPC 2.0 methods a deposit watcher calls, over one world's chain: chain id, block number, blocks
 * with their transactions, Transfer logs by range, address and topics, a transaction and its receipt. Single calls
 * and batches; a bad call gets a JSON-RPC error object, never an HTTP error.
 */
import { quantity } from "./bytes.ts";
import { SIMULATOR_CHAIN_ID } from "./client.ts";
import { type EthBlock, type EthereumChain, type EthTxPlace, logsOf } from "./ethereum-chain.ts";

/** The chain as one node answers for it: the whole of it, or without its last blocks (a node behind). */
type EthereumView = Pick<EthereumChain, "tip" | "blocks" | "blockByHash" | "find">;

/** A node that has not received the last `behind` blocks: they are unknown, and their transactions pending. */
function lagging(chain: EthereumChain, behind: number): EthereumView {
  if (behind === 0) return chain;
  const blocks = chain.blocks.slice(0, Math.max(1, chain.blocks.length - behind));
  const known = (block?: EthBlock) => (block && block.number < blocks.length ? block : undefined);
  return {
    tip: blocks[blocks.length - 1] as EthBlock,
    blocks,
    blockByHash: (hash) => known(chain.blockByHash(hash)),
    find: (hash) => {
      const place = chain.find(hash);
      return place && !known(place.block) ? { tx: place.tx } : place;
    },
  };
}

/** Sepolia's chain id (11155111, 0xaa36a7). */
export const CHAIN_ID = quantity(SIMULATOR_CHAIN_ID);

interface RpcRequest {
  jsonrpc?: string;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

class RpcError extends Error {
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

const invalidParams = (message: string) => new RpcError(-32602, message);

function txJson({ tx, block, index }: EthTxPlace) {
  return {
    hash: tx.hash,
    from: tx.from,
    to: tx.to,
    value: quantity(tx.value),
    input: tx.input,
    nonce: quantity(tx.nonce),
    gas: quantity(tx.gas),
    gasPrice: quantity(tx.gasPrice),
    type: "0x0",
    chainId: CHAIN_ID,
    blockNumber: block ? quantity(block.number) : null,
    blockHash: block?.hash ?? null,
    transactionIndex: index === undefined ? null : quantity(index),
  };
}

function blockJson(block: EthBlock, full: boolean) {
  return {
    number: quantity(block.number),
    hash: block.hash,
    parentHash: block.parentHash,
    timestamp: quantity(block.timestamp),
    gasUsed: quantity(block.txs.reduce((sum, tx) => sum + tx.gasUsed, 0n)),
    transactions: block.txs.map((tx, index) => (full ? txJson({ tx, block, index }) : tx.hash)),
  };
}

function receiptJson(place: EthTxPlace) {
  const { tx, block, index } = place;
  if (!block || index === undefined) return null;
  const logs = logsOf(block).filter((log) => log.transactionHash === tx.hash);
  return {
    transactionHash: tx.hash,
    transactionIndex: quantity(index),
    blockNumber: quantity(block.number),
    blockHash: block.hash,
    from: tx.from,
    to: tx.to,
    contractAddress: null,
    status: "0x1",
    type: "0x0",
    gasUsed: quantity(tx.gasUsed),
    cumulativeGasUsed: quantity(block.txs.slice(0, index + 1).reduce((sum, each) => sum + each.gasUsed, 0n)),
    effectiveGasPrice: quantity(tx.gasPrice),
    logs,
  };
}

/** A block tag or hex number as a block number; `latest` (and the other tags of now) is the tip. */
function blockNumberOf(chain: EthereumView, tag: unknown, fallback = "latest"): number {
  const value = tag ?? fallback;
  if (value === "earliest") return 0;
  if (value === "latest" || value === "pending" || value === "safe" || value === "finalized") return chain.tip.number;
  if (typeof value === "string" && /^0x[0-9a-f]+$/i.test(value)) return Number.parseInt(value, 16);
  throw invalidParams(`invalid block number or tag: ${JSON.stringify(value)}`);
}

/** A topic filter position: null matches anything, a value or a list of values matches any of them. */
function topicMatches(filter: unknown, topic: string | undefined): boolean {
  if (filter === null || filter === undefined) return true;
  const wanted = (Array.isArray(filter) ? filter : [filter]).map((item) => String(item).toLowerCase());
  return topic !== undefined && wanted.includes(topic.toLowerCase());
}

function getLogs(chain: EthereumView, filter: Record<string, unknown>) {
  const addresses = filter.address === undefined ? null : [filter.address].flat().map((a) => String(a).toLowerCase());
  const topics = Array.isArray(filter.topics) ? filter.topics : [];
  let blocks: EthBlock[];
  if (typeof filter.blockHash === "string") {
    const block = chain.blockByHash(filter.blockHash);
    if (!block) throw new RpcError(-32000, "unknown block");
    blocks = [block];
  } else {
    const from = blockNumberOf(chain, filter.fromBlock);
    const to = Math.min(blockNumberOf(chain, filter.toBlock), chain.tip.number);
    if (from > to && from <= chain.tip.number) throw invalidParams("invalid block range params");
    blocks = chain.blocks.slice(from, to + 1);
  }
  return blocks
    .flatMap(logsOf)
    .filter(
      (log) =>
        (!addresses || addresses.includes(log.address)) &&
        topics.every((position, index) => topicMatches(position, log.topics[index])),
    );
}

function call(chain: EthereumView, method: unknown, params: unknown[]): unknown {
  switch (method) {
    case "eth_chainId":
      return CHAIN_ID;
    case "net_version":
      return String(Number.parseInt(CHAIN_ID, 16));
    case "eth_blockNumber":
      return quantity(chain.tip.number);
    case "eth_getBlockByNumber": {
      const block = chain.blocks[blockNumberOf(chain, params[0])];
      return block ? blockJson(block, params[1] === true) : null;
    }
    case "eth_getBlockByHash": {
      const block = chain.blockByHash(String(params[0]));
      return block ? blockJson(block, params[1] === true) : null;
    }
    case "eth_getLogs": {
      const filter = params[0];
      if (typeof filter !== "object" || filter === null) throw invalidParams("eth_getLogs takes a filter object");
      return getLogs(chain, filter as Record<string, unknown>);
    }
    case "eth_getTransactionByHash": {
      const place = chain.find(String(params[0]));
      return place ? txJson(place) : null;
    }
    case "eth_getTransactionReceipt": {
      const place = chain.find(String(params[0]));
      return place ? receiptJson(place) : null;
    }
    default:
      throw new RpcError(-32601, `the method ${String(method)} does not exist/is not available`);
  }
}

function answer(chain: EthereumView, request: unknown) {
  const { id = null, method, params = [] } = (request ?? {}) as RpcRequest;
  if (typeof request !== "object" || request === null || typeof method !== "string") {
    return { jsonrpc: "2.0", id, error: { code: -32600, message: "invalid request" } };
  }
  try {
    if (!Array.isArray(params)) throw invalidParams("params must be an array");
    return { jsonrpc: "2.0", id, result: call(chain, method, params) };
  } catch (error) {
    const { code, message } = error instanceof RpcError ? error : { code: -32603, message: String(error) };
    return { jsonrpc: "2.0", id, error: { code, message } };
  }
}

/** The JSON body of a POST: one request or a batch, answered in kind, by a node `behind` blocks behind the chain. */
export function ethereumRpc(whole: EthereumChain, body: string, behind = 0): unknown {
  const chain = lagging(whole, behind);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } };
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) return { jsonrpc: "2.0", id: null, error: { code: -32600, message: "empty batch" } };
    return parsed.map((request) => answer(chain, request));
  }
  return answer(chain, parsed);
}
