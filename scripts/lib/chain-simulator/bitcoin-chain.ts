/**
 * One world's bitcoin chain: the blocks from height 0, the mempool, and what the control API does to them (pay,
 * mine, reorg, replace-by-fee). Everything stays in memory; a world is thrown away with the simulator.
 */

import {
  type BitcoinOutput,
  type BitcoinTx,
  blockHeader,
  buildTx,
  coinbaseTx,
  dummyInput,
  isCoinbase,
  p2wpkhAddress,
  p2wpkhProgram,
  randomOutput,
} from "./bitcoin-tx.ts";
import { digestOf, randomBytes, reversedHex, sha256d } from "./bytes.ts";

export interface BitcoinBlock {
  height: number;
  hash: string;
  previousHash: string;
  timestamp: number;
  header: Uint8Array;
  txs: BitcoinTx[];
}

/** Where a transaction is: in a block (confirmed) or the mempool (not). */
export interface BitcoinTxPlace {
  tx: BitcoinTx;
  block?: BitcoinBlock;
}

const START_HEIGHT = 100;
const BLOCK_SECONDS = 600;
/** The block subsidy since the 2024 halving; only the coinbase shows it. */
const SUBSIDY = 312_500_000n;
export const DEFAULT_FEE_SATS = 1_000n;
/** What a replacement pays on top of the replaced transaction's fee, as BIP 125 asks for more. */
const REPLACEMENT_EXTRA_FEE = 500n;

const nowSeconds = () => Math.floor(Date.now() / 1000);

export class BitcoinChain {
  readonly blocks: BitcoinBlock[] = [];
  /** Unconfirmed transactions in arrival order: the order the next block takes them in. */
  readonly mempool = new Map<string, BitcoinTx>();
  private readonly confirmed = new Map<string, BitcoinBlock>();
  private readonly miner: BitcoinOutput;

  constructor(ns: string) {
    const program = digestOf(ns, "bitcoin miner").slice(0, 20);
    this.miner = { value: SUBSIDY, program, address: p2wpkhAddress("tb", program) };
    const start = nowSeconds() - START_HEIGHT * BLOCK_SECONDS;
    for (let height = 0; height <= START_HEIGHT; height++) {
      // Ten minutes apart up to now, as a chain that has been running; each a block of its own namespace.
      this.append([], start + height * BLOCK_SECONDS, digestOf(ns, height, "genesis").slice(0, 8));
    }
  }

  get tip(): BitcoinBlock {
    return this.blocks[this.blocks.length - 1] as BitcoinBlock;
  }

  private append(txs: BitcoinTx[], timestamp: number, tag: Uint8Array): BitcoinBlock {
    const height = this.blocks.length;
    const previousHash = height === 0 ? "0".repeat(64) : this.tip.hash;
    const fees = txs.reduce((sum, tx) => sum + tx.fee, 0n);
    const coinbase = coinbaseTx(height, tag, { ...this.miner, value: SUBSIDY + fees });
    const all = [coinbase, ...txs];
    const header = blockHeader(previousHash, all, timestamp);
    const block = { height, hash: reversedHex(sha256d(header)), previousHash, timestamp, header, txs: all };
    this.blocks.push(block);
    for (const tx of all) this.confirmed.set(tx.txid, block);
    return block;
  }

  /** Pays `sats` to a P2WPKH address from a wallet nobody watches; the change goes to a random key. */
  /** `copies` outputs of `sats` each to the address (a batch payout paying one address twice), and change. */
  pay(address: string, sats: bigint, fee = DEFAULT_FEE_SATS, copies = 1): { txid: string; outputIndex: number } {
    const program = p2wpkhProgram(address);
    if (!program) throw new Error(`${address} is not a v0 P2WPKH address (tb1q…, bcrt1q…, bc1q…)`);
    const prefix = address.trim().toLowerCase().split("1")[0] ?? "tb";
    const paid: BitcoinOutput = { value: sats, program, address: address.trim().toLowerCase() };
    const change = randomOutput(prefix, BigInt(10_000 + Math.floor(Math.random() * 5_000_000)));
    // The paid output is not always first, as with real wallets: a watcher must read the vout it is told.
    const outputIndex = Math.random() < 0.5 ? 0 : 1;
    const paying = Array.from({ length: copies }, () => paid);
    const outputs = outputIndex === 0 ? [...paying, change] : [change, ...paying];
    const tx = buildTx([dummyInput()], outputs, fee);
    this.mempool.set(tx.txid, tx);
    return { txid: tx.txid, outputIndex };
  }

