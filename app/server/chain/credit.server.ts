/**
 * A payment with its confirmations becomes money (docs/product.md, "Deposits on chain"): at the USD rate read now
 * (never one older than RATE_MAX_AGE_MS: the credit waits, and the desk sees why), one deposit in the ledger,
 * approved, or pending for an admin to decide (held) when the client could not have asked for it: a suspended
 * profile, a Restricted client, an unverified client past UNVERIFIED_DEPOSIT_LIMIT. The deposit's insert, the
 * payment's link to it and the balance's projection are one batch; the ledger's unique (client, key) index, the key
 * naming the asset, transaction and output, makes a second credit of one payment impossible.
 */
import { sql } from "drizzle-orm";
import { ASSET_DECIMALS, ASSET_NAMES, CHAIN_WAITING, formatUnits, SET_ASIDE_REASONS } from "~/lib/chain/deposit-texts";
import { formatCents } from "~/lib/format";
import { typeLabel } from "~/lib/labels";
import { MAX_AMOUNT_CENTS } from "~/lib/ledger";
import { CHAIN_DEPOSIT_KEY_PREFIX } from "~/lib/money/constraints";
import type { FeedTransaction } from "~/lib/realtime";
import { transactionReference } from "~/lib/reference";
import type { ChainAsset, ChainNetworkName } from "../../../db/enums";
import type { Db } from "../db.server";
import { returning, writeTogether } from "../db.server";
import type { AppEnv } from "../env.server";
import { figureSql, refreshProfileProjection } from "../ledger/figures.server";
import { FEED_RETURNING } from "../ledger/reads.server";
import { activeProfile } from "../ledger/requests.server";
import { enqueueEmailFor } from "../mail/outbox.server";
import { depositWithinLevelSql, readClientLevel } from "../verification/levels.server";
import type { UsdRate } from "./rates.server";
import { usdCents } from "./rates.server";
import { RATE_MAX_AGE_MS } from "./settings.server";

export { CHAIN_WAITING as WAITING };

interface ReadyPayment {
  id: number;
  asset: ChainAsset;
  txid: string;
  outputIndex: number;
  address: string;
  userId: string;
  units: string;
}

export interface Credited {
  userId: string;
  transaction: FeedTransaction;
  held: boolean;
  emailIds: number[];
}

export function readyPayments(db: Db, network: ChainNetworkName, confirmations: number) {
  return db.all<ReadyPayment>(
    sql`SELECT id, asset, txid, output_index AS outputIndex, address, user_id AS userId, amount_units AS units
        FROM chain_payments
        WHERE network = ${network} AND status = 'seen' AND block_height IS NOT NULL AND confirmations >= ${confirmations}
          AND (waiting IS NULL OR waiting NOT IN (${sql.join(
            SET_ASIDE_REASONS.map((reason) => sql`${reason}`),
            sql`, `,
          )}))
        ORDER BY id`,
  );
}

const keyOf = (p: ReadyPayment) => `${CHAIN_DEPOSIT_KEY_PREFIX}${p.asset}:${p.txid}:${p.outputIndex}`;

/** The client's History line: what arrived, where, at which rate. */
function memoOf(p: ReadyPayment, rate: UsdRate) {
  const when = new Date(rate.at).toISOString().slice(0, 16).replace("T", " ");
  return `${formatUnits(p.units, p.asset)} ${ASSET_NAMES[p.asset]} on chain, transaction ${p.txid}:${p.outputIndex}, at ${formatCents(Math.round(Number(rate.usd) * 100))} per ${ASSET_NAMES[p.asset]} (${rate.source}, ${when} UTC)`;
}

/** Marks why a ready payment waits (shown to admins); changes nothing else. */
export async function markWaiting(db: Db, id: number, reason: string, now: number) {
  await db.run(sql`UPDATE chain_payments SET waiting = ${reason}, updated_at = ${now}
                   WHERE id = ${id} AND status = 'seen' AND waiting IS NOT ${reason}`);
}

