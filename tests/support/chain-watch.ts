import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { ownDepositAddresses } from "~/server/chain/deposit-page.server";
import { runChainWatcher } from "~/server/chain/watcher.server";
import type { AppEnv } from "~/server/env.server";
import { chainControl } from "./chain";
import { ETHEREUM, TESTNET } from "./chain-vectors";
import { appEnv, createUser, db } from "./fixtures";
import { markVerified } from "./verification-state";

/**
 * A world of the run's chain simulator for one test, the Worker's bindings pointed at it, and the firm's wallets
 * holding the published test keys: the watcher, the deposit page and the ledger run for real against it. `vars`
 * change the chain settings the simulator's world gives (ETHEREUM_CHAIN_ID, say).
 */
export async function chainWorld(overrides: Partial<AppEnv> = {}, vars: Record<string, string> = {}) {
  const chain = chainControl(inject("chainSimulatorUrl"), `watch-${crypto.randomUUID().slice(0, 8)}`);
  // Each test reads a chain of its own from its start: the scan's cursor of another test's chain is not this one's.
  await env.DB.batch([env.DB.prepare("DELETE FROM chain_scans"), env.DB.prepare("DELETE FROM chain_blocks")]);
  for (const [walletType, key] of [
    ["BTC", TESTNET.accountVpub],
    ["ETH", ETHEREUM.accountXpub],
    ["USDT (ERC20)", ETHEREUM.accountXpub],
  ]) {
    await env.DB.prepare(
      `INSERT INTO deposit_wallets (wallet_type, wallet_address) VALUES (?, ?)
       ON CONFLICT (wallet_type) DO UPDATE SET wallet_address = excluded.wallet_address`,
    )
      .bind(walletType, key)
      .run();
  }
  const bindings = { ...env, ...chain.vars, ...vars } as typeof env;
  const context = () => ({ db, env: { ...appEnv, ...overrides }, bindings, ctx: createExecutionContext() });
  return {
    chain,
    bindings,
    /** A command's context reading this world, as the Worker's would. */
    context,
    /** One run of the scheduled watcher (at `now`, when told), and what it left to do in the background done. */
    async watch(now?: number) {
      const c = context();
      const runs = await runChainWatcher(c, now);
      await waitOnExecutionContext(c.ctx);
      for (const run of runs) if (run.error) throw new Error(`${run.network}: ${run.error}`);
      return runs;
    },
    /** The watcher's run as it is, errors included; `now` moves its clock. */
    async watchRaw(now?: number) {
      const c = context();
      const runs = await runChainWatcher(c, now);
      await waitOnExecutionContext(c.ctx);
      return runs;
    },
    /** The client's own addresses, as /deposit gives them. */
    async addressesOf(userId: string) {
      const own = await ownDepositAddresses(context(), userId);
      const takes = (asset: string) => own.find((o) => o.assets.includes(asset))?.address ?? "";
      return { btc: takes("BTC"), eth: takes("ETH"), usdt: takes("USDT (ERC-20)") };
    },
  };
}

export interface PaymentRow {
  status: string;
  confirmations: number;
  transaction_id: number | null;
  asset: string;
  amount_units: string;
  usd_rate: string | null;
  waiting: string | null;
  block_height: number | null;
}

export async function paymentsOf(userId: string) {
  const rows = await env.DB.prepare(
    `SELECT status, confirmations, transaction_id, asset, amount_units, usd_rate, waiting, block_height
     FROM chain_payments WHERE user_id = ? ORDER BY id`,
  )
    .bind(userId)
    .all<PaymentRow>();
  return rows.results;
}

export async function depositsOf(userId: string) {
  const rows = await env.DB.prepare(
    `SELECT id, status, amount_cents, memo, wallet_address FROM transactions
     WHERE user_id = ? AND transaction_type = 'deposit' ORDER BY id`,
  )
    .bind(userId)
    .all<{ id: number; status: string; amount_cents: number; memo: string | null; wallet_address: string }>();
  return rows.results;
}

/** A client whose identity is verified: their deposits have no level limit. */
export async function verifiedClient() {
  const client = await createUser();
  await markVerified(client.id);
  return client;
}

/**
 * A world whose watcher has run once (its cursor at the tip), and a verified client with their own addresses, as
 * /deposit gives them: where most watcher tests start.
 */
export async function verifiedPayee() {
  const world = await chainWorld();
  const client = await verifiedClient();
  await world.watch();
  return { world, client, ...(await world.addressesOf(client.id)) };
}
