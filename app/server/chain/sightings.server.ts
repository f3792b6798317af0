/**
 * What the watcher writes about payments: which of a block's recipients are our clients' addresses (one statement
 * per block, however many outputs it has: the addresses travel as one JSON parameter, matched through the unique
 * index), and each payment to one of them, recorded once per (asset, transaction, output) however often it is seen.
 */
import { sql } from "drizzle-orm";
import type { ChainAsset, ChainNetworkName } from "../../../db/enums";
import type { Db } from "../db.server";

export interface Sighting {
  asset: ChainAsset;
  network: ChainNetworkName;
  txid: string;
  outputIndex: number;
  address: string;
  units: bigint;
  /** Null while unconfirmed (in the mempool). */
  height: number | null;
  blockHash: string | null;
}

/** The owners of those of the addresses that are our clients', by address. */
export async function ownersOf(db: Db, network: ChainNetworkName, addresses: Iterable<string>) {
  const unique = [...new Set(addresses)];
  const owners = new Map<string, string>();
  if (unique.length === 0) return owners;
  const rows = await db.all<{ address: string; user_id: string }>(
    sql`SELECT address, user_id FROM deposit_addresses
        WHERE network = ${network} AND address IN (SELECT value FROM json_each(${JSON.stringify(unique)}))`,
  );
  for (const row of rows) owners.set(row.address, row.user_id);
  return owners;
}

/**
 * The statement recording a sighting for its owner: a new payment is `seen`; one seen before takes the block it is
 * now in (a mempool sighting never takes a confirmed payment's block away), and one marked dropped is seen again
 * when it turns up in a block after all (an API that lagged, a payment broadcast again). Credited and held payments
 * are left alone.
 */
export function recordSighting(sighting: Sighting, userId: string, now: number) {
  return sql`INSERT INTO chain_payments (asset, network, txid, output_index, address, user_id, amount_units,
                                         block_height, block_hash, seen_at, updated_at)
    VALUES (${sighting.asset}, ${sighting.network}, ${sighting.txid}, ${sighting.outputIndex}, ${sighting.address},
            ${userId}, ${sighting.units.toString()}, ${sighting.height}, ${sighting.blockHash}, ${now}, ${now})
    ON CONFLICT (asset, txid, output_index) DO UPDATE
      SET status = 'seen', block_height = excluded.block_height, block_hash = excluded.block_hash,
          updated_at = excluded.updated_at
      WHERE chain_payments.status IN ('seen', 'dropped') AND excluded.block_height IS NOT NULL
        AND (chain_payments.block_hash IS NOT excluded.block_hash OR chain_payments.status = 'dropped')
    RETURNING user_id AS userId`;
}

/** A payment no longer on the chain before its confirmations: dropped, never credited. */
export function dropPayment(id: number, now: number) {
  return sql`UPDATE chain_payments SET status = 'dropped', confirmations = 0, updated_at = ${now}
             WHERE id = ${id} AND status = 'seen' RETURNING user_id AS userId`;
}

/**
 * Payments seen before `seenBefore` and still without a block: never mined, however long the API keeps them. A later
 * block holding one sees it again (recordSighting), as for a replaced payment.
 */
export function dropUnmined(network: ChainNetworkName, seenBefore: number, now: number) {
  return sql`UPDATE chain_payments SET status = 'dropped', confirmations = 0, updated_at = ${now}
             WHERE network = ${network} AND status = 'seen' AND block_height IS NULL AND seen_at < ${seenBefore}
             RETURNING user_id AS userId`;
}

/** Payments in blocks above `height` were reorganised out: unconfirmed again until seen in a block of the new chain. */
export function unconfirmAbove(network: ChainNetworkName, height: number, now: number) {
  return sql`UPDATE chain_payments SET block_height = NULL, block_hash = NULL, confirmations = 0, updated_at = ${now}
             WHERE network = ${network} AND status = 'seen' AND block_height > ${height} RETURNING user_id AS userId`;
}

/**
 * Every open payment's confirmations against the chain's tip (a block's own counts as the first). A payment that
 * waits keeps its `updated_at`: since when it waits, as the desk reads it.
 */
export function countConfirmations(network: ChainNetworkName, tip: number, now: number) {
  return sql`UPDATE chain_payments
             SET confirmations = max(0, ${tip} - block_height + 1),
                 updated_at = CASE WHEN waiting IS NULL THEN ${now} ELSE updated_at END
             WHERE network = ${network} AND status = 'seen' AND block_height IS NOT NULL
               AND confirmations IS NOT max(0, ${tip} - block_height + 1)
             RETURNING user_id AS userId`;
}

/** Open payments not in a block (mempool, or reorganised out), to ask the chain where they are now. */
export function unconfirmedPayments(db: Db, network: ChainNetworkName) {
  return db.all<{ id: number; txid: string }>(
    sql`SELECT id, txid FROM chain_payments WHERE network = ${network} AND status = 'seen' AND block_height IS NULL`,
  );
}
