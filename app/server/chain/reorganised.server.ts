/**
 * Payments already in the ledger (credited or held) whose block a reorganisation took out: the scan logs them and
 * never takes money back, so they are marked for the desk (`waiting` = REORGANISED_OUT, `updated_at` = when seen).
 * Found by the kept block hashes a run replaced or removed, so no migration and no read per payment: a run without a
 * reorganisation compares at most FORK_SEARCH_DEPTH kept hashes and writes nothing.
 */
import { sql } from "drizzle-orm";
import { REORGANISED_OUT } from "~/lib/chain/deposit-texts";
import type { ChainNetworkName } from "../../../db/enums";
import type { Db } from "../db.server";

/** The chain's kept block hashes, by height: read before a scan, compared after it. */
export async function keptBlocks(db: Db, network: ChainNetworkName): Promise<Map<number, string>> {
  const rows = await db.all<{ height: number; hash: string }>(
    sql`SELECT height, hash FROM chain_blocks WHERE network = ${network}`,
  );
  return new Map(rows.map((row) => [row.height, row.hash]));
}

/** Marks the ledger's payments in blocks kept before the scan and gone after it; returns the payments marked. */
export async function markReorganisedOut(
  db: Db,
  network: ChainNetworkName,
  before: Map<number, string>,
  now: number,
): Promise<Array<{ id: number; txid: string; userId: string }>> {
  const after = await keptBlocks(db, network);
  // Heights below the lowest still kept were pruned (too deep to matter), not reorganised: only a hash changed or
  // removed above them was. With none kept, a rewind removed them all.
  const lowest = after.size > 0 ? Math.min(...after.keys()) : Number.NEGATIVE_INFINITY;
  const gone = [...before].filter(([height, hash]) => height >= lowest && after.get(height) !== hash);
  if (gone.length === 0) return [];
  return db.all<{ id: number; txid: string; userId: string }>(
    sql`UPDATE chain_payments SET waiting = ${REORGANISED_OUT}, updated_at = ${now}
        WHERE network = ${network} AND status IN ('credited', 'held') AND waiting IS NULL
          AND block_hash IN (SELECT value FROM json_each(${JSON.stringify(gone.map(([, hash]) => hash))}))
        RETURNING id, txid, user_id AS userId`,
  );
}
