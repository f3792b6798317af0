/**
 * The watcher's check of recorded payouts (docs/product.md, "Payouts on chain"): each run reads the transaction of
 * every payout not yet confirmed or refused (up to PAYOUTS_PER_RUN, the longest unchecked first: the reads grow with
 * payouts in flight, not with clients), accepts it once it pays the withdrawal's address its amount, counts its
 * confirmations, and refuses it, for the desk to see, when it pays another address or amount, fails, or is never
 * found. A refused payout is final; the admin records the right one.
 */
import { sql } from "drizzle-orm";
import { ASSET_DECIMALS, RATE_MAX_AGE_MS } from "~/lib/chain/deposit-texts";
import { PAYOUT_TEXTS, payoutAmountMatches, unitsText } from "~/lib/chain/payouts";
import { MAX_AMOUNT_CENTS } from "~/lib/ledger";
import { PAYOUT_MATCH } from "~/lib/money/constraints";
import type { ChainAsset, ChainPayoutStatus } from "../../../db/enums";
import type { Db } from "../db.server";
import type { Esplora } from "./esplora.server";
import { type EvmRpc, TRANSFER_TOPIC } from "./evm-rpc.server";
import type { Incident } from "./incidents.server";
import { networkOfAsset } from "./payouts.server";
import { type UsdRate, usdCents } from "./rates.server";
import type { ChainSettings } from "./settings.server";

const PAYOUTS_PER_RUN = 20;

interface OpenPayout {
  id: number;
  userId: string;
  asset: ChainAsset;
  txid: string;
  status: ChainPayoutStatus;
  recordedAt: number;
  outputIndex: number | null;
  amountCents: number;
  address: string;
}

/** What a chain says of a transaction, the same for every asset. */
interface Found {
  outputs: Array<{ index: number; address: string; units: bigint }>;
  feeUnits: bigint | null;
  height: number | null;
  reverted: boolean;
}

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

const tips = new WeakMap<PayoutChains, Map<string, Promise<number>>>();
/** The chain's tip, read once per run and chain. */
function tipOf(chains: PayoutChains, asset: ChainAsset): Promise<number> {
  const network = networkOfAsset(asset);
  const known = tips.get(chains) ?? new Map<string, Promise<number>>();
  tips.set(chains, known);
  const reader = network === "bitcoin" ? chains.bitcoin : chains.ethereum;
  if (!reader) return Promise.reject(new Error(`${network} is not watched`));
  const tip = known.get(network) ?? reader.tipHeight();
  known.set(network, tip);
  return tip;
}

type Finding =
  | { kind: "wait"; problem: string | null }
  | { kind: "refuse"; problem: string }
  | { kind: "accept"; output: Found["outputs"][number]; paidCents: number; rate: UsdRate; found: Found }
  | { kind: "progress"; found: Found };

async function judge(chains: PayoutChains, payout: OpenPayout, found: Found | null, now: number): Promise<Finding> {
  const late = now - payout.recordedAt > PAYOUT_MATCH.notFoundAfterMs;
  if (!found) {
    if (late)
      return { kind: "refuse", problem: payout.status === "matched" ? PAYOUT_TEXTS.leftChain : PAYOUT_TEXTS.notFound };
    return { kind: "wait", problem: PAYOUT_TEXTS.notFoundYet };
  }
  if (found.reverted) return { kind: "refuse", problem: PAYOUT_TEXTS.reverted };
  if (payout.status === "matched") return { kind: "progress", found };
  // A token transfer is known only from its receipt: not before its block.
  if (payout.asset === "USDT_ERC20" && found.height === null)
    return { kind: "wait", problem: PAYOUT_TEXTS.notFoundYet };
  const toAddress = found.outputs.filter((output) => output.address === payout.address.toLowerCase());
  if (toAddress.length === 0) return { kind: "refuse", problem: PAYOUT_TEXTS.otherAddress(payout.address) };
  const rate = (await chains.rates())[payout.asset];
  if (!rate || now - rate.at > RATE_MAX_AGE_MS) return { kind: "wait", problem: PAYOUT_TEXTS.noRate(payout.asset) };
  const valued = toAddress.map((output) => ({
    output,
    paidCents: usdCents(output.units, ASSET_DECIMALS[payout.asset], rate.usd, MAX_AMOUNT_CENTS) ?? MAX_AMOUNT_CENTS + 1,
  }));
  // Of several outputs to the address, the one closest to the amount.
  valued.sort((a, b) => Math.abs(a.paidCents - payout.amountCents) - Math.abs(b.paidCents - payout.amountCents));
  const best = valued[0];
  if (!best) return { kind: "refuse", problem: PAYOUT_TEXTS.otherAddress(payout.address) };
  if (!payoutAmountMatches(best.paidCents, payout.amountCents)) {
    const paid = unitsText(best.output.units.toString(), payout.asset);
    return { kind: "refuse", problem: PAYOUT_TEXTS.otherAmount(paid, best.paidCents, payout.amountCents) };
  }
  return { kind: "accept", output: best.output, paidCents: best.paidCents, rate, found };
}

