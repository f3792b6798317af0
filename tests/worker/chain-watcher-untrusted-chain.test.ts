import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_AMOUNT_CENTS } from "~/lib/ledger";
import { chainWorld, depositsOf, paymentsOf, verifiedClient, verifiedPayee } from "../support/chain-watch";
import { createUser } from "../support/fixtures";

/**
 * What the deposit watcher must still get right when the chain's API is not one consistent, well-behaved node:
 * answers from nodes on two branches during one run (a reorganisation between reads, or a provider's load
 * balancer), a transaction one read does not know yet, a rate written with an exponent, an amount beyond what the
 * ledger holds in whole cents. Each expectation is the safe outcome; the reads are the simulator's, changed only
 * where said.
 */
const realFetch = globalThis.fetch;
const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : String(input));

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a chain that changes while the watcher reads it", () => {
  it("never credits a payment whose block was replaced between the cursor's check and the next block's read", async () => {
    const { world, client, btc } = await verifiedPayee();
    await world.chain.pay({ address: btc, amount: "0.01" });
    const { height } = await world.chain.mine(1);
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "seen", block_height: height, confirmations: 1 }]);
    await world.chain.mine(1);
    // The next run checks that the block it stopped at is still there (it is), then the chain replaces that block
    // and the next one, losing the payment, before the run reads the new tip: the block it then reads does not
    // build on the one it checked.
    let reorganised = false;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const answer = await realFetch(input, init);
      if (!reorganised && urlOf(input).endsWith(`/block-height/${height}`)) {
        reorganised = true;
        await world.chain.reorg(2, { drop: true });
      }
      return answer;
    });
    await world.watchRaw();
    vi.restoreAllMocks();
    expect(reorganised).toBe(true);
    await world.chain.mine(1);
    await world.watch();
    await world.watch();
    // The payment is on no chain the API knows: it must not be credited.
    expect(await depositsOf(client.id)).toEqual([]);
    expect((await paymentsOf(client.id)).map((p) => p.status)).not.toContain("credited");
  });

  it("credits a payment that one status read did not know, once it is mined with its confirmations", async () => {
    const { world, client, btc } = await verifiedPayee();
    const paid = await world.chain.pay({ address: btc, amount: "0.01" });
    await world.watch();
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "seen", block_height: null }]);
    // One backend of the API has not seen the transaction yet (or evicted it and has it again a moment later).
    let missed = false;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      if (!missed && urlOf(input).endsWith(`/tx/${paid.txid}/status`)) {
        missed = true;
        return new Response("Transaction not found", { status: 404 });
      }
      return realFetch(input, init);
    });
    await world.watch();
    vi.restoreAllMocks();
    expect(missed).toBe(true);
    await world.chain.mine(2);
    await world.watch();
    await world.watch();
    // The client's money is on chain with its confirmations: it must reach their balance (or the desk).
    expect((await paymentsOf(client.id)).map((p) => p.status)).toEqual(["credited"]);
    expect(await depositsOf(client.id)).toHaveLength(1);
  });
});

describe("one payment that cannot be credited", () => {
  it("does not stop the credit of the other payments on its chain", async () => {
    const { world, client, eth } = await verifiedPayee();
    await world.chain.pay({ address: eth, amount: "0.1" });
    await world.chain.pay({ address: eth, amount: "25", asset: "USDT" });
    // A rate API answering a number JSON writes with an exponent: the ETH payment's credit cannot use it.
    await world.chain.rate("ETH", 1e21);
    await world.chain.mine(12, "ethereum");
    const runs = await world.watchRaw();
    expect(runs.find((run) => run.network === "ethereum")?.error).toBeUndefined();
    expect(await depositsOf(client.id)).toMatchObject([{ amount_cents: 2_500, status: "approved" }]);
  });
});

describe("an amount beyond the ledger's whole cents", () => {
  it("is never approved as a floating-point credit", async () => {
    const { world, client, eth } = await verifiedPayee();
    // 10^14 ETH at 3,200 USD is 3.2e19 cents: more than a 64-bit integer holds, and above the claim forms' limit.
    await world.chain.pay({ address: eth, amount: "100000000000000" });
    await world.chain.mine(12, "ethereum");
    await world.watchRaw();
    const rows = await env.DB.prepare(
      `SELECT typeof(amount_cents) AS kind, amount_cents AS cents, status FROM transactions WHERE user_id = ?`,
    )
      .bind(client.id)
      .all<{ kind: string; cents: number; status: string }>();
    for (const row of rows.results) {
      expect(row.kind).toBe("integer");
      if (row.status === "approved") expect(row.cents).toBeLessThanOrEqual(MAX_AMOUNT_CENTS);
    }
    const profile = await env.DB.prepare("SELECT typeof(balance_cents) AS kind FROM profiles WHERE user_id = ?")
      .bind(client.id)
      .first<{ kind: string }>();
    expect(profile?.kind).toBe("integer");
  });
});