  /** Other people's payments (two outputs each, to keys nobody watches): a block as full as a real one, for the bench. */
  payStrangers(count: number, prefix = "tb"): void {
    for (let i = 0; i < count; i++) {
      const outputs = [randomOutput(prefix, 50_000n + BigInt(i)), randomOutput(prefix, 1_000_000n)];
      const tx = buildTx([dummyInput()], outputs, DEFAULT_FEE_SATS);
      this.mempool.set(tx.txid, tx);
    }
  }

  /** Mines `count` blocks; the first takes the whole mempool. */
  mine(count: number): BitcoinBlock[] {
    const mined: BitcoinBlock[] = [];
    for (let i = 0; i < count; i++) {
      const txs = i === 0 ? [...this.mempool.values()] : [];
      this.mempool.clear();
      mined.push(this.append(txs, Math.max(this.tip.timestamp + 1, nowSeconds()), randomBytes(8)));
    }
    return mined;
  }

  /**
   * Replaces the last `depth` blocks with as many empty ones. The orphaned blocks' payments go back to the mempool
   * (the next `mine` confirms them again, in a block of another hash), or vanish with `drop`.
   */
  reorg(depth: number, drop: boolean): void {
    if (depth > this.tip.height) throw new Error(`a reorg goes at most ${this.tip.height} blocks deep here`);
    const orphaned = this.blocks.splice(this.blocks.length - depth, depth);
    const returning = new Map<string, BitcoinTx>();
    for (const block of orphaned) {
      for (const tx of block.txs) {
        this.confirmed.delete(tx.txid);
        if (!drop && !isCoinbase(tx)) returning.set(tx.txid, tx);
      }
    }
    // Back first, ahead of anything that arrived later, as a node puts them back.
    const waiting = [...this.mempool.values()];
    this.mempool.clear();
    for (const tx of [...returning.values(), ...waiting]) this.mempool.set(tx.txid, tx);
    for (const block of orphaned) this.append([], block.timestamp + 1, randomBytes(8));
  }

  /** Replace-by-fee: the same input spent again, to a random other address, with a higher fee. */
  replace(txid: string): string {
    const old = this.mempool.get(txid);
    if (!old) {
      throw new Error(
        this.confirmed.has(txid) ? `${txid} is confirmed: only a mempool tx can be replaced` : `no mempool tx ${txid}`,
      );
    }
    const input = old.inputs[0];
    if (!input) throw new Error(`${txid} has no input`);
    const total = old.outputs.reduce((sum, output) => sum + output.value, 0n);
    const prefix = old.outputs[0]?.address.split("1")[0] ?? "tb";
    const outputs = [randomOutput(prefix, total - REPLACEMENT_EXTRA_FEE)];
    const replacement = buildTx([dummyInput(input)], outputs, old.fee + REPLACEMENT_EXTRA_FEE);
    this.mempool.delete(txid);
    this.mempool.set(replacement.txid, replacement);
    return replacement.txid;
  }

  find(txid: string): BitcoinTxPlace | undefined {
    const block = this.confirmed.get(txid);
    if (block) return { tx: block.txs.find((tx) => tx.txid === txid) as BitcoinTx, block };
    const tx = this.mempool.get(txid);
    return tx ? { tx } : undefined;
  }

  blockByHash(hash: string): BitcoinBlock | undefined {
    return this.blocks.find((block) => block.hash === hash);
  }

  /** The mempool's transactions with an output to this program. */
  mempoolPaying(program: Uint8Array): BitcoinTx[] {
    const key = Buffer.from(program).toString("hex");
    return [...this.mempool.values()].filter((tx) =>
      tx.outputs.some((output) => Buffer.from(output.program).toString("hex") === key),
    );
  }
}
