/** What the payout tests share: an approver, an approved withdrawal as a decided request stands, what was found. */
import { env } from "cloudflare:workers";
import type { SessionUser } from "~/server/session.server";
import type { ChainAsset } from "../../db/enums";
import { createUser, getPage, insertTransaction, sessionCookieFor } from "./fixtures";
import { testIdTexts } from "./places";

const CURRENCY: Record<ChainAsset, string> = { BTC: "BTC", ETH: "ETH", USDT_ERC20: "USDT (ERC)" };

/** An admin holding the approver role: the actor a record runs as, and their session for the pages. */
export async function approver() {
  const user = await createUser({ role: "admin", roles: ["approver"] });
  const actor = { ...user, role: "admin", roles: ["approver"] } as unknown as SessionUser;
  return { actor, cookie: await sessionCookieFor(user.id) };
}

/** An approved withdrawal of `amountCents` to `address` in the asset's currency, with the money that covered it. */
export async function approvedWithdrawal(userId: string, asset: ChainAsset, address: string, amountCents: number) {
  await insertTransaction(userId, { transactionType: "deposit", status: "approved", amountCents: amountCents * 2 });
  const id = await insertTransaction(userId, {
    transactionType: "withdraw",
    status: "approved",
    amountCents,
    withdrawalWalletAddress: address,
    createdBy: userId,
  });
  await env.DB.prepare(
    "INSERT INTO withdrawal_wallets (user_id, transaction_id, wallet_address, crypto_currency, amount_cents) VALUES (?, ?, ?, ?, ?)",
  )
    .bind(userId, id, address, CURRENCY[asset], amountCents)
    .run();
  return id;
}

/** The withdrawal's latest payout record, as the watcher left it. */
export const payoutOf = (transactionId: number) =>
  env.DB.prepare(
    `SELECT status, problem, output_index, amount_units, fee_units, confirmations, usd_cents
     FROM chain_payouts WHERE transaction_id = ? ORDER BY id DESC`,
  )
    .bind(transactionId)
    .first<{
      status: string;
      problem: string | null;
      output_index: number | null;
      amount_units: string | null;
      fee_units: string | null;
      confirmations: number;
      usd_cents: number | null;
    }>();

/** The payout lines a client reads on their History. */
export const clientPayoutLines = async (userId: string) =>
  testIdTexts(await (await getPage("/transactions", await sessionCookieFor(userId))).text(), "payout-line");

/** The desk's mails about a transaction (`chain_incident`), by recipient. */
export const incidentMails = (txid: string) =>
  env.DB.prepare(
    "SELECT to_address FROM email_outbox WHERE template = 'chain_incident' AND json_extract(payload, '$.txid') = ?",
  )
    .bind(txid)
    .all();
