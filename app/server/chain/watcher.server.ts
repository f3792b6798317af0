/**
 * The deposit watcher, run by the scheduled handler every minute (docs/decisions/0067): each configured chain is
 * scanned (scan.server.ts), then its payments with their confirmations are credited or held (credit.server.ts). The
 * clients whose payments changed hear it on their feed; a credit or hold is a new ledger row, told like any other,
 * judged by the monitoring rules and mailed. A payment in the ledger whose block left the chain is marked for the desk
 * (reorganised.server.ts). A chain whose API fails is tried again at the next run; the others go on.
 */
import { REORGANISED_OUT } from "~/lib/chain/deposit-texts";
import type { ChainAsset, ChainNetworkName } from "../../../db/enums";
import type { CommandContext } from "../command-context.server";
import { afterCommit } from "../commands.server";
import type { Db } from "../db.server";
import { creditPayment, markWaiting, readyPayments, WAITING } from "./credit.server";
import { esplora } from "./esplora.server";
import { evmRpc } from "./evm-rpc.server";
import { type Incident, tellTheDesk } from "./incidents.server";
import { checkPayouts, type PayoutChains } from "./payout-check.server";
import { readUsdRates, type UsdRate } from "./rates.server";
import { bitcoinReader, ethereumReader } from "./readers.server";
import { keptBlocks, markReorganisedOut } from "./reorganised.server";
import { type ChainReader, type ScanResult, scanChain } from "./scan.server";
import { type ChainSettings, chainSettings } from "./settings.server";

export interface WatcherRun {
  network: ChainNetworkName;
  scan: ScanResult | null;
  credited: number;
  held: number;
  error?: string;
}

function readers(db: Db, settings: ChainSettings): Array<{ reader: ChainReader; confirmations: number }> {
  const { bitcoin, ethereum } = settings;
  return [
    ...(bitcoin.esploraUrl
      ? [
          {
            reader: bitcoinReader(db, { ...bitcoin, esploraUrl: bitcoin.esploraUrl }),
            confirmations: bitcoin.confirmations,
          },
        ]
      : []),
    ...(ethereum.rpcUrl
      ? [
          {
            reader: ethereumReader(db, { ...ethereum, rpcUrl: ethereum.rpcUrl }),
            confirmations: ethereum.confirmations,
          },
        ]
      : []),
  ];
}

export async function runChainWatcher(context: CommandContext, now = Date.now()): Promise<WatcherRun[]> {
  const settings = chainSettings(context.bindings);
  const owner = crypto.randomUUID();
  let rates: Promise<Partial<Record<ChainAsset, UsdRate>>> | undefined;
  const ratesNow = () => {
    // One read per run, and only when something is ready to credit.
    rates ??= settings.ratesUrl ? readUsdRates(settings.ratesUrl).catch(() => ({})) : Promise.resolve({});
    return rates;
  };
  const runs: WatcherRun[] = [];
  const reorganisedOut: Incident[] = [];
  for (const { reader, confirmations } of readers(context.db, settings)) {
    const run: WatcherRun = { network: reader.network, scan: null, credited: 0, held: 0 };
    runs.push(run);
    try {
      // Read every run: a provider's URL may be pointed at another network at any time.
      const wrongChain = await reader.wrongChain();
      if (wrongChain) {
        run.error = wrongChain;
        continue;
      }
      // A reorganisation that takes out a payment already in the ledger is marked for the desk, even when the run
      // fails after rewinding.
      const kept = await keptBlocks(context.db, reader.network);
      run.scan = await scanChain(context.db, reader, owner, now).finally(async () => {
        for (const { id, txid, userId } of await markReorganisedOut(context.db, reader.network, kept, now)) {
          reorganisedOut.push({
            kind: "credit_reorganised_out",
            key: String(id),
            userId,
            txid,
            reason: REORGANISED_OUT,
          });
        }
      });
      if (!run.scan) continue;
      const touched = new Set(run.scan.touched);
      for (const payment of await readyPayments(context.db, reader.network, confirmations)) {
        const rate = (await ratesNow())[payment.asset];
        // One payment that cannot be credited (whatever the reason) never holds up the others behind it.
        const credited = await creditPayment(context.db, context.env, payment, rate, now).catch(async (error) => {
          console.error(`chain watcher: payment ${payment.id} could not be credited`, error);
          await markWaiting(context.db, payment.id, WAITING.failed, now).catch(() => undefined);
          return null;
        });
        if (!credited) continue;
        touched.add(credited.userId);
        if (credited.held) run.held++;
        else run.credited++;
        afterCommit(context, {
          emailIds: credited.emailIds,
          events: [
            { userId: credited.userId, event: { type: "transaction.created", transaction: credited.transaction } },
          ],
          monitorTransactionId: credited.transaction.id,
        });
      }
      afterCommit(context, {
        events: [...touched].map((userId) => ({ userId, event: { type: "chain_payments.changed", userId } })),
      });
    } catch (error) {
      run.error = error instanceof Error ? error.message : String(error);
    }
  }
  // Then the withdrawals' recorded payouts, on the chains watched.
  await checkPayoutsAndTell(context, { ...payoutReaders(settings), settings, rates: ratesNow }, reorganisedOut, now);
  return runs;
}

const payoutReaders = (settings: ChainSettings) => ({
  bitcoin: settings.bitcoin.esploraUrl ? esplora(settings.bitcoin.esploraUrl) : undefined,
  ethereum: settings.ethereum.rpcUrl ? evmRpc(settings.ethereum.rpcUrl) : undefined,
});

/** The payouts' check, then the clients' feeds and the desk's mails of what a person must look at. */
async function checkPayoutsAndTell(context: CommandContext, chains: PayoutChains, incidents: Incident[], now: number) {
  const payouts = await checkPayouts(context.db, chains, now).catch((error) => {
    console.error("chain watcher: payouts could not be checked", error);
    return { changed: [] as string[], emailIds: [] as number[] };
  });
  const emailIds = await tellTheDesk(context.db, incidents).catch((error) => {
    console.error("chain watcher: the desk could not be told", error);
    return [];
  });
  const { changed } = payouts;
  afterCommit(context, {
    emailIds: [...payouts.emailIds, ...emailIds],
    events: changed.map((userId) => ({ userId, event: { type: "chain_payments.changed", userId } })),
  });
}
