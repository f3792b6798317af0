import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { WAITING } from "~/server/chain/credit.server";
import { chainWorld, depositsOf, paymentsOf, verifiedClient, verifiedPayee } from "../support/chain-watch";
import { createUser, postForm } from "../support/fixtures";

/**
 * The deposit watcher against the chain simulator (docs/product.md, "Deposits on chain"): a payment to a client's
 * own address is seen, moves through its confirmations and is credited once, at the rate of its time; whatever the
 * chain does meanwhile (a second run, a reorganisation, a replacement, an outage, a stale rate), no payment is
 * credited twice, to anyone else, or without its confirmations.
 */
describe("a payment on chain", () => {
  it("is seen in the mempool, counts its confirmations and is credited once, at the rate of its time", async () => {
    const { world, client, btc } = await verifiedPayee();
    const paid = await world.chain.pay({ address: btc, amount: "0.01" });
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "seen", confirmations: 0, block_height: null }]);
    await world.chain.mine(1);
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "seen", confirmations: 1 }]);
    expect(await depositsOf(client.id)).toEqual([]);
    await world.chain.mine(1);
    await world.watch();
    await world.watch();
    const [payment] = await paymentsOf(client.id);
    expect(payment).toMatchObject({ status: "credited", asset: "BTC", amount_units: "1000000", usd_rate: "65000" });
    const deposits = await depositsOf(client.id);
    expect(deposits).toHaveLength(1);
    expect(deposits[0]).toMatchObject({
      id: payment?.transaction_id,
      status: "approved",
      amount_cents: 65_000,
      wallet_address: btc,
    });
    expect(deposits[0]?.memo).toContain(`${paid.txid}:${paid.outputIndex}`);
    const profile = await env.DB.prepare("SELECT balance_cents FROM profiles WHERE user_id = ?")
      .bind(client.id)
      .first();
    expect(profile?.balance_cents).toBe(65_000);
    const mail = await env.DB.prepare(
      "SELECT template, json_extract(payload, '$.decision') AS decision FROM email_outbox WHERE to_address = ?",
    )
      .bind(client.email)
      .all();
    expect(mail.results).toEqual([{ template: "request_decided", decision: "approved" }]);
  });

  it("is credited once when two watchers run at the same moment", async () => {
    const { world, client, btc } = await verifiedPayee();
    await world.chain.pay({ address: btc, amount: "0.002" });
    await world.chain.mine(2);
    await Promise.all([world.watchRaw(), world.watchRaw(), world.watchRaw()]);
    await world.watch();
    expect(await depositsOf(client.id)).toHaveLength(1);
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "credited" }]);
  });

  it("is credited to the address's owner only", async () => {
    const world = await chainWorld();
    const payee = await verifiedClient();
    const other = await verifiedClient();
    await world.watch();
    const { btc } = await world.addressesOf(payee.id);
    await world.addressesOf(other.id);
    await world.chain.pay({ address: btc, amount: "0.001" });
    await world.chain.mine(2);
    await world.watch();
    expect(await depositsOf(payee.id)).toHaveLength(1);
    expect(await depositsOf(other.id)).toEqual([]);
    expect(await paymentsOf(other.id)).toEqual([]);
  });

  it("reorganised out before its confirmations goes back to unconfirmed, and is credited once mined again", async () => {
    const { world, client, btc } = await verifiedPayee();
    await world.chain.pay({ address: btc, amount: "0.003" });
    await world.chain.mine(1);
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ confirmations: 1 }]);
    await world.chain.reorg(1);
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "seen", confirmations: 0, block_height: null }]);
    await world.chain.mine(2);
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "credited" }]);
    expect(await depositsOf(client.id)).toHaveLength(1);
  });

  it("reorganised out and dropped is marked so and never credited", async () => {
    const { world, client, btc } = await verifiedPayee();
    await world.chain.pay({ address: btc, amount: "0.003" });
    await world.chain.mine(1);
    await world.watch();
    await world.chain.reorg(1, { drop: true });
    await world.chain.mine(3);
    await world.watch();
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "dropped" }]);
    expect(await depositsOf(client.id)).toEqual([]);
  });

  it("replaced in the mempool is dropped, and the replacement paying elsewhere credits no one", async () => {
    const { world, client, btc } = await verifiedPayee();
    const paid = await world.chain.pay({ address: btc, amount: "0.004" });
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "seen" }]);
    await world.chain.replace(paid.txid);
    await world.chain.mine(3);
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "dropped" }]);
    expect(await depositsOf(client.id)).toEqual([]);
  });

  it("waits for a rate newer than five minutes, says why, and is credited at the fresh one", async () => {
    const { world, client, btc } = await verifiedPayee();
    await world.chain.rate("BTC", 70_000, Math.floor((Date.now() - 10 * 60_000) / 1000));
    await world.chain.pay({ address: btc, amount: "0.01" });
    await world.chain.mine(2);
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "seen", waiting: WAITING.noRate("BTC") }]);
    expect(await depositsOf(client.id)).toEqual([]);
    await world.chain.rate("BTC", 60_000);
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "credited", usd_rate: "60000", waiting: null }]);
    expect(await depositsOf(client.id)).toMatchObject([{ amount_cents: 60_000 }]);
  });

  it("made during an outage is found when the chain's API answers again, from where the watcher stopped", async () => {
    const { world, client, btc } = await verifiedPayee();
    await world.chain.outage("bitcoin", true);
    await world.chain.pay({ address: btc, amount: "0.005" });
    await world.chain.mine(4);
    const [failed] = await world.watchRaw();
    expect(failed?.error).toBeTruthy();
    expect(await paymentsOf(client.id)).toEqual([]);
    await world.chain.outage("bitcoin", false);
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "credited" }]);
    const cursor = await env.DB.prepare("SELECT height FROM chain_scans WHERE network = 'bitcoin'").first();
    expect(cursor?.height).toBe((await world.chain.state()).bitcoin.height);
  });
});

