import { describe, expect, it } from "vitest";
import { PAYOUT_TEXTS } from "~/lib/chain/payouts";
import { PAYOUT_MATCH } from "~/lib/money/constraints";
import { recordPayout } from "~/server/chain/payouts.server";
import { approvedWithdrawal, approver, clientPayoutLines, incidentMails, payoutOf } from "../support/chain-payouts";
import { chainWorld, verifiedClient } from "../support/chain-watch";

/**
 * Attacks on withdrawals paid on chain (docs/product.md, "Payouts on chain"; docs/decisions/0068), each against the
 * chain simulator: a batch payout, a reorganisation before or after the confirmations, a transaction that leaves the
 * mempool, a price that moves between acceptance and a re-read.
 */

/** A world read once, a verified client, someone else's address to pay, an approver, and the $650.00 withdrawal. */
async function bitcoinPayout() {
  const world = await chainWorld();
  const client = await verifiedClient();
  await world.watch();
  const address = (await world.addressesOf((await verifiedClient()).id)).btc;
  const { actor } = await approver();
  const withdrawal = await approvedWithdrawal(client.id, "BTC", address, 65_000);
  const record = (txid: string, transactionId = withdrawal) =>
    recordPayout(world.context(), actor, { userId: client.id, transactionId, txid });
  return { world, client, address, actor, withdrawal, record };
}

describe("payouts on chain, under attack", () => {
  it("a batch transaction paying one address twice proves both withdrawals to it (its other output is not taken)", async () => {
    // product.md: "one output proves one withdrawal; a batch transaction's other outputs may prove others".
    const { world, client, address, withdrawal: first, record } = await bitcoinPayout();
    const second = await approvedWithdrawal(client.id, "BTC", address, 65_000);
    // One firm transaction, two outputs of 0.01 BTC ($650.00) each to the same address: one per withdrawal.
    const paid = await world.chain.pay({ address, amount: "0.01", outputs: 2 });
    for (const withdrawal of [first, second]) expect((await record(paid.txid, withdrawal)).ok).toBe(true);
    await world.watch();
    const found = [await payoutOf(first), await payoutOf(second)];
    // Each withdrawal accepted on its own output; neither refused as "already recorded as another withdrawal's".
    expect(found.map((row) => (row?.status === "mismatch" ? row.problem : "accepted"))).toEqual([
      "accepted",
      "accepted",
    ]);
    expect(new Set(found.map((row) => row?.output_index)).size).toBe(2);
    expect(await incidentMails(paid.txid)).toMatchObject({ results: [] });
  });

  it("an accepted payout reorganised out and mined again is not judged again at a moved price", async () => {
    const { world, client, address, withdrawal, record } = await bitcoinPayout();
    const paid = await world.chain.pay({ address, amount: "0.01" });
    await world.chain.mine(1);
    await record(paid.txid);
    await world.watch();
    expect(await payoutOf(withdrawal)).toMatchObject({ status: "matched" });
    expect(await clientPayoutLines(client.id)).toHaveLength(1);
    // Its block is replaced: the transaction is back in the mempool, out of the client's view until mined again.
    await world.chain.reorg(1);
    await world.watch();
    expect(await clientPayoutLines(client.id)).toEqual([]);
    // Bitcoin has moved 5% meanwhile: the payment proven at acceptance is the same payment.
    await world.chain.rate("BTC", 68_250);
    await world.chain.mine(1);
    await world.watch();
    expect(await payoutOf(withdrawal)).toMatchObject({ status: "matched" });
    expect(await clientPayoutLines(client.id)).toEqual([expect.stringContaining("1 of 2 confirmations")]);
    expect(await incidentMails(paid.txid)).toMatchObject({ results: [] });
  });

  it("an accepted payout the chain no longer knows waits, out of the client's view, and is refused once missing 6 hours", async () => {
    const { world, client, address, actor, withdrawal, record } = await bitcoinPayout();
    const paid = await world.chain.pay({ address, amount: "0.01" });
    await world.chain.mine(1);
    await record(paid.txid);
    await world.watch();
    await world.chain.reorg(1, { drop: true });
    await world.watch();
    // One run where the chain does not know it is no refusal.
    expect(await payoutOf(withdrawal)).toMatchObject({ status: "matched" });
    expect(await clientPayoutLines(client.id)).toEqual([]);
    await world.watch(Date.now() + PAYOUT_MATCH.notFoundAfterMs + 60_000);
    expect(await payoutOf(withdrawal)).toMatchObject({ status: "mismatch", problem: PAYOUT_TEXTS.leftChain });
    expect((await incidentMails(paid.txid)).results).toContainEqual({ to_address: actor.email });
  });

  it("a confirmed payout whose block a reorganisation took out is not left as Confirmed without the desk hearing of it", async () => {
    const { world, client, address, withdrawal, record } = await bitcoinPayout();
    const paid = await world.chain.pay({ address, amount: "0.01" });
    await world.chain.mine(2);
    await record(paid.txid);
    await world.watch();
    // Confirmed for the client; still watched, 6 blocks past the confirmations, before it is settled.
    expect(await payoutOf(withdrawal)).toMatchObject({ status: "matched" });
    expect(await clientPayoutLines(client.id)).toEqual([expect.stringMatching(/· Confirmed$/)]);
    // The two blocks are replaced and the payout's transaction is gone from the chain.
    await world.chain.reorg(3, { drop: true });
    await world.watchRaw();
    await world.watchRaw();
    // A credited deposit in the same position is listed on /admin/chain-payments and mailed to the desk; the
    // payout is still shown to its client as "Confirmed" and no one is told.
    const told = (await incidentMails(paid.txid)).results.length > 0;
    const stillConfirmed = (await clientPayoutLines(client.id)).some((line) => line.endsWith("Confirmed"));
    expect({ told, stillConfirmed }).not.toEqual({ told: false, stillConfirmed: true });
  });

  it("a client never sees as paid a transaction that was never mined (replaced in the mempool)", async () => {
    const { world, client, address, withdrawal, record } = await bitcoinPayout();
    const paid = await world.chain.pay({ address, amount: "0.01" });
    await record(paid.txid);
    await world.watch();
    const shownWhileUnmined = await clientPayoutLines(client.id);
    // The payer replaces it by fee, paying elsewhere: the transaction the client was shown never reaches a block.
    await world.chain.replace(paid.txid);
    await world.chain.mine(2);
    await world.watch();
    // Accepted from the mempool, the payout waits for its block; the replaced transaction never reaches one.
    expect(await payoutOf(withdrawal)).toMatchObject({ status: "matched" });
    expect(shownWhileUnmined).toEqual([]);
    expect(await clientPayoutLines(client.id)).toEqual([]);
  });
});
