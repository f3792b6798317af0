/**
 * A withdrawal's payout on chain (docs/product.md, "Payouts on chain"): an approver records the transaction that
 * paid an approved withdrawal, and its client and the desk read what the watcher found of it
 * (payout-check.server.ts). The firm pays from its own wallet: the portal never holds a key that could.
 */
import { sql } from "drizzle-orm";
import { PAYOUT_TEXTS, type PayoutView, payoutAssetOf, payoutTxid } from "~/lib/chain/payouts";
import { parseRowId } from "~/lib/row-id";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import type { ChainAsset } from "../../../db/enums";
import { auditInsert } from "../audit.server";
import { afterCommit, type CommandContext, type FormOutcome } from "../commands.server";
import type { Db } from "../db.server";
import { returning, writeTogether } from "../db.server";
import type { WorkerBindings } from "../env.server";
import type { SessionUser } from "../session.server";
import { chainSettings } from "./settings.server";

export const networkOfAsset = (asset: ChainAsset) => (asset === "BTC" ? "bitcoin" : "ethereum");

/** The withdrawal a payout is recorded for, as the form names it: this client's, approved, in a checked currency. */
async function payableWithdrawal(db: Db, userId: string, transactionId: number) {
  return db.get<{ status: string; currency: string | null } | undefined>(
    sql`SELECT t.status, w.crypto_currency AS currency FROM transactions t
        LEFT JOIN withdrawal_wallets w ON w.transaction_id = t.id
        WHERE t.id = ${transactionId} AND t.user_id = ${userId} AND t.transaction_type = 'withdraw'`,
  );
}

/**
 * Records the transaction an admin says paid a withdrawal. The checks a person can get wrong are answered here with
 * their message; the database refuses the rest whatever the code does (an approved withdrawal of this client, one
 * payout at a time, the recorder's roles: migration 0033's triggers and unique index).
 */
export async function recordPayout(
  context: CommandContext,
  admin: SessionUser,
  input: { userId: string; transactionId: number | null; txid: string },
): Promise<FormOutcome> {
  const { userId, transactionId } = input;
  const refused = (error: string, status: number, field?: string): FormOutcome => ({
    ok: false,
    error,
    status,
    subject: String(transactionId ?? ""),
    ...(field ? { field } : {}),
  });
  const withdrawal = transactionId === null ? undefined : await payableWithdrawal(context.db, userId, transactionId);
  if (!withdrawal || transactionId === null) return refused(ADMIN_MESSAGES.transactionNotFound, 409);
  if (withdrawal.status !== "approved") return refused(PAYOUT_TEXTS.notApproved, 409);
  const asset = payoutAssetOf(withdrawal.currency);
  const settings = chainSettings(context.bindings);
  const watched = asset && (asset === "BTC" ? settings.bitcoin.esploraUrl : settings.ethereum.rpcUrl);
  if (!asset || !watched) return refused(PAYOUT_TEXTS.notChecked(withdrawal.currency ?? "this currency"), 400);
  const txid = payoutTxid(asset, input.txid);
  if (!txid) return refused(PAYOUT_TEXTS.badTxid(asset), 400, "txid");
  const now = Date.now();
  // A record the check has not accepted yet gives way to a new one (a mistyped id need not wait to be refused).
  const written = await writeTogether(context.db, {
    replaced: sql`UPDATE chain_payouts SET status = 'mismatch', problem = ${PAYOUT_TEXTS.replaced}, checked_at = ${now}
                  WHERE transaction_id = ${transactionId} AND user_id = ${userId} AND status = 'recorded'`,
    payout: returning<{ id: number }>(
      sql`INSERT INTO chain_payouts (transaction_id, user_id, asset, txid, recorded_by, recorded_at)
          VALUES (${transactionId}, ${userId}, ${asset}, ${txid}, ${admin.id}, ${now})
          ON CONFLICT DO NOTHING RETURNING id`,
    ),
    audit: auditInsert({
      actor: admin,
      action: "payout.record",
      target: `transaction:${transactionId}`,
      detail: { client: userId, asset, txid },
      onlyIf: sql`changes() = 1`,
      at: now,
    }),
  });
  if (written.payout.length === 0) return refused(PAYOUT_TEXTS.alreadyRecorded, 409);
  afterCommit(context, { events: [{ userId, event: { type: "chain_payments.changed", userId } }] });
  return { ok: true, message: PAYOUT_TEXTS.recorded };
}

/** The client page's Record payout form: the withdrawal's id and the transaction id typed. */
export function recordPayoutForm(context: CommandContext, admin: SessionUser, userId: string, form: FormData) {
  const transactionId = parseRowId(form.get("transactionId"));
  return recordPayout(context, admin, { userId, transactionId, txid: String(form.get("txid") ?? "") });
}

type PageContext = Pick<CommandContext, "db" | "bindings">;
type PageRows = ReadonlyArray<{ id: number; transactionType: string }>;
const withdrawalIds = (rows: PageRows) => rows.filter((row) => row.transactionType === "withdraw").map((row) => row.id);

/** The accepted payouts of the withdrawals among a client's rows: what the client reads under each. */
export const clientPayouts = (context: PageContext, userId: string, rows: PageRows) =>
  payoutsOf(context.db, context.bindings, userId, withdrawalIds(rows), { acceptedOnly: true });

/** The payouts of the withdrawals among a desk page's rows, whatever the watcher found (refusals included). */
export const deskPayouts = (context: PageContext, userId: string, rows: PageRows) =>
  payoutsOf(context.db, context.bindings, userId, withdrawalIds(rows), { acceptedOnly: false });

/** A payout as stored: the view's fields read from the row (`mined` as SQLite's 0 or 1), by withdrawal. */
type PayoutRow = Omit<PayoutView, "needed" | "explorerUrl" | "mined"> & { transactionId: number; mined: number };

/**
 * The latest payout of each of a client's withdrawals among `transactionIds` (a page's rows), by withdrawal id.
 * `acceptedOnly` (the client's view) leaves out what the watcher has not accepted: a client sees a transaction hash
 * only once it was found paying their address their amount.
 */
export async function payoutsOf(
  db: Db,
  bindings: WorkerBindings,
  userId: string,
  transactionIds: readonly number[],
  { acceptedOnly }: { acceptedOnly: boolean },
): Promise<Record<number, PayoutView>> {
  if (transactionIds.length === 0) return {};
  const rows = await db.all<PayoutRow>(
    sql`SELECT transaction_id AS transactionId, asset, txid, status, problem, amount_units AS amountUnits,
          fee_units AS feeUnits, confirmations, block_height IS NOT NULL AS mined
        FROM chain_payouts
        WHERE user_id = ${userId} AND transaction_id IN (SELECT value FROM json_each(${JSON.stringify(transactionIds)}))
          ${acceptedOnly ? sql`AND status IN ('matched', 'confirmed') AND block_height IS NOT NULL` : sql``}
        ORDER BY id`,
  );
  const settings = chainSettings(bindings);
  const views: Record<number, PayoutView> = {};
  for (const row of rows) {
    const network = networkOfAsset(row.asset);
    views[row.transactionId] = {
      ...row,
      mined: Boolean(row.mined),
      needed: network === "bitcoin" ? settings.bitcoin.confirmations : settings.ethereum.confirmations,
      explorerUrl: `${settings.explorers[network]}/tx/${row.txid}`,
    };
  }
  return views;
}