describe("the unconfirmed payments read at the addresses /deposit showed", () => {
  it("a failed read at one client's address does not stop the confirmations and credits of everyone else", async () => {
    const world = await chainWorld();
    const payee = await verifiedClient();
    const browser = await createUser();
    await world.watch();
    const { btc } = await world.addressesOf(payee.id);
    await world.chain.pay({ address: btc, amount: "0.01" });
    await world.chain.mine(2);
    // Another client only opened /deposit; the API refuses that one read (a rate limit, a hiccup).
    const { btc: shown } = await world.addressesOf(browser.id);
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) =>
      urlOf(input).includes(`/address/${shown}/txs/mempool`)
        ? new Response("Too Many Requests", { status: 429 })
        : realFetch(input, init),
    );
    await world.watchRaw();
    expect(await depositsOf(payee.id)).toHaveLength(1);
  });

  it("do not make one run read the chain once per client who merely opened /deposit", async () => {
    const world = await chainWorld();
    await world.watch();
    for (let i = 0; i < 60; i++) await world.addressesOf((await createUser()).id);
    let reads = 0;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      if (urlOf(input).includes("/bitcoin/api/")) reads++;
      return realFetch(input, init);
    });
    await world.watch();
    // Nobody paid anything: a handful of reads for the tip and its block, not one per client (the Free plan's
    // Worker may make 50 subrequests per invocation, shared with the cron's mail delivery).
    expect(reads).toBeLessThan(20);
  });
});

describe("an Ethereum node's logs", () => {
  it("credit as USDT only Transfer logs of the USDT contract, whatever else the answer holds", async () => {
    const { world, client, usdt } = await verifiedPayee();
    // A real USDT transfer to someone else in the same block, so the answer has a log to stand beside.
    await world.chain.pay({ address: "0x000000000000000000000000000000000000dEaD", amount: "1", asset: "USDT" });
    // The answer also carries a Transfer of another token (anyone may deploy one and mint without limit) to the
    // client: a provider that ignores eth_getLogs' address filter, or an aggregator that merges answers.
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const body = typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string }) : {};
      const answer = await realFetch(input, init);
      if (body.method !== "eth_getLogs") return answer;
      const read = (await answer.json()) as { result: Array<Record<string, unknown>> };
      const real = read.result[0];
      if (real) {
        read.result.push({
          ...real,
          address: "0x00000000000000000000000000000000000bad01",
          topics: [
            (real.topics as string[])[0],
            `0x${"0".repeat(24)}${"11".repeat(20)}`,
            `0x${"0".repeat(24)}${usdt.slice(2).toLowerCase()}`,
          ],
          data: `0x${(1_000_000n * 10n ** 6n).toString(16).padStart(64, "0")}`,
          transactionHash: `0x${"ab".repeat(32)}`,
          logIndex: "0x7",
        });
      }
      return Response.json(read);
    });
    await world.chain.mine(12, "ethereum");
    await world.watchRaw();
    expect(await paymentsOf(client.id)).toEqual([]);
    expect(await depositsOf(client.id)).toEqual([]);
  });
});

describe("payments worth less than a cent", () => {
  it("are not judged again at every run: a few hundred of them must not fill the cron's query budget", async () => {
    const { world, client, eth } = await verifiedPayee();
    // 1 wei each: anyone can send these to any client's address for the price of the gas.
    for (let i = 0; i < 60; i++) await world.chain.pay({ address: eth, amount: "0.000000000000000001" });
    await world.chain.mine(12, "ethereum");
    await world.watch();
    expect(new Set((await paymentsOf(client.id)).map((p) => p.status))).toEqual(new Set(["seen"]));
    const prepare = vi.spyOn(env.DB, "prepare");
    await world.watch();
    // Nothing new happened on either chain; D1 allows 50 queries per invocation on the Free plan, 1,000 on Paid.
    expect(prepare.mock.calls.length).toBeLessThan(40);
  });
});
