/**
 * One watcher run over one chain (docs/decisions/0067): take the chain's lease (a second run at the same moment
 * does nothing), step back to where a reorganisation forked if the block we stopped at is no longer on the chain,
 * read the new blocks from the last one scanned (at most a few per run, so an outage is caught up over the next
 * runs), record the payments to our clients' addresses, ask where unconfirmed ones are now, and count every open
 * payment's confirmations. Reads per run grow with blocks, not with clients.
 */
import { sql } from "drizzle-orm";
import { UNMINED_PAYMENT_MAX_AGE_MS } from "~/lib/chain/deposit-texts";
import type { ChainNetworkName } from "../../../db/enums";
import { type Db, returning, type Write, writeTogether } from "../db.server";
import {
  countConfirmations,
  dropPayment,
  dropUnmined,
  recordSighting,
  type Sighting,
  unconfirmAbove,
  unconfirmedPayments,
} from "./sightings.server";

export interface Found {
  sighting: Sighting;
  userId: string;
}

export interface BlockRead {
  height: number;
  hash: string;
  found: Found[];
}

/** A chain as the scan reads it: one per API (Esplora for Bitcoin, JSON-RPC for Ethereum). */
export interface ChainReader {
  network: ChainNetworkName;
  tipHeight(): Promise<number>;
  blockHash(height: number): Promise<string | null>;
  /**
   * The blocks from `from` to `to`, in order, with the payments to our clients in them, each the child of the one
   * before it (the first, of `afterHash`): the read stops at a block that is not, since the chain changed under it.
   */
  readBlocks(from: number, to: number, afterHash: string): Promise<BlockRead[]>;
  /** Unconfirmed payments to our clients' recently shown addresses ([] where the chain's mempool is not read). */
  mempool(now: number): Promise<Found[]>;
  /** Whether the chain still knows a transaction (in a block or waiting). */
  stillKnown(txid: string): Promise<boolean>;
  /** Why the API is not the chain the settings name (another network's node), or null when it is. */
  wrongChain(): Promise<string | null>;
}

/** Blocks read per run: Bitcoin's come every 10 minutes, Ethereum's every 12 seconds (5 a minute). */
export const BLOCKS_PER_RUN: Record<ChainNetworkName, number> = { bitcoin: 6, ethereum: 30 };
/** Block hashes kept to find a fork: deeper reorganisations than this are an incident for people, not the watcher. */
export const FORK_SEARCH_DEPTH = 100;
/** On the first run, where reading starts below the tip. */
const FIRST_RUN_BACK = 3;
const LEASE_MS = 55_000;

export interface ScanResult {
  tip: number;
  height: number;
  /** Clients whose payments changed: their pages are told. */
  touched: Set<string>;
  /** The API did not know the block the last run stopped at yet (a lagging node): nothing was read or changed. */
  apiBehind?: boolean;
}

async function takeLease(db: Db, reader: ChainReader, owner: string, now: number) {
  const leased = await db.get<{ height: number; hash: string }>(
    sql`UPDATE chain_scans SET lease_owner = ${owner}, lease_until = ${now + LEASE_MS}
        WHERE network = ${reader.network} AND lease_until < ${now} RETURNING height, block_hash AS hash`,
  );
  if (leased) return leased;
  const exists = await db.get(sql`SELECT 1 AS one FROM chain_scans WHERE network = ${reader.network}`);
  if (exists) return null;
  const start = Math.max(0, (await reader.tipHeight()) - FIRST_RUN_BACK);
  const hash = await reader.blockHash(start);
  if (!hash) return null;
  return (
    (await db.get<{ height: number; hash: string }>(
      sql`INSERT INTO chain_scans (network, height, block_hash, lease_owner, lease_until, updated_at)
          VALUES (${reader.network}, ${start}, ${hash}, ${owner}, ${now + LEASE_MS}, ${now})
          ON CONFLICT (network) DO NOTHING RETURNING height, block_hash AS hash`,
    )) ?? null
  );
}

/** The highest height at or below the cursor whose kept hash the chain still has. */
async function forkPoint(db: Db, reader: ChainReader, height: number): Promise<number> {
  for (let h = height - 1; h > height - FORK_SEARCH_DEPTH && h >= 0; h--) {
    const kept = await db.get<{ hash: string }>(
      sql`SELECT hash FROM chain_blocks WHERE network = ${reader.network} AND height = ${h}`,
    );
    if (!kept) return h;
    if ((await reader.blockHash(h)) === kept.hash) return h;
  }
  return Math.max(0, height - FORK_SEARCH_DEPTH);
}

/** The statements recording payments, by name, for one batch. */
function recordAll(found: Found[], now: number): Record<string, Write<{ userId: string }>> {
  return Object.fromEntries(
    found.map((f, i) => [`sighting${i}`, returning<{ userId: string }>(recordSighting(f.sighting, f.userId, now))]),
  );
}