describe("the monitoring rules", () => {
  it("judge a deposit seen on chain like a client's own: a large one raises its alert", async () => {
    const { world, client, btc } = await verifiedPayee();
    await world.chain.pay({ address: btc, amount: "0.2" });
    await world.chain.mine(2);
    await world.watch();
    const [deposit] = await depositsOf(client.id);
    expect(deposit).toMatchObject({ status: "approved", amount_cents: 1_300_000 });
    const alerts = await env.DB.prepare("SELECT rule, trigger_transaction_id FROM monitoring_alerts WHERE user_id = ?")
      .bind(client.id)
      .all();
    expect(alerts.results).toEqual([{ rule: "large_transaction", trigger_transaction_id: deposit?.id }]);
  });
});

describe("Ether and USDT on Ethereum", () => {
  it("are credited at twelve confirmations, each at its own rate", async () => {
    const { world, client, eth, usdt } = await verifiedPayee();
    expect(usdt).toBe(eth);
    await world.chain.pay({ address: eth, amount: "0.5" });
    await world.chain.pay({ address: eth, amount: "250", asset: "USDT" });
    await world.chain.mine(11, "ethereum");
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([
      { asset: "ETH", status: "seen", confirmations: 11 },
      { asset: "USDT_ERC20", status: "seen", confirmations: 11 },
    ]);
    await world.chain.mine(1, "ethereum");
    await world.watch();
    expect((await depositsOf(client.id)).map((d) => d.amount_cents).sort((a, b) => a - b)).toEqual([25_000, 160_000]);
  });
});

describe("a payment the client could not have asked for", () => {
  it("from an unverified client beyond the limit is held for review, not credited", async () => {
    const world = await chainWorld();
    const client = await createUser();
    await world.watch();
    const { btc } = await world.addressesOf(client.id);
    await world.chain.pay({ address: btc, amount: "0.05" });
    await world.chain.mine(2);
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "held" }]);
    expect(await depositsOf(client.id)).toMatchObject([{ status: "pending", amount_cents: 325_000 }]);
    const profile = await env.DB.prepare("SELECT balance_cents FROM profiles WHERE user_id = ?")
      .bind(client.id)
      .first();
    expect(profile?.balance_cents).toBe(0);
  });

  it("from a suspended client is held, though the address was given while active", async () => {
    const { world, client, btc } = await verifiedPayee();
    await env.DB.prepare("UPDATE profiles SET status = 'suspended' WHERE user_id = ?").bind(client.id).run();
    await world.chain.pay({ address: btc, amount: "0.001" });
    await world.chain.mine(2);
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "held" }]);
    expect(await depositsOf(client.id)).toMatchObject([{ status: "pending" }]);
  });

  it("from a Restricted client is held", async () => {
    const world = await chainWorld({ VERIFICATION_INTRODUCED_AT: Date.UTC(2026, 0, 1) });
    const client = await createUser();
    await world.watch();
    const { btc } = await world.addressesOf(client.id);
    await env.DB.prepare("UPDATE users SET created_at = ? WHERE id = ?")
      .bind(Date.UTC(2025, 0, 1), client.id)
      .run();
    await world.chain.pay({ address: btc, amount: "0.0001" });
    await world.chain.mine(2);
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "held" }]);
  });
});

describe("/dev/chain-watcher", () => {
  it("is not there outside development: no one else runs the watcher at will", async () => {
    const response = await postForm("/dev/chain-watcher", {});
    expect(response.status).toBe(404);
  });
});
