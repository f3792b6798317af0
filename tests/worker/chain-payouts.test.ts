import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PAYOUT_TEXTS } from "~/lib/chain/payouts";
import { PAYOUT_MATCH } from "~/lib/money/constraints";
import { deleteClientData } from "~/server/admin/deletion.server";
import { recordPayout } from "~/server/chain/payouts.server";
import { approvedWithdrawal, approver, payoutOf } from "../support/chain-payouts";
import { chainWorld, verifiedClient } from "../support/chain-watch";
import { createUser, db, dbRefusal, getPage, insertTransaction, postForm, sessionCookieFor } from "../support/fixtures";
import { alerts, linkTextsTo, testIdTexts } from "../support/places";

/**
 * A withdrawal paid on chain (docs/product.md, "Payouts on chain"): an approver records the payout's transaction,
 * the watcher checks that it pays the withdrawal's address its amount, and only then does the client see the hash,
 * the fee and the confirmations. A transaction that pays another address or amount, or was never sent, is refused
 * and shown to the desk.
 */

/** A world, a verified client, and an address of someone else's to be paid at (any address the chain takes). */
async function payoutWorld() {
  const world = await chainWorld();
  const client = await verifiedClient();
  const elsewhere = await verifiedClient();
  await world.watch();
  const to = await world.addressesOf(elsewhere.id);
  const other = await world.addressesOf((await verifiedClient()).id);
  const { actor, cookie } = await approver();
  const record = (transactionId: number, txid: string) =>
    recordPayout(world.context(), actor, { userId: client.id, transactionId, txid });
  return { world, client, to, other, actor, cookie, record };
}