/** The clients whose payments a batch recorded or changed. */
function touchedBy(written: Record<string, unknown[]>): string[] {
  return Object.entries(written).flatMap(([name, rows]) =>
    name.startsWith("sighting") ? (rows as Array<{ userId: string }>).map((r) => r.userId) : [],
  );
}

export async function scanChain(
  db: Db,
  reader: ChainReader,
  owner: string,
  now = Date.now(),
): Promise<ScanResult | null> {
  const cursor = await takeLease(db, reader, owner, now);
  if (!cursor) return null;
  const touched = new Set<string>();
  const mine = sql`network = ${reader.network} AND lease_owner = ${owner}`;
  try {
    const tip = await reader.tipHeight();
    let height = cursor.height;
    let hash = cursor.hash;
    const cursorHash = tip < height ? null : await reader.blockHash(height);
    // A node that has not reached our block yet says nothing of a fork: taken for one, it would move payments back
    // and drop those it does not know yet. The next run, at a node that caught up, goes on from the cursor.
    if (cursorHash === null) return { tip, height, touched, apiBehind: true };
    if (cursorHash !== cursor.hash) {
      const fork = await forkPoint(db, reader, height);
      const forkHash = (await reader.blockHash(fork)) ?? "";
      const { unconfirmed } = await writeTogether(db, {
        unconfirmed: returning<{ userId: string }>(unconfirmAbove(reader.network, fork, now)),
        forget: sql`DELETE FROM chain_blocks WHERE network = ${reader.network} AND height > ${fork}`,
        rewind: sql`UPDATE chain_scans SET height = ${fork}, block_hash = ${forkHash}, updated_at = ${now} WHERE ${mine}`,
      });
      for (const row of unconfirmed) touched.add(row.userId);
      height = fork;
      hash = forkHash;
      // Credited payments in the blocks taken out: money the ledger holds for a payment that may be gone. The watcher
      // never takes money back; people must look (docs/decisions/0067).
      const lost = await db.all<{ id: number; txid: string }>(
        sql`SELECT id, txid FROM chain_payments
            WHERE network = ${reader.network} AND status = 'credited' AND block_height > ${fork}`,
      );
      if (lost.length > 0) {
        console.error(
          `chain watcher: ${reader.network}: a reorganisation back to block ${fork} took out credited payments ${lost
            .map((p) => `${p.id} (${p.txid})`)
            .join(", ")}: check them on chain`,
        );
      }
    }
    const last = Math.min(tip, height + BLOCKS_PER_RUN[reader.network]);
    const blocks = last > height ? await reader.readBlocks(height + 1, last, hash) : [];
    for (const block of blocks) {
      const written = await writeTogether(db, {
        kept: sql`INSERT INTO chain_blocks (network, height, hash) VALUES (${reader.network}, ${block.height}, ${block.hash})
                  ON CONFLICT (network, height) DO UPDATE SET hash = excluded.hash`,
        cursor: sql`UPDATE chain_scans SET height = ${block.height}, block_hash = ${block.hash}, updated_at = ${now}
                    WHERE ${mine}`,
        pruned: sql`DELETE FROM chain_blocks
                    WHERE network = ${reader.network} AND height <= ${block.height - FORK_SEARCH_DEPTH}`,
        ...recordAll(block.found, now),
      });
      for (const id of touchedBy(written)) touched.add(id);
      height = block.height;
    }
    // Seen without a block for too long: never mined (fee too low, evicted) though the API may still know it.
    for (const row of await db.all<{ userId: string }>(
      dropUnmined(reader.network, now - UNMINED_PAYMENT_MAX_AGE_MS, now),
    ))
      touched.add(row.userId);
    const pending = await reader.mempool(now);
    if (pending.length > 0)
      for (const id of touchedBy(await writeTogether(db, recordAll(pending, now)))) touched.add(id);
    for (const payment of await unconfirmedPayments(db, reader.network)) {
      // A read that fails says nothing: the payment is asked about again at the next run.
      if (await reader.stillKnown(payment.txid).catch(() => true)) continue;
      for (const row of await db.all<{ userId: string }>(dropPayment(payment.id, now))) touched.add(row.userId);
    }
    // Counted against the last block read and linked to the one before it, not the API's tip: a tip on another
    // branch (the chain changed during the run) would count confirmations a payment does not have.
    for (const row of await db.all<{ userId: string }>(countConfirmations(reader.network, height, now)))
      touched.add(row.userId);
    return { tip, height, touched };
  } finally {
    await db.run(sql`UPDATE chain_scans SET lease_until = 0 WHERE ${mine}`);
  }
}
