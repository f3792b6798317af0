/**
 * The two chains as the scan reads them. Bitcoin: one raw block per read, its P2WPKH outputs matched against our
 * addresses in one statement; unconfirmed payments asked only at the addresses /deposit showed in the last hour
 * (their number follows the clients depositing now, not the clients the firm has). Ethereum: one block per read for
 * Ether, and the USDT contract's Transfer logs of the whole range in one read.
 */
import { sql } from "drizzle-orm";
import { blockOutputs } from "~/lib/chain/bitcoin-block";
import { SEGWIT_PREFIXES } from "~/lib/chain/encodings";
import type { Db } from "../db.server";
import { esplora } from "./esplora.server";
import { type EvmBlock, evmRpc } from "./evm-rpc.server";
import type { BlockRead, ChainReader, Found } from "./scan.server";
import type { ChainSettings } from "./settings.server";
import { ownersOf } from "./sightings.server";

/** How long after /deposit showed an address its unconfirmed payments are looked for. */
export const MEMPOOL_WATCH_MS = 60 * 60_000;
/** The most addresses asked about unconfirmed payments in one run: the reads stay bounded whoever opens /deposit. */
export const MEMPOOL_ADDRESSES_PER_RUN = 10;

export function bitcoinReader(db: Db, settings: ChainSettings["bitcoin"] & { esploraUrl: string }): ChainReader {
  const api = esplora(settings.esploraUrl);
  const prefix = SEGWIT_PREFIXES[settings.network];
  return {
    network: "bitcoin",
    tipHeight: () => api.tipHeight(),
    blockHash: (height) => api.blockHash(height),
    async readBlocks(from, to, afterHash) {
      const blocks: BlockRead[] = [];
      let parent = afterHash;
      for (let height = from; height <= to; height++) {
        const hash = await api.blockHash(height);
        if (!hash) break;
        const parsed = blockOutputs(await api.rawBlock(hash), prefix);
        // The block is the one asked for (its header hashes to it) and the child of the last one read: otherwise the
        // chain changed while it was read, and the next run starts from the fork.
        if (parsed.hash !== hash || parsed.previousHash !== parent) break;
        parent = hash;
        const owners = await ownersOf(
          db,
          "bitcoin",
          parsed.outputs.map((o) => o.address),
        );
        const found = parsed.outputs.flatMap((output): Found[] => {
          const userId = owners.get(output.address);
          if (!userId) return [];
          const txid = parsed.txidOf(output.tx);
          const sighting = { asset: "BTC" as const, network: "bitcoin" as const, txid, outputIndex: output.vout };
          return [
            {
              userId,
              sighting: { ...sighting, address: output.address, units: output.value, height, blockHash: hash },
            },
          ];
        });
        blocks.push({ height, hash, found });
      }
      return blocks;
    },
    async mempool(now) {
      // The addresses shown last, a bounded number a run: a payment to any other is seen at its first block.
      const shown = await db.all<{ address: string; user_id: string }>(
        sql`SELECT address, user_id FROM deposit_addresses
            WHERE network = 'bitcoin' AND shown_at > ${now - MEMPOOL_WATCH_MS}
            ORDER BY shown_at DESC LIMIT ${MEMPOOL_ADDRESSES_PER_RUN}`,
      );
      const found: Found[] = [];
      for (const row of shown) {
        // One address the API will not answer for (a rate limit, a hiccup) leaves the others and the blocks' work.
        const outputs = await api.mempoolOutputs(row.address).catch(() => []);
        for (const output of outputs) {
          found.push({
            userId: row.user_id,
            sighting: {
              asset: "BTC",
              network: "bitcoin",
              txid: output.txid,
              outputIndex: output.vout,
              address: row.address,
              units: output.value,
              height: null,
              blockHash: null,
            },
          });
        }
      }
      return found;
    },
    stillKnown: async (txid) => (await api.txStatus(txid)) !== null,
    wrongChain: async () => null,
  };
}

export function ethereumReader(db: Db, settings: ChainSettings["ethereum"] & { rpcUrl: string }): ChainReader {
  const api = evmRpc(settings.rpcUrl);
  return {
    network: "ethereum",
    tipHeight: () => api.tipHeight(),
    blockHash: async (height) => (await api.block(height))?.hash ?? null,
    async readBlocks(from, to, afterHash) {
      let read: EvmBlock[] = [];
      let parent = afterHash;
      for (let height = from; height <= to; height++) {
        const block = await api.block(height);
        // A block that is not the child of the last one read: the chain changed meanwhile.
        if (!block || block.parentHash !== parent) break;
        read.push(block);
        parent = block.hash;
      }
      if (read.length === 0) return [];
      const tokens = await api.tokenTransfers(settings.usdtContract, from, from + read.length - 1);
      // A log of a block other than the one read at its height: the chain changed between the reads. The blocks from
      // there are left to the next run, which starts from the fork.
      const changed = tokens.find((t) => read.some((b) => b.height === t.height && b.hash !== t.blockHash));
      if (changed) read = read.filter((b) => b.height < changed.height);
      const owners = await ownersOf(db, "ethereum", [
        ...read.flatMap((b) => b.transfers.map((t) => t.to)),
        ...tokens.map((t) => t.to),
      ]);
      return read.map((block): BlockRead => {
        const ether = block.transfers.flatMap((t): Found[] => {
          const userId = owners.get(t.to);
          if (!userId) return [];
          const sighting = { asset: "ETH" as const, network: "ethereum" as const, txid: t.txid, outputIndex: 0 };
          return [
            {
              userId,
              sighting: { ...sighting, address: t.to, units: t.value, height: block.height, blockHash: block.hash },
            },
          ];
        });
        const usdt = tokens.flatMap((t): Found[] => {
          const userId = owners.get(t.to);
          if (!userId || t.height !== block.height || t.blockHash !== block.hash) return [];
          const sighting = {
            asset: "USDT_ERC20" as const,
            network: "ethereum" as const,
            txid: t.txid,
            outputIndex: t.logIndex,
          };
          return [
            {
              userId,
              sighting: { ...sighting, address: t.to, units: t.value, height: block.height, blockHash: block.hash },
            },
          ];
        });
        return { height: block.height, hash: block.hash, found: [...ether, ...usdt] };
      });
    },
    mempool: async () => [],
    stillKnown: (txid) => api.knowsTransaction(txid),
    async wrongChain() {
      // A node of another chain (a testnet, another EVM network) would credit payments that are not Ether.
      const id = await api.chainId();
      return id === settings.chainId
        ? null
        : `the node is on chain ${id}, not chain ${settings.chainId} (ETHEREUM_CHAIN_ID): nothing scanned or credited`;
    },
  };
}
