/**
 * One world's Ethereum chain (Sepolia's id): blocks from number 0, the pending pool, ether and ERC-20 (USDT)
 * payments, mining and reorgs. A token payment is a call of the contract's transfer() whose receipt holds one
 * Transfer log, as a real token transfer's does.
 */
import { digestOf, quantity, randomBytes, toHex, word } from "./bytes.ts";

export { USDT_CONTRACT } from "./client.ts";
export const USDT_DECIMALS = 6;
/** keccak256("Transfer(address,address,uint256)"): topic 0 of every ERC-20 transfer log. */
export const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
/** transfer(address,uint256)'s selector. */
const TRANSFER_SELECTOR = "a9059cbb";

export interface EthLog {
  address: string;
  topics: string[];
  data: string;
}

export interface EthTx {
  hash: string;
  from: string;
  to: string;
  value: bigint;
  input: string;
  nonce: number;
  gas: bigint;
  gasUsed: bigint;
  gasPrice: bigint;
  logs: EthLog[];
}

export interface EthBlock {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
  txs: EthTx[];
}

/** Where a transaction is: a block (mined) or the pending pool. */
export interface EthTxPlace {
  tx: EthTx;
  block?: EthBlock;
  index?: number;
}

const START_NUMBER = 1000;
const BLOCK_SECONDS = 12;
const GAS_PRICE = 2_000_000_000n;

const nowSeconds = () => Math.floor(Date.now() / 1000);
const hex32 = (bytes: Uint8Array) => `0x${toHex(bytes)}`;
export const isEthAddress = (address: string) => /^0x[0-9a-fA-F]{40}$/.test(address.trim());

export class EthereumChain {
  readonly blocks: EthBlock[] = [];
  /** Sent but not mined, in arrival order: not visible in blocks or logs until the next `mine`. */
  readonly pending: EthTx[] = [];
  private readonly mined = new Map<string, { block: EthBlock; index: number }>();
  private nonce = 0;
  private readonly ns: string;

  constructor(ns: string) {
    this.ns = ns;
    const start = nowSeconds() - START_NUMBER * BLOCK_SECONDS;
    for (let number = 0; number <= START_NUMBER; number++) {
      this.append([], start + number * BLOCK_SECONDS, "genesis");
    }
  }

  get tip(): EthBlock {
    return this.blocks[this.blocks.length - 1] as EthBlock;
  }

  private append(txs: EthTx[], timestamp: number, salt: string): EthBlock {
    const number = this.blocks.length;
    const block: EthBlock = {
      number,
      // Of this namespace, and salted: a block mined again in a reorg gets another hash.
      hash: hex32(digestOf(this.ns, "ethereum", number, salt)),
      parentHash: number === 0 ? word("0") : this.tip.hash,
      timestamp,
      txs,
    };
    this.blocks.push(block);
    txs.forEach((tx, index) => {
      this.mined.set(tx.hash, { block, index });
    });
    return block;
  }

  private send(tx: Omit<EthTx, "hash" | "from" | "nonce" | "gasPrice">, from: string): EthTx {
    const sent = { ...tx, hash: hex32(randomBytes(32)), from, nonce: this.nonce++, gasPrice: GAS_PRICE };
    this.pending.push(sent);
    return sent;
  }

  /** Ether from a random account; `wei` to `to`. */
  pay(to: string, wei: bigint): { txid: string; outputIndex: number } {
    const from = hex32(randomBytes(20));
    const tx = this.send(
      { to: to.toLowerCase(), value: wei, input: "0x", gas: 21_000n, gasUsed: 21_000n, logs: [] },
      from,
    );
    return { txid: tx.hash, outputIndex: 0 };
  }

  /**
   * A token transfer of `units` (the token's smallest unit) to `to`. Its outputIndex is the log's index in the block
   * the next `mine` puts it in, which counts the logs of the transactions pending before it.
   */
  payToken(contract: string, to: string, units: bigint): { txid: string; outputIndex: number } {
    const from = hex32(randomBytes(20));
    const recipient = to.toLowerCase();
    const amount = units.toString(16);
    const logIndex = this.pending.reduce((sum, tx) => sum + tx.logs.length, 0);
    const log: EthLog = {
      address: contract.toLowerCase(),
      topics: [TRANSFER_TOPIC, word(from), word(recipient)],
      data: word(amount),
    };
    const input = `0x${TRANSFER_SELECTOR}${word(recipient).slice(2)}${word(amount).slice(2)}`;
    const tx = this.send(
      { to: contract.toLowerCase(), value: 0n, input, gas: 65_000n, gasUsed: 51_000n, logs: [log] },
      from,
    );
    return { txid: tx.hash, outputIndex: logIndex };
  }

  /** Mines `count` blocks; the first takes every pending transaction. */
  mine(count: number): EthBlock[] {
    const blocks: EthBlock[] = [];
    for (let i = 0; i < count; i++) {
      const txs = i === 0 ? this.pending.splice(0) : [];
      const timestamp = Math.max(this.tip.timestamp + 1, nowSeconds());
      blocks.push(this.append(txs, timestamp, toHex(randomBytes(8))));
    }
    return blocks;
  }

  /** The last `depth` blocks replaced by empty ones; their transactions back to the pool, or gone with `drop`. */
  reorg(depth: number, drop: boolean): void {
    if (depth > this.tip.number) throw new Error(`a reorg goes at most ${this.tip.number} blocks deep here`);
    const orphaned = this.blocks.splice(this.blocks.length - depth, depth);
    const returning = orphaned.flatMap((block) => block.txs);
    for (const tx of returning) this.mined.delete(tx.hash);
    if (!drop) this.pending.unshift(...returning);
    for (const block of orphaned) this.append([], block.timestamp + 1, toHex(randomBytes(8)));
  }

  find(hash: string): EthTxPlace | undefined {
    const key = hash.toLowerCase();
    const place = this.mined.get(key);
    if (place) return { tx: place.block.txs[place.index] as EthTx, ...place };
    const tx = this.pending.find((candidate) => candidate.hash === key);
    return tx ? { tx } : undefined;
  }

  blockByHash(hash: string): EthBlock | undefined {
    const key = hash.toLowerCase();
    return this.blocks.find((block) => block.hash === key);
  }
}

/** A block's logs with the block-wide index each has, as receipts and eth_getLogs number them. */
export function logsOf(block: EthBlock) {
  let logIndex = 0;
  return block.txs.flatMap((tx, transactionIndex) =>
    tx.logs.map((log) => ({
      ...log,
      blockNumber: quantity(block.number),
      blockHash: block.hash,
      transactionHash: tx.hash,
      transactionIndex: quantity(transactionIndex),
      logIndex: quantity(logIndex++),
      removed: false,
    })),
  );
}
