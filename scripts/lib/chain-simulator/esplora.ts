/**
 * The part of Esplora's HTTP API (mempool.space, Blockstream) a deposit watcher reads, over one world's bitcoin
 * chain: tip, blocks by height and hash (JSON and raw bytes), transactions and their status, an address's mempool.
 * Answers carry Esplora's field names and its plain-text errors.
 */
import type { BitcoinBlock, BitcoinChain } from "./bitcoin-chain.ts";
import type { BitcoinTx } from "./bitcoin-tx.ts";
import { blockBytes, p2wpkhProgram, p2wpkhScript } from "./bitcoin-tx.ts";
import { toHex } from "./bytes.ts";
import { binary, json, type Reply, text } from "./reply.ts";

function statusJson(block?: BitcoinBlock) {
  return block
    ? { confirmed: true, block_height: block.height, block_hash: block.hash, block_time: block.timestamp }
    : { confirmed: false };
}

export function txJson(tx: BitcoinTx, block?: BitcoinBlock) {
  return {
    txid: tx.txid,
    version: 2,
    locktime: 0,
    vin: tx.inputs.map((input) => ({
      txid: input.txid,
      vout: input.vout,
      prevout: null,
      scriptsig: toHex(input.scriptSig),
      witness: input.witness.map(toHex),
      is_coinbase: /^0+$/.test(input.txid),
      sequence: input.sequence,
    })),
    vout: tx.outputs.map((output) => ({
      scriptpubkey: toHex(p2wpkhScript(output.program)),
      scriptpubkey_address: output.address,
      scriptpubkey_type: "v0_p2wpkh",
      value: output.value,
    })),
    size: tx.raw.length,
    weight: tx.base.length * 3 + tx.raw.length,
    fee: tx.fee,
    status: statusJson(block),
  };
}

const blockJson = (block: BitcoinBlock) => ({
  id: block.hash,
  height: block.height,
  version: 0x20000000,
  timestamp: block.timestamp,
  tx_count: block.txs.length,
  previousblockhash: block.previousHash,
});

const TX_NOT_FOUND = () => text("Transaction not found", 404);
const BLOCK_NOT_FOUND = () => text("Block not found", 404);

/**
 * `path` is what follows `/<ns>/bitcoin/api`, split on `/`. `behind`: how many of the tip's blocks this API does not
 * know yet (a lagging node): they answer 404 and their transactions read as unconfirmed, as such a node answers.
 */
export function esplora(chain: BitcoinChain, method: string, path: string[], behind = 0): Reply {
  if (method !== "GET") return text("Method not allowed", 405);
  const top = chain.blocks[Math.max(0, chain.tip.height - behind)] as BitcoinBlock;
  const known = (block: BitcoinBlock | undefined) => (block && block.height <= top.height ? block : undefined);
  const [first, second, third, fourth] = path;
  if (first === "blocks" && second === "tip" && path.length === 3) {
    if (third === "height") return text(String(top.height));
    if (third === "hash") return text(top.hash);
  }
  if (first === "block-height" && path.length === 2) {
    const height = Number(second);
    const block = /^\d+$/.test(second ?? "") ? known(chain.blocks[height]) : undefined;
    return block ? text(block.hash) : BLOCK_NOT_FOUND();
  }
  if (first === "block" && second) {
    const block = known(chain.blockByHash(second.toLowerCase()));
    if (!block) return BLOCK_NOT_FOUND();
    if (path.length === 2) return json(blockJson(block));
    if (third === "raw" && path.length === 3) return binary(blockBytes(block.header, block.txs));
    if (third === "txids" && path.length === 3) return json(block.txs.map((tx) => tx.txid));
  }
  if (first === "tx" && second) {
    const place = chain.find(second.toLowerCase());
    if (!place) return TX_NOT_FOUND();
    const block = known(place.block);
    if (path.length === 2) return json(txJson(place.tx, block));
    if (third === "status" && path.length === 3) return json(statusJson(block));
  }
  if (first === "address" && second && third === "txs" && fourth === "mempool" && path.length === 4) {
    const program = p2wpkhProgram(second);
    if (!program) return text("Invalid Bitcoin address", 400);
    return json(chain.mempoolPaying(program).map((tx) => txJson(tx)));
  }
  return text("Not found", 404);
}