const confirmationsOf = (found: Found, tip: number) =>
  found.height === null ? 0 : Math.max(0, tip - found.height + 1);

/** Writes one finding; answers whether the client's view of the payout changed. A refusal is told to the desk. */
async function write(
  db: Db,
  chains: PayoutChains,
  payout: OpenPayout,
  finding: Finding,
  now: number,
  refused: Incident[],
): Promise<boolean> {
  const where = sql`WHERE id = ${payout.id} AND status = ${payout.status}`;
  if (finding.kind === "wait") {
    // An accepted payout the chain no longer shows (reorganised out, not yet mined again) is unconfirmed again.
    await db.run(sql`UPDATE chain_payouts SET problem = ${finding.problem}, checked_at = ${now},
                       status = 'recorded', confirmations = 0 ${where}`);
    return payout.status === "matched";
  }
  if (finding.kind === "refuse") {
    const rows = await db.all<{ id: number }>(
      sql`UPDATE chain_payouts SET status = 'mismatch', problem = ${finding.problem}, checked_at = ${now} ${where}
          RETURNING id`,
    );
    if (rows.length > 0) {
      const { userId, txid } = payout;
      refused.push({ kind: "payout_refused", key: String(payout.id), userId, txid, reason: finding.problem });
    }
    return payout.status === "matched";
  }
  const { found } = finding;
  const confirmations = confirmationsOf(found, await tipOf(chains, payout.asset));
  const needed =
    networkOfAsset(payout.asset) === "bitcoin"
      ? chains.settings.bitcoin.confirmations
      : chains.settings.ethereum.confirmations;
  const status = confirmations >= needed ? "confirmed" : "matched";
  const fee = found.feeUnits === null ? null : found.feeUnits.toString();
  if (finding.kind === "progress") {
    await db.run(sql`UPDATE chain_payouts SET status = ${status}, confirmations = ${confirmations},
                       block_height = ${found.height}, fee_units = ${fee}, problem = NULL, checked_at = ${now} ${where}`);
    return true;
  }
  const { output, paidCents, rate } = finding;
  // One payment proves one withdrawal: not when another payout was accepted for it (the unique index of accepted
  // payouts' (asset, txid, output) holds it against a race too).
  const accepted = await db.all<{ id: number }>(
    sql`UPDATE chain_payouts SET status = ${status}, output_index = ${output.index},
          amount_units = ${output.units.toString()}, fee_units = ${fee}, usd_cents = ${paidCents},
          usd_rate = ${rate.usd}, rate_at = ${rate.at}, block_height = ${found.height},
          confirmations = ${confirmations}, problem = NULL, checked_at = ${now} ${where}
          AND NOT EXISTS (SELECT 1 FROM chain_payouts other WHERE other.asset = ${payout.asset}
                            AND other.txid = ${payout.txid} AND other.output_index = ${output.index}
                            AND other.status IN ('matched', 'confirmed'))
        RETURNING id`,
  );
  if (accepted.length === 0)
    await write(db, chains, payout, { kind: "refuse", problem: PAYOUT_TEXTS.outputTaken }, now, refused);
  return true;
}

/** Checks the open payouts; answers the clients whose payouts changed (their feed is told) and the refusals. */
export async function checkPayouts(
  db: Db,
  chains: PayoutChains,
  now = Date.now(),
): Promise<{ changed: string[]; refused: Incident[] }> {
  const watched = [chains.bitcoin ? "'BTC'" : null, ...(chains.ethereum ? ["'ETH'", "'USDT_ERC20'"] : [])].filter(
    Boolean,
  );
  const refused: Incident[] = [];
  if (watched.length === 0) return { changed: [], refused };
  const payouts = await db.all<OpenPayout>(
    sql`SELECT p.id, p.user_id AS userId, p.asset, p.txid, p.status, p.recorded_at AS recordedAt,
          p.output_index AS outputIndex, t.amount_cents AS amountCents, t.withdrawal_wallet_address AS address
        FROM chain_payouts p JOIN transactions t ON t.id = p.transaction_id
        WHERE p.status IN ('recorded', 'matched') AND p.asset IN (${sql.raw(watched.join(", "))})
        ORDER BY p.checked_at, p.id LIMIT ${PAYOUTS_PER_RUN}`,
  );
  const changed = new Set<string>();
  for (const payout of payouts) {
    // One payout whose read fails never holds up the others: it is tried again at the next run.
    try {
      const finding = await judge(chains, payout, await lookUp(chains, payout), now);
      if (await write(db, chains, payout, finding, now, refused)) changed.add(payout.userId);
    } catch (error) {
      console.error(`chain watcher: payout ${payout.id} could not be checked`, error);
    }
  }
  return { changed: [...changed], refused };
}