describe("a payout recorded on chain", () => {
  it("is accepted when it pays the address its amount, counts its confirmations, and its client sees it", async () => {
    const { world, client, to, record } = await payoutWorld();
    // 0.01 BTC at the simulator's $65,000 is $650.00.
    const withdrawal = await approvedWithdrawal(client.id, "BTC", to.btc, 65_000);
    const paid = await world.chain.pay({ address: to.btc, amount: "0.01" });
    expect(await record(withdrawal, paid.txid.toUpperCase())).toEqual({ ok: true, message: PAYOUT_TEXTS.recorded });
    const history = async () => (await getPage("/transactions", await sessionCookieFor(client.id))).text();
    // Not yet checked: the client sees no hash.
    expect(testIdTexts(await history(), "payout-line")).toEqual([]);
    await world.watch();
    expect(await payoutOf(withdrawal)).toMatchObject({
      status: "matched",
      output_index: paid.outputIndex,
      amount_units: "1000000",
      usd_cents: 65_000,
      confirmations: 0,
    });
    await world.chain.mine(1);
    await world.watch();
    const page = await history();
    expect(testIdTexts(page, "payout-line")).toEqual([
      expect.stringMatching(/^Paid on chain: \w{6}…\w{6} · Network fee 0\.\d+ BTC · 1 of 2 confirmations$/),
    ]);
    expect(linkTextsTo(page, `https://mempool.space/tx/${paid.txid}`)).toHaveLength(1);
    await world.chain.mine(1);
    await world.watch();
    // Confirmed for the client; settled (no longer read) 6 blocks past the confirmations.
    expect(await payoutOf(withdrawal)).toMatchObject({ status: "matched", confirmations: 2 });
    expect(testIdTexts(await history(), "payout-line")).toEqual([expect.stringMatching(/· Confirmed$/)]);
  });

  it("is accepted for Ether and for USDT, the fee in Ether", async () => {
    const { world, client, to, record } = await payoutWorld();
    const ether = await approvedWithdrawal(client.id, "ETH", to.eth.toUpperCase().replace("0X", "0x"), 320_000);
    const tether = await approvedWithdrawal(client.id, "USDT_ERC20", to.usdt, 25_000);
    const paidEther = await world.chain.pay({ address: to.eth, amount: "1", asset: "ETH" });
    const paidTether = await world.chain.pay({ address: to.usdt, amount: "250", asset: "USDT" });
    await world.chain.mine(1, "ethereum");
    expect((await record(ether, paidEther.txid)).ok).toBe(true);
    expect((await record(tether, paidTether.txid)).ok).toBe(true);
    await world.watch();
    expect(await payoutOf(ether)).toMatchObject({ status: "matched", amount_units: "1000000000000000000" });
    expect(await payoutOf(tether)).toMatchObject({ status: "matched", amount_units: "250000000", usd_cents: 25_000 });
    expect((await payoutOf(tether))?.fee_units).toMatch(/^[1-9]\d*$/);
    await world.chain.mine(17, "ethereum");
    await world.watch();
    expect(await payoutOf(tether)).toMatchObject({ status: "confirmed", confirmations: 18 });
  });

  it("that pays another address, or another amount, is not accepted, and the desk sees why", async () => {
    const { world, client, to, other, record, cookie, actor } = await payoutWorld();
    const elsewhere = await approvedWithdrawal(client.id, "BTC", to.btc, 65_000);
    const short = await approvedWithdrawal(client.id, "BTC", to.btc, 65_000);
    const wrongAddress = await world.chain.pay({ address: other.btc, amount: "0.01" });
    // 0.0097 BTC is $630.50: 3% short of $650.00, past the 2% a payout may differ by.
    const wrongAmount = await world.chain.pay({ address: to.btc, amount: "0.0097" });
    await record(elsewhere, wrongAddress.txid);
    await record(short, wrongAmount.txid);
    await world.watch();
    expect(await payoutOf(elsewhere)).toMatchObject({
      status: "mismatch",
      problem: PAYOUT_TEXTS.otherAddress(to.btc),
    });
    expect(await payoutOf(short)).toMatchObject({
      status: "mismatch",
      problem: PAYOUT_TEXTS.otherAmount("0.0097 BTC", 63_050, 65_000),
    });
    const desk = await (await getPage(`/user/${client.id}`, cookie)).text();
    expect(testIdTexts(desk, "desk-payout")).toEqual([
      `Payout not accepted: ${PAYOUT_TEXTS.otherAmount("0.0097 BTC", 63_050, 65_000)}`,
      `Payout not accepted: ${PAYOUT_TEXTS.otherAddress(to.btc)}`,
    ]);
    const history = await (await getPage("/transactions", await sessionCookieFor(client.id))).text();
    expect(testIdTexts(history, "payout-line")).toEqual([]);
    // Those who record payouts hear of each refusal by mail, once however often the watcher runs.
    await world.watch();
    const mails = await env.DB.prepare(
      "SELECT json_extract(payload, '$.reason') AS reason FROM email_outbox WHERE template = 'chain_incident' AND to_address = ? ORDER BY id",
    )
      .bind(actor.email)
      .all();
    expect(mails.results).toEqual([
      { reason: PAYOUT_TEXTS.otherAddress(to.btc) },
      { reason: PAYOUT_TEXTS.otherAmount("0.0097 BTC", 63_050, 65_000) },
    ]);
    // A refused payout leaves the way open to record the right one.
    const right = await world.chain.pay({ address: to.btc, amount: "0.01" });
    expect((await record(short, right.txid)).ok).toBe(true);
    await world.watch();
    expect(await payoutOf(short)).toMatchObject({ status: "matched" });
  });

  it("within 2% of the amount is accepted (the fee taken off, the price moved)", async () => {
    const { world, client, to, record } = await payoutWorld();
    const withdrawal = await approvedWithdrawal(client.id, "BTC", to.btc, 65_000);
    // $637.65: 1.9% short.
    const paid = await world.chain.pay({ address: to.btc, amount: "0.00981" });
    await record(withdrawal, paid.txid);
    await world.watch();
    expect(await payoutOf(withdrawal)).toMatchObject({ status: "matched", usd_cents: 63_765 });
  });

  it("proves one withdrawal only: the same payment recorded for a second one is refused", async () => {
    const { world, client, to, record } = await payoutWorld();
    const first = await approvedWithdrawal(client.id, "BTC", to.btc, 65_000);
    const second = await approvedWithdrawal(client.id, "BTC", to.btc, 65_000);
    const paid = await world.chain.pay({ address: to.btc, amount: "0.01" });
    await record(first, paid.txid);
    await record(second, paid.txid);
    await world.watch();
    const findings = [await payoutOf(first), await payoutOf(second)].map((row) => row?.status).sort();
    expect(findings).toEqual(["matched", "mismatch"]);
    const refused = (await payoutOf(first))?.status === "mismatch" ? first : second;
    expect((await payoutOf(refused))?.problem).toBe(PAYOUT_TEXTS.outputTaken);
  });

  it("waits while the chain does not know it, and is refused once it never appeared", async () => {
    const { world, client, to, record } = await payoutWorld();
    const withdrawal = await approvedWithdrawal(client.id, "BTC", to.btc, 65_000);
    await record(withdrawal, "ab".repeat(32));
    await world.watch();
    expect(await payoutOf(withdrawal)).toMatchObject({ status: "recorded", problem: PAYOUT_TEXTS.notFoundYet });
    await world.watch(Date.now() + PAYOUT_MATCH.notFoundAfterMs + 60_000);
    expect(await payoutOf(withdrawal)).toMatchObject({ status: "mismatch", problem: PAYOUT_TEXTS.notFound });
  });

  it("waits for a current rate before judging the amount", async () => {
    const { world, client, to, record } = await payoutWorld();
    const withdrawal = await approvedWithdrawal(client.id, "BTC", to.btc, 65_000);
    await world.chain.rate("BTC", 65_000, Math.floor(Date.now() / 1000) - 600);
    const paid = await world.chain.pay({ address: to.btc, amount: "0.01" });
    await record(withdrawal, paid.txid);
    await world.watch();
    expect(await payoutOf(withdrawal)).toMatchObject({ status: "recorded", problem: PAYOUT_TEXTS.noRate("BTC") });
    await world.chain.rate("BTC", 65_000);
    await world.watch();
    expect(await payoutOf(withdrawal)).toMatchObject({ status: "matched" });
  });
});

