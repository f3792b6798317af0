/**
 * The watcher's check of recorded payouts (docs/product.md, "Payouts on chain"): each run reads the transaction of
 * every payout not yet settled (up to PAYOUTS_PER_RUN, the longest unchecked first: the reads grow with payouts in
 * flight, not with clients), accepts it once it pays the withdrawal's address its amount (payout-findings.server.ts),
 * counts its confirmations until it is deep enough to settle, and refuses it, telling the desk in the same batch,
 * when it pays another address or amount, fails, or is not found. A refused payout is final; the admin records the
 * right one.
 */
import { sql } from "drizzle-orm";
import { PAYOUT_MATCH } from "~/lib/money/constraints";
import type { ChainAsset } from "../../../db/enums";
import { type Db, returning, writeTogether } from "../db.server";
import type { Esplora } from "./esplora.server";
import { type EvmRpc, TRANSFER_TOPIC } from "./evm-rpc.server";
import { clientNameOf, incidentMails } from "./incidents.server";
import { type Finding, type Found, judge, type OpenPayout } from "./payout-findings.server";
import { networkOfAsset } from "./payouts.server";
import type { UsdRate } from "./rates.server";
import type { ChainSettings } from "./settings.server";

const PAYOUTS_PER_RUN = 20;

export interface PayoutChains {
  bitcoin?: Esplora;
  ethereum?: EvmRpc;
  settings: ChainSettings;
  rates: () => Promise<Partial<Record<ChainAsset, UsdRate>>>;
}

async function lookUp(chains: PayoutChains, payout: OpenPayout): Promise<Found | null> {
  if (payout.asset === "BTC") {
    const tx = await chains.bitcoin?.transaction(payout.txid);
    if (!tx) return null;
    const outputs = tx.outputs.flatMap((output, index) =>
      output.address ? [{ index, address: output.address.toLowerCase(), units: output.value }] : [],
    );
    return { outputs, feeUnits: tx.fee, height: tx.status.height ?? null, reverted: false };
  }
  const tx = await chains.ethereum?.transaction(payout.txid);
  if (!tx) return null;
  const found = { feeUnits: tx.feeWei, height: tx.height, reverted: tx.succeeded === false };
  if (payout.asset === "ETH")
    return { ...found, outputs: tx.to ? [{ index: 0, address: tx.to, units: tx.value }] : [] };
  const contract = chains.settings.ethereum.usdtContract;
  const outputs = tx.logs.flatMap((log) =>
    log.address === contract && log.topics.length === 3 && log.topics[0] === TRANSFER_TOPIC
      ? [{ index: log.logIndex, address: `0x${log.topics[2]?.slice(-40)}`, units: BigInt(log.data) }]
      : [],
  );
  return { ...found, outputs };
}

const neededOf = (chains: PayoutChains, asset: ChainAsset) =>
  networkOfAsset(asset) === "bitcoin" ? chains.settings.bitcoin.confirmations : chains.settings.ethereum.confirmations;

/** The chain's tip, read once per run and chain. */
function tipReader(chains: PayoutChains) {
  const tips = new Map<string, Promise<number>>();
  return (asset: ChainAsset) => {
    const network = networkOfAsset(asset);
    const reader = network === "bitcoin" ? chains.bitcoin : chains.ethereum;
    if (!reader) return Promise.reject(new Error(`${network} is not watched`));
    const tip = tips.get(network) ?? reader.tipHeight();
    tips.set(network, tip);
    return tip;
  };
}

