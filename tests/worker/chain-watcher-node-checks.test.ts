import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { UNMINED_PAYMENT_MAX_AGE_MS } from "~/lib/chain/deposit-texts";
import { chainWorld, depositsOf, paymentsOf, verifiedClient, verifiedPayee } from "../support/chain-watch";

/**
 * What the deposit watcher checks of the node it reads before trusting it, and how long it waits for a payment
 * that is never mined (docs/decisions/0067): a node on another chain is not scanned, a node behind the watcher's
 * cursor is not a reorganisation, and a payment seen but never mined ends as dropped.
 */
const cursorOf = async (network: string) =>
  env.DB.prepare("SELECT height, block_hash AS hash FROM chain_scans WHERE network = ?")
    .bind(network)
    .first<{ height: number; hash: string }>();

const HOUR = 60 * 60_000;

describe("an Ethereum node on another chain than ETHEREUM_CHAIN_ID", () => {
  it("is not scanned: the run says why, records nothing and credits nothing, and Bitcoin goes on", async () => {
    // Mainnet's id, while the simulator's node is on Sepolia's.
    const world = await chainWorld({}, { ETHEREUM_CHAIN_ID: "1" });
    const client = await verifiedClient();
    await world.watchRaw();
    const { eth, btc } = await world.addressesOf(client.id);
    await world.chain.pay({ address: eth, amount: "0.5" });
    await world.chain.pay({ address: btc, amount: "0.001" });
    await world.chain.mine(12, "ethereum");
    await world.chain.mine(2);
    const runs = await world.watchRaw();
    expect(runs.find((r) => r.network === "ethereum")).toMatchObject({
      scan: null,
      credited: 0,
      error: expect.stringContaining("chain 11155111, not chain 1 (ETHEREUM_CHAIN_ID)"),
    });
    expect(await cursorOf("ethereum")).toBeNull();
    expect(await paymentsOf(client.id)).toMatchObject([{ asset: "BTC", status: "credited" }]);
    expect(await depositsOf(client.id)).toHaveLength(1);
  });

  it("is scanned when the setting names its chain", async () => {
    const world = await chainWorld({}, { ETHEREUM_CHAIN_ID: "11155111" });
    const client = await verifiedClient();
    await world.watch();
    const { eth } = await world.addressesOf(client.id);
    await world.chain.pay({ address: eth, amount: "0.5" });
    await world.chain.mine(12, "ethereum");
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ asset: "ETH", status: "credited" }]);
  });
});

describe("an API behind the block the last run stopped at", () => {
  it("is not taken for a reorganisation on Bitcoin: nothing moves back or drops, the next run goes on", async () => {
    const { world, client, btc } = await verifiedPayee();
    await world.chain.pay({ address: btc, amount: "0.002" });
    const { height } = await world.chain.mine(1);
    await world.watch();
    const before = await cursorOf("bitcoin");
    expect(before?.height).toBe(height);
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "seen", block_height: height, confirmations: 1 }]);
    // The provider's next answer comes from a node two blocks behind: it knows neither the cursor's block nor the
    // payment's, and reads the payment as unconfirmed.
    await world.chain.behind(2);
    const [bitcoin] = await world.watch();
    expect(bitcoin?.scan).toMatchObject({ apiBehind: true, height });
    expect(await cursorOf("bitcoin")).toEqual(before);
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "seen", block_height: height, confirmations: 1 }]);
    await world.chain.behind(0);
    await world.chain.mine(1);
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "credited", block_height: height }]);
    expect(await depositsOf(client.id)).toHaveLength(1);
  });

  it("is not taken for a reorganisation on Ethereum either: a null block is a node that has not caught up", async () => {
    const { world, client, eth } = await verifiedPayee();
    await world.chain.pay({ address: eth, amount: "0.5" });
    const { height } = await world.chain.mine(1, "ethereum");
    await world.watch();
    const before = await cursorOf("ethereum");
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "seen", block_height: height, confirmations: 1 }]);
    await world.chain.behind(2, "ethereum");
    const ethereum = (await world.watch()).find((run) => run.network === "ethereum");
    expect(ethereum?.scan).toMatchObject({ apiBehind: true, height });
    expect(await cursorOf("ethereum")).toEqual(before);
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "seen", block_height: height, confirmations: 1 }]);
    await world.chain.behind(0, "ethereum");
    await world.chain.mine(11, "ethereum");
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "credited", block_height: height }]);
  });
});

describe("a payment seen in the mempool and never mined", () => {
  it("is dropped once it is older than the limit, and seen again if a block holds it after all", async () => {
    const { world, client, btc } = await verifiedPayee();
    await world.chain.pay({ address: btc, amount: "0.003" });
    await world.watch();
    const backDate = (age: number) =>
      env.DB.prepare("UPDATE chain_payments SET seen_at = ? WHERE user_id = ?")
        .bind(Date.now() - age, client.id)
        .run();
    // Still in the API's mempool, and not yet at the limit: still seen.
    await backDate(UNMINED_PAYMENT_MAX_AGE_MS - HOUR);
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "seen", block_height: null }]);
    await backDate(UNMINED_PAYMENT_MAX_AGE_MS + HOUR);
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "dropped", confirmations: 0 }]);
    // A later block holds it: seen again from that block, and credited at its confirmations.
    const { height } = await world.chain.mine(1);
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "seen", block_height: height, confirmations: 1 }]);
    await world.chain.mine(1);
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "credited" }]);
    expect(await depositsOf(client.id)).toHaveLength(1);
  });

  it("is dropped when the watcher's clock passes the limit, though the API still knows it", async () => {
    const { world, client, btc } = await verifiedPayee();
    await world.chain.pay({ address: btc, amount: "0.003" });
    await world.watch();
    const runs = await world.watchRaw(Date.now() + UNMINED_PAYMENT_MAX_AGE_MS + HOUR);
    expect(runs.every((run) => !run.error)).toBe(true);
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "dropped" }]);
    expect((await world.chain.state()).bitcoin.mempool).toHaveLength(1);
  });
});