describe("recording a payout", () => {
  it("is refused, writing nothing, for a withdrawal not approved, another client's, a bad id or a second one", async () => {
    const { client, to, record, actor } = await payoutWorld();
    const pending = await insertTransaction(client.id, {
      transactionType: "withdraw",
      amountCents: 1_000,
      createdBy: client.id,
    });
    await env.DB.prepare(
      "INSERT INTO withdrawal_wallets (user_id, transaction_id, wallet_address, crypto_currency, amount_cents) VALUES (?, ?, ?, 'BTC', 1000)",
    )
      .bind(client.id, pending, to.btc)
      .run();
    const withdrawal = await approvedWithdrawal(client.id, "BTC", to.btc, 65_000);
    const stranger = await verifiedClient();
    const theirs = await approvedWithdrawal(stranger.id, "BTC", to.btc, 65_000);
    const txid = "cd".repeat(32);
    expect(await record(pending, txid)).toMatchObject({ ok: false, error: PAYOUT_TEXTS.notApproved });
    expect(await record(theirs, txid)).toMatchObject({ ok: false, error: "Transaction not found" });
    expect(await record(withdrawal, "0x1234")).toMatchObject({
      ok: false,
      error: PAYOUT_TEXTS.badTxid("BTC"),
      field: "txid",
    });
    expect(await record(withdrawal, `0x${txid}`)).toMatchObject({ ok: false, field: "txid" });
    const ether = await approvedWithdrawal(client.id, "ETH", to.eth, 1_000);
    expect(await record(ether, txid)).toMatchObject({ ok: false, error: PAYOUT_TEXTS.badTxid("ETH") });
    expect(await record(withdrawal, txid)).toMatchObject({ ok: true });
    const rows = await env.DB.prepare(
      "SELECT transaction_id, txid, recorded_by FROM chain_payouts WHERE user_id IN (?, ?)",
    )
      .bind(client.id, stranger.id)
      .all();
    expect(rows.results).toEqual([{ transaction_id: withdrawal, txid, recorded_by: actor.id }]);
    const audit = await env.DB.prepare(
      "SELECT target, json_extract(detail, '$.txid') AS txid FROM audit_log WHERE action = 'payout.record' AND actor_id = ?",
    )
      .bind(actor.id)
      .all();
    expect(audit.results).toEqual([{ target: `transaction:${withdrawal}`, txid }]);
  });

  it("replaces a record the check has not accepted, never an accepted one", async () => {
    const { world, client, to, record } = await payoutWorld();
    const withdrawal = await approvedWithdrawal(client.id, "BTC", to.btc, 65_000);
    // A mistyped id need not wait 6 hours to be refused: the right one replaces it.
    expect(await record(withdrawal, "ab".repeat(32))).toMatchObject({ ok: true });
    const paid = await world.chain.pay({ address: to.btc, amount: "0.01" });
    expect(await record(withdrawal, paid.txid)).toMatchObject({ ok: true });
    const rows = await env.DB.prepare(
      "SELECT txid, status, problem FROM chain_payouts WHERE transaction_id = ? ORDER BY id",
    )
      .bind(withdrawal)
      .all();
    expect(rows.results).toEqual([
      { txid: "ab".repeat(32), status: "mismatch", problem: PAYOUT_TEXTS.replaced },
      { txid: paid.txid, status: "recorded", problem: null },
    ]);
    await world.watch();
    expect(await record(withdrawal, "cd".repeat(32))).toMatchObject({ ok: false, error: PAYOUT_TEXTS.alreadyRecorded });
    expect(await payoutOf(withdrawal)).toMatchObject({ status: "matched" });
  });

  it("is no longer checked once the client's data is deleted, and the record stays", async () => {
    const { world, client, to, record } = await payoutWorld();
    const withdrawal = await approvedWithdrawal(client.id, "BTC", to.btc, 65_000);
    await record(withdrawal, "ab".repeat(32));
    const owner = await createUser({ role: "admin", roles: ["owner"] });
    expect((await deleteClientData(db, owner, client.id)).ok).toBe(true);
    await world.watch();
    expect(await payoutOf(withdrawal)).toMatchObject({ status: "mismatch", problem: PAYOUT_TEXTS.clientDeleted });
  });

  it("on the client page, in a currency the watcher does not read, says so in the dialog's place", async () => {
    const { cookie } = await approver();
    const client = await verifiedClient();
    const withdrawal = await approvedWithdrawal(client.id, "BTC", "tb1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", 5_000);
    // This Worker's own settings watch no chain (the tests' default): a BTC payout cannot be checked.
    const response = await postForm(
      `/user/${client.id}`,
      { intent: "recordPayout", transactionId: String(withdrawal), txid: "ab".repeat(32) },
      { cookie },
    );
    expect(response.status).toBe(400);
    expect(alerts(await response.text())).toContain(PAYOUT_TEXTS.notChecked("BTC"));
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM chain_payouts WHERE transaction_id = ?").bind(withdrawal).first(),
    ).toEqual({ n: 0 });
  });

  it("is refused by the database for a pending withdrawal, an admin who may not decide withdrawals, or a change", async () => {
    const client = await verifiedClient();
    const { actor } = await approver();
    const support = await createUser({ role: "admin", roles: ["support"] });
    const pending = await insertTransaction(client.id, { transactionType: "withdraw", amountCents: 1_000 });
    const approved = await insertTransaction(client.id, {
      transactionType: "withdraw",
      status: "approved",
      amountCents: 1_000,
    });
    const insert = (transactionId: number, by: string) =>
      env.DB.prepare(
        "INSERT INTO chain_payouts (transaction_id, user_id, asset, txid, recorded_by) VALUES (?, ?, 'BTC', ?, ?)",
      )
        .bind(transactionId, client.id, "aa".repeat(32), by)
        .run();
    expect(await dbRefusal(insert(pending, actor.id))).toContain("a payout pays an approved withdrawal of its client");
    expect(await dbRefusal(insert(approved, support.id))).toContain("do not allow recording a payout");
    await insert(approved, actor.id);
    expect(
      await dbRefusal(
        env.DB.prepare("UPDATE chain_payouts SET txid = ? WHERE transaction_id = ?")
          .bind("bb".repeat(32), approved)
          .run(),
      ),
    ).toContain("keeps its withdrawal, transaction and recorder");
    expect(
      await dbRefusal(env.DB.prepare("DELETE FROM chain_payouts WHERE transaction_id = ?").bind(approved).run()),
    ).toContain("a recorded payout is kept");
  });
});