/** Writes one finding; answers whether the client's view of the payout may have changed, and the mails queued. */
async function write(
  db: Db,
  chains: PayoutChains,
  payout: OpenPayout,
  finding: Finding,
  now: number,
  tipOf: (asset: ChainAsset) => Promise<number>,
): Promise<{ changed: boolean; emailIds: number[] }> {
  const where = sql`WHERE id = ${payout.id} AND status = ${payout.status}`;
  const accepted = payout.status !== "recorded";
  if (finding.kind === "wait") {
    await db.run(sql`UPDATE chain_payouts SET problem = ${finding.problem}, checked_at = ${now} ${where}`);
    return { changed: false, emailIds: [] };
  }
  if (finding.kind === "missing") {
    // Out of the client's view (no block) until it is found again; refused if it stays missing.
    await db.run(sql`UPDATE chain_payouts SET block_height = NULL, confirmations = 0, checked_at = ${now},
                       missing_since = coalesce(missing_since, ${now}) ${where}`);
    return { changed: true, emailIds: [] };
  }
  if (finding.kind === "refuse") {
    const incident = { kind: "payout_refused" as const, key: String(payout.id), userId: payout.userId };
    const mails = incidentMails(
      { ...incident, txid: payout.txid, reason: finding.problem },
      await clientNameOf(db, payout.userId),
      sql`EXISTS (SELECT 1 FROM chain_payouts WHERE id = ${payout.id} AND status = 'mismatch')`,
    );
    // The refusal and the desk's mails in one batch: neither without the other.
    const written = await writeTogether(db, {
      refused: returning<{ id: number }>(
        sql`UPDATE chain_payouts SET status = 'mismatch', problem = ${finding.problem}, checked_at = ${now} ${where}
            RETURNING id`,
      ),
      mails,
    });
    return { changed: accepted, emailIds: written.refused.length > 0 ? written.mails.map((row) => row.id) : [] };
  }
  const { found } = finding;
  const confirmations = found.height === null ? 0 : Math.max(0, (await tipOf(payout.asset)) - found.height + 1);
  // Settled (no longer checked) only well past the confirmations the client is shown as Confirmed at.
  const settled = confirmations >= neededOf(chains, payout.asset) + PAYOUT_MATCH.watchedBlocksPastConfirmed;
  const status = settled ? "confirmed" : "matched";
  const fee = found.feeUnits === null ? null : found.feeUnits.toString();
  const common = sql`status = ${status}, confirmations = ${confirmations}, block_height = ${found.height},
                     fee_units = ${fee}, problem = NULL, missing_since = NULL, checked_at = ${now}`;
  if (finding.kind === "progress") {
    await db.run(sql`UPDATE chain_payouts SET ${common} ${where}`);
    return { changed: true, emailIds: [] };
  }
  const { output, paidCents, rate } = finding;
  // The unique index of accepted payouts' (asset, txid, output) holds "one output, one withdrawal" against a race.
  await db.run(sql`UPDATE chain_payouts SET ${common}, output_index = ${output.index},
                     amount_units = ${output.units.toString()}, usd_cents = ${paidCents}, usd_rate = ${rate.usd},
                     rate_at = ${rate.at} ${where}`);
  return { changed: true, emailIds: [] };
}

/** The payouts to check now: not settled nor refused, the longest unchecked first. */
function openPayouts(db: Db, assets: ChainAsset[]) {
  return db.all<OpenPayout>(
    sql`SELECT p.id, p.user_id AS userId, p.asset, p.txid, p.status, p.recorded_at AS recordedAt,
          p.missing_since AS missingSince, t.amount_cents AS amountCents, t.withdrawal_wallet_address AS address
        FROM chain_payouts p JOIN transactions t ON t.id = p.transaction_id
        WHERE p.status IN ('recorded', 'matched') AND p.asset IN (SELECT value FROM json_each(${JSON.stringify(assets)}))
        ORDER BY p.checked_at, p.id LIMIT ${PAYOUTS_PER_RUN}`,
  );
}

/** Checks the open payouts; answers the clients whose payouts changed (their feed is told) and the desk's mails. */
export async function checkPayouts(
  db: Db,
  chains: PayoutChains,
  now = Date.now(),
): Promise<{ changed: string[]; emailIds: number[] }> {
  const assets: ChainAsset[] = [
    ...(chains.bitcoin ? ["BTC" as const] : []),
    ...(chains.ethereum ? ["ETH" as const, "USDT_ERC20" as const] : []),
  ];
  if (assets.length === 0) return { changed: [], emailIds: [] };
  const changed = new Set<string>();
  const emailIds: number[] = [];
  const tipOf = tipReader(chains);
  for (const payout of await openPayouts(db, assets)) {
    // One payout whose read or write fails never holds up the others: it goes to the back of the queue.
    try {
      const taken = () =>
        db
          .all<{ outputIndex: number }>(
            sql`SELECT output_index AS outputIndex FROM chain_payouts WHERE asset = ${payout.asset}
                  AND txid = ${payout.txid} AND status IN ('matched', 'confirmed') AND id <> ${payout.id}`,
          )
          .then((rows) => rows.map((row) => row.outputIndex));
      const finding = await judge(payout, await lookUp(chains, payout), { rates: chains.rates, taken }, now);
      const written = await write(db, chains, payout, finding, now, tipOf);
      if (written.changed) changed.add(payout.userId);
      emailIds.push(...written.emailIds);
    } catch (error) {
      console.error(`chain watcher: payout ${payout.id} could not be checked`, error);
      await db.run(sql`UPDATE chain_payouts SET checked_at = ${now} WHERE id = ${payout.id}`).catch(() => undefined);
    }
  }
  return { changed: [...changed], emailIds };
}
