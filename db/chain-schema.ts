/**
 * Money in on chain (docs/product.md, "Deposits on chain"): each client's deposit address per chain and key, every
 * payment the watcher saw to one of them, and how far the watcher has read each chain. Kept apart from db/schema.ts,
 * which re-exports it, so that each stays readable.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { CHAIN_ASSETS, CHAIN_NETWORKS, CHAIN_PAYMENT_STATUSES } from "./enums";
import { users } from "./schema";

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));
const now = sql`(CAST(unixepoch('subsec') * 1000 AS INTEGER))`;

/**
 * A client's address on a chain, derived from the firm's watch-only account key (`key_id`, the first 16 hex digits
 * of the SHA-256 of the key's text) at `derivation_index`. An address is given to one client only, forever: a later
 * key change gives new clients addresses of the new key and the old ones stay watched.
 */
export const depositAddresses = sqliteTable(
  "deposit_addresses",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    network: text("network", { enum: CHAIN_NETWORKS }).notNull(),
    keyId: text("key_id").notNull(),
    derivationIndex: integer("derivation_index").notNull(),
    /** Lower-case (bech32 is; an Ethereum address is shown with its checksum's capitals). */
    address: text("address").notNull(),
    createdAt: integer("created_at").notNull().default(now),
    /** When /deposit last showed it: Bitcoin's unconfirmed payments are looked for only at recently shown ones. */
    shownAt: integer("shown_at").notNull().default(now),
  },
  (t) => [
    check("deposit_addresses_network", sql`${t.network} IN (${inList(CHAIN_NETWORKS)})`),
    check("deposit_addresses_index", sql`${t.derivationIndex} >= 0 AND ${t.derivationIndex} <= 2147483647`),
    check("deposit_addresses_lower_case", sql`${t.address} = lower(${t.address})`),
    // The watcher's lookup of a block's outputs, and "never given to another client".
    uniqueIndex("deposit_addresses_address_uq").on(t.network, t.address),
    uniqueIndex("deposit_addresses_key_index_uq").on(t.keyId, t.derivationIndex),
    uniqueIndex("deposit_addresses_user_key_uq").on(t.userId, t.network, t.keyId),
    index("deposit_addresses_shown_idx").on(t.network, t.shownAt),
  ],
);

/**
 * The next unused index of each key: taken and advanced in one statement, so clients asking at the same moment each
 * get their own index (a gap, when a client's two tabs race, costs nothing).
 */
export const depositKeys = sqliteTable("deposit_keys", {
  keyId: text("key_id").primaryKey(),
  nextIndex: integer("next_index").notNull(),
});

/**
 * A payment seen on chain to a client's address: one row per (asset, transaction, output or log index), so no run,
 * retry or re-scan of the watcher can record it twice. `seen` until its confirmations reach the chain's number,
 * then `credited` (an approved deposit, `transaction_id`) or `held` (a pending deposit for an admin to decide), or
 * `dropped` when it left the chain before (replaced, dropped or reorganised out). Those three are final.
 */
export const chainPayments = sqliteTable(
  "chain_payments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    asset: text("asset", { enum: CHAIN_ASSETS }).notNull(),
    network: text("network", { enum: CHAIN_NETWORKS }).notNull(),
    txid: text("txid").notNull(),
    /** The output's index (Bitcoin), the log's index in its block (USDT), 0 for an Ether transfer. */
    outputIndex: integer("output_index").notNull(),
    address: text("address").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    /** In the asset's smallest unit (satoshi, wei, USDT's millionth), as decimal text: wei outgrow 2^53. */
    amountUnits: text("amount_units").notNull(),
    blockHeight: integer("block_height"),
    blockHash: text("block_hash"),
    confirmations: integer("confirmations").notNull().default(0),
    status: text("status", { enum: CHAIN_PAYMENT_STATUSES }).notNull().default("seen"),
    /**
     * Why a payment with its confirmations is not credited yet (no fresh rate), for the desk; on a credited or held
     * payment, that its block left the chain afterwards (REORGANISED_OUT). Either way `updated_at` says since when.
     */
    waiting: text("waiting"),
    /**
     * The ledger row it became (credited or held). No foreign key: when a client's data is deleted the row moves to
     * transactions_archive under the same id, and this record of money received stays.
     */
    transactionId: integer("transaction_id"),
    /** The USD price of one whole coin used, its source and its time (ms). */
    usdRate: text("usd_rate"),
    rateSource: text("rate_source"),
    rateAt: integer("rate_at"),
    seenAt: integer("seen_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [
    check("chain_payments_asset", sql`${t.asset} IN (${inList(CHAIN_ASSETS)})`),
    check("chain_payments_network", sql`${t.network} IN (${inList(CHAIN_NETWORKS)})`),
    check("chain_payments_status", sql`${t.status} IN (${inList(CHAIN_PAYMENT_STATUSES)})`),
    check("chain_payments_output_index", sql`${t.outputIndex} >= 0`),
    check("chain_payments_confirmations", sql`${t.confirmations} >= 0`),
    check("chain_payments_settled_has_row", sql`${t.status} IN ('seen', 'dropped') OR ${t.transactionId} IS NOT NULL`),
    uniqueIndex("chain_payments_output_uq").on(t.asset, t.txid, t.outputIndex),
    uniqueIndex("chain_payments_transaction_uq").on(t.transactionId),
    // The watcher's work: payments still moving through their confirmations.
    index("chain_payments_open_idx").on(t.network, t.blockHeight).where(sql`status = 'seen'`),
    // A client's incoming payments, newest first.
    index("chain_payments_user_idx").on(t.userId, t.seenAt, t.id),
  ],
);

/** How far the watcher has read a chain: the last block scanned, and the lease of the run reading it now. */
export const chainScans = sqliteTable("chain_scans", {
  network: text("network", { enum: CHAIN_NETWORKS }).primaryKey(),
  height: integer("height").notNull(),
  blockHash: text("block_hash").notNull(),
  leaseOwner: text("lease_owner"),
  leaseUntil: integer("lease_until").notNull().default(0),
  updatedAt: integer("updated_at").notNull().default(now),
});

/** The hashes of the last blocks scanned per chain: where a reorganisation forked from is found by them. */
export const chainBlocks = sqliteTable(
  "chain_blocks",
  {
    network: text("network", { enum: CHAIN_NETWORKS }).notNull(),
    height: integer("height").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [primaryKey({ columns: [t.network, t.height] })],
);
