import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Esplora } from "~/server/chain/esplora.server";
import type { EvmRpc } from "~/server/chain/evm-rpc.server";
import { checkPayouts, type PayoutChains } from "~/server/chain/payout-check.server";
import { recordPayout } from "~/server/chain/payouts.server";
import { chainSettings } from "~/server/chain/settings.server";
import type { SessionUser } from "~/server/session.server";
import type { ChainAsset } from "../../db/enums";
import { chainWorld, verifiedClient } from "../support/chain-watch";
import { createUser, db, getPage, insertTransaction, sessionCookieFor } from "../support/fixtures";
import { testIdTexts } from "../support/places";

/**
 * Attacks on withdrawals paid on chain (docs/product.md, "Payouts on chain"; docs/decisions/0068) that found a hole:
 * each test states what the rule promises and fails while the hole is open.
 */

const CURRENCY: Record<ChainAsset, string> = { BTC: "BTC", ETH: "ETH", USDT_ERC20: "USDT (ERC)" };

async function approver() {
  const user = await createUser({ role: "admin", roles: ["approver"] });
  return { ...user, role: "admin", roles: ["approver"] } as unknown as SessionUser;
}

async function approvedWithdrawal(userId: string, asset: ChainAsset, address: string, amountCents: number) {
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

const payoutOf = (transactionId: number) =>
  env.DB.prepare("SELECT status, problem, output_index FROM chain_payouts WHERE transaction_id = ? ORDER BY id DESC")
    .bind(transactionId)
    .first<{ status: string; problem: string | null; output_index: number | null }>();

const clientPayoutLines = async (userId: string) =>
  testIdTexts(await (await getPage("/transactions", await sessionCookieFor(userId))).text(), "payout-line");

const incidentMails = (txid: string) =>
  env.DB.prepare(
    "SELECT to_address FROM email_outbox WHERE template = 'chain_incident' AND json_extract(payload, '$.txid') = ?",
  )
    .bind(txid)
    .all();

/** Readers that answer what the test says the chain holds, at a rate as fresh as the check's clock. */
function stubChains(world: Awaited<ReturnType<typeof chainWorld>>, parts: Partial<PayoutChains>, usd: () => string) {
  return {
    settings: chainSettings(world.bindings),
    rates: async () => ({
      BTC: { usd: usd(), at: Date.now(), source: "test" },
      ETH: { usd: usd(), at: Date.now(), source: "test" },
    }),
    ...parts,
  } as PayoutChains;
}

describe("payouts on chain: attacks that found a hole", () => {
  it("a batch transaction paying one address twice proves both withdrawals to it (its other output is not taken)", async () => {
    // product.md: "one output proves one withdrawal; a batch transaction's other outputs may prove others".
    const world = await chainWorld();
    const client = await verifiedClient();
    const address = (await world.addressesOf((await verifiedClient()).id)).btc;
    const actor = await approver();
    const first = await approvedWithdrawal(client.id, "BTC", address, 65_000);
    const second = await approvedWithdrawal(client.id, "BTC", address, 65_000);
    const txid = "5a".repeat(32);
    // One firm transaction, two outputs of 0.01 BTC ($650.00) each to the same address: one per withdrawal.
    const bitcoin = {
      tipHeight: async () => 200,
      transaction: async () => ({
        outputs: [
          { address, value: 1_000_000n },
          { address, value: 1_000_000n },
          { address: "tb1qchangechangechangechangechangechangechange", value: 5_000_000n },
        ],
        fee: 1_000n,
        status: { confirmed: true, height: 199, hash: "00".repeat(32) },
      }),
    } as unknown as Esplora;
    for (const withdrawal of [first, second])
      expect(
        (await recordPayout(world.context(), actor, { userId: client.id, transactionId: withdrawal, txid })).ok,
      ).toBe(true);
    await checkPayouts(
      db,
      stubChains(world, { bitcoin }, () => "65000"),
    );
    const found = [await payoutOf(first), await payoutOf(second)];
    // Each withdrawal accepted on its own output; neither refused as "already recorded as another withdrawal's".
    expect(found.map((row) => (row?.status === "mismatch" ? row.problem : "accepted"))).toEqual([
      "accepted",
      "accepted",
    ]);
    expect(found.map((row) => row?.output_index).sort()).toEqual([0, 1]);
  });

  it("an accepted payout whose transaction was briefly unreadable is not refused later for the price having moved", async () => {
    const world = await chainWorld();
    const client = await verifiedClient();
    const address = (await world.addressesOf((await verifiedClient()).id)).eth;
    const actor = await approver();
    // $3,200.00: 1 ETH at $3,200.
    const withdrawal = await approvedWithdrawal(client.id, "ETH", address, 320_000);
    const txid = `0x${"7e".repeat(32)}`;
    let known = true;
    const ethereum = {
      tipHeight: async () => 1_000,
      transaction: async () =>
        known
          ? {
              to: address.toLowerCase(),
              value: 10n ** 18n,
              height: 999,
              succeeded: true,
              feeWei: 21_000n * 10n ** 9n,
              logs: [],
            }
          : null,
    } as unknown as EvmRpc;
    let usd = "3200";
    const chains = () => stubChains(world, { ethereum }, () => usd);
    expect(
      (await recordPayout(world.context(), actor, { userId: client.id, transactionId: withdrawal, txid })).ok,
    ).toBe(true);
    await checkPayouts(db, chains());
    expect(await payoutOf(withdrawal)).toMatchObject({ status: "matched" });
    expect(await clientPayoutLines(client.id)).toHaveLength(1);
    // One read where the node does not answer the transaction (a lagging or load-balanced provider, a short reorg).
    known = false;
    await checkPayouts(db, chains());
    known = true;
    // Ether has moved 5% meanwhile: the payment proven at acceptance is the same payment.
    usd = "3360";
    await checkPayouts(db, chains());
    // Today: refused for good, "The transaction pays 1 ETH ($3,360.00 at the current rate), not $3,200.00", and the
    // desk is mailed that a payout it saw accepted was not.
    expect((await payoutOf(withdrawal))?.status).not.toBe("mismatch");
    expect(await incidentMails(txid)).toMatchObject({ results: [] });
  });

  it("a confirmed payout whose block a reorganisation took out is not left as Confirmed without the desk hearing of it", async () => {
    const world = await chainWorld();
    const client = await verifiedClient();
    await world.watch();
    const address = (await world.addressesOf((await verifiedClient()).id)).btc;
    const actor = await approver();
    const withdrawal = await approvedWithdrawal(client.id, "BTC", address, 65_000);
    const paid = await world.chain.pay({ address, amount: "0.01" });
    await world.chain.mine(2);
    await recordPayout(world.context(), actor, { userId: client.id, transactionId: withdrawal, txid: paid.txid });
    await world.watch();
    expect(await payoutOf(withdrawal)).toMatchObject({ status: "confirmed" });
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
    const world = await chainWorld();
    const client = await verifiedClient();
    await world.watch();
    const address = (await world.addressesOf((await verifiedClient()).id)).btc;
    const actor = await approver();
    const withdrawal = await approvedWithdrawal(client.id, "BTC", address, 65_000);
    const paid = await world.chain.pay({ address, amount: "0.01" });
    await recordPayout(world.context(), actor, { userId: client.id, transactionId: withdrawal, txid: paid.txid });
    await world.watch();
    const shownWhileUnmined = await clientPayoutLines(client.id);
    // The payer replaces it by fee, paying elsewhere: the transaction the client was shown never reaches a block.
    await world.chain.replace(paid.txid);
    await world.chain.mine(2);
    await world.watch();
    expect(await payoutOf(withdrawal)).toMatchObject({ status: "recorded" });
    expect(shownWhileUnmined).toEqual([]);
  });
});
