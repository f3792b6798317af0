/**
 * Money out on chain (docs/product.md, "Payouts on chain"): the transaction an admin says paid a withdrawal, and
 * what the watcher found of it. Kept apart from db/chain-schema.ts (money in) so that each stays readable.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { CHAIN_ASSETS, CHAIN_PAYOUT_STATUSES } from "./enums";
import { users } from "./schema";

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));
const now = sql`(CAST(unixepoch('subsec') * 1000 AS INTEGER))`;

/**
 * One recorded payout of an approved withdrawal. A payout that was not accepted (`mismatch`, with its `problem`)
 * stays as a record, and another may be recorded; a withdrawal has at most one other. One output (or log) of a
 * transaction proves one withdrawal only: the same transaction's other outputs may pay others (a batch payout).
 */
export const chainPayouts = sqliteTable(
  "chain_payouts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The approved withdrawal it pays. No foreign key, like chain_payments: a deleted client's rows are archived. */
    transactionId: integer("transaction_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    asset: text("asset", { enum: CHAIN_ASSETS }).notNull(),
    /** Lower-case; an Ethereum transaction's with its 0x. */
    txid: text("txid").notNull(),
    recordedBy: text("recorded_by").notNull(),
    recordedAt: integer("recorded_at").notNull().default(now),
    status: text("status", { enum: CHAIN_PAYOUT_STATUSES }).notNull().default("recorded"),
    /** Why it was not accepted, for the desk; or why the check waits (no fresh rate yet). */
    problem: text("problem"),
    /** The output (Bitcoin), log (USDT) or 0 (Ether) that pays the withdrawal's address, once matched. */
    outputIndex: integer("output_index"),
    /** What it paid and its network fee, in the smallest unit (fee in BTC or ETH) as decimal text. */
    amountUnits: text("amount_units"),
    feeUnits: text("fee_units"),
    /** What it paid in US cents at the rate of the check, the rate (USD per coin) and when the rate was quoted. */
    usdCents: integer("usd_cents"),
    usdRate: text("usd_rate"),
    rateAt: integer("rate_at"),
    blockHeight: integer("block_height"),
    confirmations: integer("confirmations").notNull().default(0),
    /** When an accepted payout's transaction was last found missing (the API did not know it); null while found. */
    missingSince: integer("missing_since"),
    checkedAt: integer("checked_at").notNull().default(0),
  },
  (t) => [
    check("chain_payouts_asset", sql`${t.asset} IN (${inList(CHAIN_ASSETS)})`),
    check("chain_payouts_status", sql`${t.status} IN (${inList(CHAIN_PAYOUT_STATUSES)})`),
    check("chain_payouts_txid", sql`${t.txid} = lower(${t.txid})`),
    check(
      "chain_payouts_matched_has_output",
      sql`${t.status} IN ('recorded', 'mismatch') OR ${t.outputIndex} IS NOT NULL`,
    ),
    check("chain_payouts_confirmations", sql`${t.confirmations} >= 0`),
    uniqueIndex("chain_payouts_withdrawal_uq").on(t.transactionId).where(sql`status <> 'mismatch'`),
    uniqueIndex("chain_payouts_output_uq")
      .on(t.asset, t.txid, t.outputIndex)
      .where(sql`status IN ('matched', 'confirmed')`),
    // The watcher's work: payouts not yet confirmed nor refused, the longest unchecked first.
    index("chain_payouts_open_idx").on(t.checkedAt).where(sql`status IN ('recorded', 'matched')`),
    index("chain_payouts_user_idx").on(t.userId, t.transactionId),
  ],
);
