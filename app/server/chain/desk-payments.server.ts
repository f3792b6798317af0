/**
 * What the desk reads of payments seen on chain (/admin/chain-payments; docs/product.md, "Deposits on chain"): those
 * ready but waiting (no fresh rate, a failed credit), those set aside for good, and those whose block left the chain
 * after they reached the ledger. A rate older than five minutes is never used, and the delay is to be visible.
 */
import { type SQL, sql } from "drizzle-orm";
import { formatUnits, REORGANISED_OUT, SET_ASIDE_REASONS } from "~/lib/chain/deposit-texts";
import { displayName } from "~/lib/person-name";
import type { ChainAsset, ChainNetworkName, ChainPaymentStatus } from "../../../db/enums";
import type { Db } from "../db.server";
import { displayAddress } from "./deposit-addresses.server";

/** Rows a section shows: the desk works from the oldest, and more than this is an incident of its own. */
export const DESK_SECTION_LIMIT = 100;

export interface DeskChainPayment {
  id: number;
  userId: string;
  client: string;
  asset: ChainAsset;
  amount: string;
  txid: string;
  outputIndex: number;
  address: string;
  confirmations: number;
  status: ChainPaymentStatus;
  reason: string;
  /** Since when it waits, or when its block was found gone (ms). */
  since: number;
  /** The ledger row it became (credited or held). */
  transactionId: number | null;
}

interface Row extends Omit<DeskChainPayment, "client" | "amount" | "reason"> {
  network: ChainNetworkName;
  units: string;
  waiting: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
}

const reasons = (list: readonly string[]) =>
  sql.join(
    list.map((reason) => sql`${reason}`),
    sql`, `,
  );

function section(db: Db, where: SQL) {
  return db.all<Row>(
    sql`SELECT p.id, p.user_id AS userId, p.asset, p.network, p.amount_units AS units, p.txid,
               p.output_index AS outputIndex, p.address, p.confirmations, p.status, p.waiting,
               p.updated_at AS since, p.transaction_id AS transactionId,
               pr.first_name AS firstName, pr.last_name AS lastName, u.email
        FROM chain_payments p JOIN users u ON u.id = p.user_id LEFT JOIN profiles pr ON pr.user_id = p.user_id
        WHERE ${where}
        ORDER BY p.updated_at, p.id
        LIMIT ${DESK_SECTION_LIMIT}`,
  );
}

const toView = ({ network, units, waiting, firstName, lastName, email, ...row }: Row): DeskChainPayment => ({
  ...row,
  client: displayName(firstName, lastName, email),
  amount: formatUnits(units, row.asset),
  address: displayAddress(network, row.address),
  reason: waiting,
});

/** The three lists, oldest first. */
export async function deskChainPayments(db: Db) {
  const setAside = sql`(${reasons(SET_ASIDE_REASONS)})`;
  const [waiting, aside, reorganisedOut] = await Promise.all([
    // Open payments (status seen: the watcher's partial index) that wait for a reason tried again at every run.
    section(db, sql`p.status = 'seen' AND p.waiting IS NOT NULL AND p.waiting NOT IN ${setAside}`),
    section(db, sql`p.status = 'seen' AND p.waiting IN ${setAside}`),
    section(db, sql`p.status IN ('credited', 'held') AND p.waiting = ${REORGANISED_OUT}`),
  ]);
  return { waiting: waiting.map(toView), setAside: aside.map(toView), reorganisedOut: reorganisedOut.map(toView) };
}
