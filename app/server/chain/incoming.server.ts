/**
 * A client's payments on chain not yet in the ledger, for their dashboard and History: those moving through their
 * confirmations, and those dropped in the last 30 days. A credited or held payment is a ledger row from then on.
 */
import { sql } from "drizzle-orm";
import type { IncomingPayment } from "~/lib/chain/incoming";
import type { ChainNetworkName } from "../../../db/enums";
import type { Db } from "../db.server";
import type { WorkerBindings } from "../env.server";
import { chainSettings } from "./settings.server";

const DROPPED_SHOWN_MS = 30 * 24 * 60 * 60_000;

export async function incomingPayments(
  db: Db,
  bindings: WorkerBindings,
  userId: string,
  now = Date.now(),
): Promise<IncomingPayment[]> {
  const settings = chainSettings(bindings);
  const needed: Record<ChainNetworkName, number> = {
    bitcoin: settings.bitcoin.confirmations,
    ethereum: settings.ethereum.confirmations,
  };
  const rows = await db.all<Omit<IncomingPayment, "needed"> & { network: ChainNetworkName }>(
    sql`SELECT id, asset, network, amount_units AS units, txid, status, confirmations, waiting, seen_at AS seenAt
        FROM chain_payments
        WHERE user_id = ${userId} AND (status = 'seen' OR (status = 'dropped' AND seen_at > ${now - DROPPED_SHOWN_MS}))
        ORDER BY seen_at DESC, id DESC LIMIT 20`,
  );
  return rows.map(({ network, ...row }) => ({ ...row, needed: needed[network] }));
}
