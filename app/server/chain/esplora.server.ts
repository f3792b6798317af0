/**
 * Bitcoin through an Esplora API (mempool.space's, Blockstream's, a deployment's own; locally the chain simulator):
 * the only module that knows its paths. Every read has a timeout; an answer that is not what Esplora gives throws,
 * and the watcher tries again at its next run from where it stopped.
 */
const TIMEOUT_MS = 10_000;

export class ChainApiError extends Error {}

async function get(base: string, path: string): Promise<Response | null> {
  const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ChainApiError(`Esplora ${path}: HTTP ${response.status}`);
  }
  return response;
}

async function text(base: string, path: string): Promise<string> {
  const response = await get(base, path);
  if (!response) throw new ChainApiError(`Esplora ${path}: not found`);
  return (await response.text()).trim();
}

const isHash = (value: unknown): value is string => typeof value === "string" && /^[0-9a-f]{64}$/.test(value);

export interface TxStatus {
  confirmed: boolean;
  height?: number;
  hash?: string;
}

/** A transaction as the payout check reads it: where it pays, its fee, and where it is. */
export interface BitcoinTransaction {
  outputs: Array<{ address: string | null; value: bigint }>;
  fee: bigint;
  status: TxStatus;
}

export interface MempoolOutput {
  txid: string;
  vout: number;
  value: bigint;
  address: string;
}

export function esplora(base: string) {
  return {
    async tipHeight(): Promise<number> {
      const height = Number(await text(base, "/blocks/tip/height"));
      if (!Number.isSafeInteger(height) || height < 0) throw new ChainApiError("Esplora: bad tip height");
      return height;
    },
    /** The hash of the block at a height of the chain the API follows now; null past its tip. */
    async blockHash(height: number): Promise<string | null> {
      const response = await get(base, `/block-height/${height}`);
      if (!response) return null;
      const hash = (await response.text()).trim();
      if (!isHash(hash)) throw new ChainApiError("Esplora: bad block hash");
      return hash;
    },
    async rawBlock(hash: string): Promise<Uint8Array> {
      const response = await get(base, `/block/${hash}/raw`);
      if (!response) throw new ChainApiError(`Esplora: block ${hash} not found`);
      return new Uint8Array(await response.arrayBuffer());
    },
    /** Where a transaction is now; null when the API no longer knows it (replaced or dropped). */
    async txStatus(txid: string): Promise<TxStatus | null> {
      const response = await get(base, `/tx/${txid}/status`);
      if (!response) return null;
      const status = (await response.json()) as { confirmed?: unknown; block_height?: unknown; block_hash?: unknown };
      if (status.confirmed === true && Number.isSafeInteger(status.block_height) && isHash(status.block_hash)) {
        return { confirmed: true, height: status.block_height as number, hash: status.block_hash };
      }
      return { confirmed: false };
    },
    /** A transaction with its outputs and fee; null when the API does not know it. */
    async transaction(txid: string): Promise<BitcoinTransaction | null> {
      const response = await get(base, `/tx/${txid}`);
      if (!response) return null;
      const tx = (await response.json()) as {
        txid?: unknown;
        vout?: Array<{ scriptpubkey_address?: unknown; value?: unknown }>;
        fee?: unknown;
        status?: { confirmed?: unknown; block_height?: unknown; block_hash?: unknown };
      };
      if (tx.txid !== txid || !Array.isArray(tx.vout) || !Number.isSafeInteger(tx.fee))
        throw new ChainApiError("Esplora: bad transaction");
      const outputs = tx.vout.map((output) => {
        if (!Number.isSafeInteger(output.value)) throw new ChainApiError("Esplora: bad output");
        const address = typeof output.scriptpubkey_address === "string" ? output.scriptpubkey_address : null;
        return { address, value: BigInt(output.value as number) };
      });
      const { confirmed, block_height: height, block_hash: hash } = tx.status ?? {};
      const status: TxStatus =
        confirmed === true && Number.isSafeInteger(height) && isHash(hash)
          ? { confirmed: true, height: height as number, hash }
          : { confirmed: false };
      return { outputs, fee: BigInt(tx.fee as number), status };
    },
    /** Unconfirmed payments to one address (asked only for addresses a client was shown lately). */
    async mempoolOutputs(address: string): Promise<MempoolOutput[]> {
      const response = await get(base, `/address/${address}/txs/mempool`);
      if (!response) return [];
      const txs = (await response.json()) as Array<{
        txid?: unknown;
        vout?: Array<{ scriptpubkey_address?: unknown; value?: unknown }>;
      }>;
      if (!Array.isArray(txs)) throw new ChainApiError("Esplora: bad mempool answer");
      return txs.flatMap((tx) =>
        isHash(tx.txid) && Array.isArray(tx.vout)
          ? tx.vout.flatMap((output, vout) =>
              output.scriptpubkey_address === address && Number.isSafeInteger(output.value)
                ? [{ txid: tx.txid as string, vout, value: BigInt(output.value as number), address }]
                : [],
            )
          : [],
      );
    },
  };
}

export type Esplora = ReturnType<typeof esplora>;