export async function creditPayment(
  db: Db,
  env: AppEnv,
  payment: ReadyPayment,
  rate: UsdRate | undefined,
  now: number,
): Promise<Credited | null> {
  if (!rate || now - rate.at > RATE_MAX_AGE_MS) {
    await markWaiting(db, payment.id, CHAIN_WAITING.noRate(payment.asset), now);
    return null;
  }
  const cents = usdCents(BigInt(payment.units), ASSET_DECIMALS[payment.asset], rate.usd, MAX_AMOUNT_CENTS);
  if (cents === null) {
    await markWaiting(db, payment.id, CHAIN_WAITING.tooLarge, now);
    return null;
  }
  if (cents < 1) {
    await markWaiting(db, payment.id, CHAIN_WAITING.dust, now);
    return null;
  }
  const { userId } = payment;
  const key = keyOf(payment);
  const { level } = await readClientLevel(db, env, userId);
  const credit =
    level === "restricted" ? sql`0` : sql`(${activeProfile(userId)} AND ${depositWithinLevelSql(env, userId, cents)})`;
  const row = sql`(SELECT id, status FROM transactions WHERE user_id = ${userId} AND idempotency_key = ${key})`;
  const { inserted } = await writeTogether(db, {
    inserted: returning<FeedTransaction>(
      sql`INSERT INTO transactions (user_id, transaction_type, amount_cents, status, wallet_address, balance_after_cents,
                                    idempotency_key, decided_at, created_at, memo)
          SELECT ${userId}, 'deposit', ${cents}, CASE WHEN ${credit} THEN 'approved' ELSE 'pending' END,
                 ${payment.address}, CASE WHEN ${credit} THEN ${figureSql("ledgerBalance", userId)} + ${cents} END,
                 ${key}, CASE WHEN ${credit} THEN ${now} END, ${now}, ${memoOf(payment, rate)}
          WHERE EXISTS (SELECT 1 FROM chain_payments WHERE id = ${payment.id} AND status = 'seen')
          ON CONFLICT (user_id, idempotency_key) DO NOTHING
          RETURNING ${FEED_RETURNING}`,
    ),
    link: sql`UPDATE chain_payments
              SET status = CASE (SELECT status FROM ${row}) WHEN 'approved' THEN 'credited' ELSE 'held' END,
                  transaction_id = (SELECT id FROM ${row}), usd_rate = ${rate.usd}, rate_source = ${rate.source},
                  rate_at = ${rate.at}, waiting = NULL, updated_at = ${now}
              WHERE id = ${payment.id} AND status = 'seen' AND EXISTS (SELECT 1 FROM ${row})`,
    projection: refreshProfileProjection(userId, now),
  });
  const transaction = inserted[0];
  if (!transaction) return null;
  const held = transaction.status === "pending";
  return { userId, transaction, held, emailIds: held ? [] : await creditedNotice(db, transaction) };
}

/**
 * The client's mail of a credited deposit, the one an approved deposit sends ("request_decided"), once per
 * transaction. Written after the credit's batch, when the transaction's reference is known: a credit whose mail a
 * crash lost is still credited (and on the client's History and feed).
 */
async function creditedNotice(db: Db, transaction: FeedTransaction) {
  const { id } = transaction;
  const profile = await db.get<{ name: string | null }>(
    sql`SELECT first_name AS name FROM profiles WHERE user_id = ${transaction.userId}`,
  );
  const { inserted } = await writeTogether(db, {
    inserted: enqueueEmailFor({
      template: "request_decided",
      data: {
        name: profile?.name ?? "",
        decision: "approved",
        requestType: typeLabel("deposit"),
        amount: transaction.amountCents / 100,
        requestedAt: transaction.createdAt,
        reference: transactionReference(id),
        transactionId: id,
      },
      to: sql`users.email`,
      from: sql`transactions JOIN users ON users.id = transactions.user_id
                  WHERE transactions.id = ${id} AND transactions.status = 'approved'`,
      dedupeKey: sql`${`request_decided:tx:${id}`}`,
    }),
  });
  return inserted.map((row) => row.id);
}
