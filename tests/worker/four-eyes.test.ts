import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { PROPOSAL_LIFETIME_MS, PROPOSAL_MESSAGES } from "~/lib/proposals";
import { ADMIN_MESSAGES, ENTRY_MESSAGES } from "~/lib/schemas/admin";
import { decideTransaction } from "~/server/admin/decisions.server";
import { approveProposal, rejectProposal } from "~/server/admin/proposal-decisions.server";
import { expireProposals } from "~/server/admin/proposal-expiry.server";
import { needsSecondApproval, proposeLedgerEntry, proposeWalletChanges } from "~/server/admin/proposals.server";
import { proposeRequestApproval } from "~/server/admin/request-approvals.server";
import worker from "../../workers/app";
import { listen, until } from "../support/feeds";
import {
  appEnv,
  countRows,
  createUser,
  db,
  dbRefusal,
  ensureDepositWallets,
  getPage,
  insertTransaction,
  postForm,
  sessionCookieFor,
} from "../support/fixtures";
import { alerts, buttonNames, statuses, testIdTexts, testIdTextWith } from "../support/places";
import { markVerified } from "../support/verification-state";

type Admin = { id: string; email: string; cookie: string };

const newKey = () => crypto.randomUUID();
const asActor = (admin: Admin) => ({ id: admin.id, email: admin.email });
const THRESHOLD_CENTS = appEnv.FOUR_EYES_THRESHOLD * 100;

async function newAdmin(): Promise<Admin> {
  const created = await createUser({ role: "admin" });
  return { ...created, cookie: await sessionCookieFor(created.id) };
}

/** A client with an approved deposit of `cents` and the profile projection that goes with it. */
async function fundedClient(cents = 5_000_000) {
  const client = await createUser({ firstName: "Jane" });
  await markVerified(client.id);
  await insertTransaction(client.id, { status: "approved", amountCents: cents });
  await env.DB.prepare("UPDATE profiles SET balance_cents = ? WHERE user_id = ?").bind(cents, client.id).run();
  return client;
}

const proposal = (id: number) =>
  env.DB.prepare("SELECT * FROM proposals WHERE id = ?").bind(id).first<{
    status: string;
    transaction_id: number | null;
    decided_by: string | null;
    decision_reason: string | null;
  }>();

const balanceOf = async (userId: string) =>
  (
    await env.DB.prepare("SELECT balance_cents FROM profiles WHERE user_id = ?")
      .bind(userId)
      .first<{ balance_cents: number }>()
  )?.balance_cents;

const auditsOf = (id: number, action: string) =>
  countRows("audit_log", "target = ? AND action = ?", `proposal:${id}`, action);
const mailsOf = (template: string, like: string) =>
  countRows("email_outbox", "template = ? AND payload LIKE ?", template, `%${like}%`);

const entryForm = (amount: string, fields: Record<string, string> = {}) => ({
  intent: "entry",
  type: "deposit",
  amount,
  idempotencyKey: newKey(),
  ...fields,
});

let maker: Admin;

beforeAll(async () => {
  await ensureDepositWallets();
  maker = await newAdmin();
});

describe("a firm of one admin", () => {
  // First in this file: until the next describe adds admins, the maker is the firm's only one.
  it("lets the proposal wait and says plainly that a second admin is needed", async () => {
    expect(await countRows("users", "role = 'admin'")).toBe(1);
    const client = await fundedClient();
    const response = await postForm(`/user/${client.id}`, entryForm("20000", { reason: "Wire received on Monday" }), {
      cookie: maker.cookie,
    });
    expect(statuses(await response.text())).toContain(PROPOSAL_MESSAGES.awaiting);
    const desk = await (await getPage("/admin", maker.cookie)).text();
    expect(testIdTextWith(desk, "proposal", "Deposit of $20,000.00 for Jane Tester")).toContain(
      PROPOSAL_MESSAGES.secondAdminNeeded,
    );
    expect(desk).not.toContain(`aria-label="Approve: Deposit of $20,000.00`);
    // Nobody else mailed: there is nobody else.
    expect(await countRows("email_outbox", "template = 'proposal_waiting'")).toBe(0);
  });
});

describe("second approval", () => {
  let checker: Admin;
  let other: Admin;

  beforeAll(async () => {
    checker = await newAdmin();
    other = await newAdmin();
  });

  describe("the threshold", () => {
    it("is the amount in dollars and up; 0 makes every amount wait", () => {
      expect(needsSecondApproval(appEnv, THRESHOLD_CENTS - 1)).toBe(false);
      expect(needsSecondApproval(appEnv, THRESHOLD_CENTS)).toBe(true);
      expect(needsSecondApproval({ ...appEnv, FOUR_EYES_THRESHOLD: 0 }, 1)).toBe(true);
      expect(needsSecondApproval({ ...appEnv, FOUR_EYES_THRESHOLD: 500 }, 49_999)).toBe(false);
    });
  });

  describe("entries", () => {
    it("just below the threshold are posted at once, as before", async () => {
      const client = await fundedClient();
      const response = await postForm(`/user/${client.id}`, entryForm("9999.99"), { cookie: maker.cookie });
      expect(statuses(await response.text())).toContain("Deposit of $9,999.99 recorded");
      expect(await countRows("proposals", "user_id = ?", client.id)).toBe(0);
      expect(await balanceOf(client.id)).toBe(5_000_000 + 999_999);
    });

    it("at the threshold need a reason, then wait: the ledger and the balance do not move", async () => {
      const client = await fundedClient();
      const before = await countRows("transactions", "user_id = ?", client.id);
      const noReason = await postForm(`/user/${client.id}`, entryForm("10000"), { cookie: maker.cookie });
      expect(noReason.status).toBe(400);
      expect(alerts(await noReason.text())).toContain(PROPOSAL_MESSAGES.reasonRequired);
      expect(await countRows("proposals", "user_id = ?", client.id)).toBe(0);

      const form = entryForm("10000", { reason: "Bank wire 4411" });
      const mailsBefore = await countRows("email_outbox", "template = 'proposal_waiting'");
      const replies = await Promise.all(
        [1, 2, 3].map(() => postForm(`/user/${client.id}`, form, { cookie: maker.cookie })),
      );
      for (const reply of replies) expect(statuses(await reply.text())).toContain(PROPOSAL_MESSAGES.awaiting);
      // A replayed form is the same proposal: one row, one audit row, one mail per other admin.
      expect(await countRows("proposals", "user_id = ? AND status = 'pending'", client.id)).toBe(1);
      const row = await env.DB.prepare("SELECT id FROM proposals WHERE user_id = ?")
        .bind(client.id)
        .first<{ id: number }>();
      const id = row?.id ?? 0;
      expect(await auditsOf(id, "proposal.propose")).toBe(1);
      const others = (await countRows("users", "role = 'admin'")) - 1;
      expect(await countRows("email_outbox", "template = 'proposal_waiting'")).toBe(mailsBefore + others);
      expect(await countRows("email_outbox", "template = 'proposal_waiting' AND to_address = ?", maker.email)).toBe(0);
      expect(await countRows("transactions", "user_id = ?", client.id)).toBe(before);
      expect(await balanceOf(client.id)).toBe(5_000_000);
    });

    it("are posted when another admin approves, exactly as a direct entry, and the proposer is told once", async () => {
      const client = await fundedClient();
      const proposed = await proposeLedgerEntry(db, asActor(maker), client.id, {
        type: "deposit",
        amountCents: 2_000_000,
        idempotencyKey: newKey(),
        reason: "Wire received",
      });
      if (!proposed.ok) throw new Error(proposed.error);
      const response = await postForm(
        "/admin",
        { intent: "approveProposal", proposalId: String(proposed.proposalId) },
        { cookie: checker.cookie },
      );
      expect(statuses(await response.text())).toContain(PROPOSAL_MESSAGES.approved);
      const entry = await env.DB.prepare(
        "SELECT id, status, created_by, decided_by, balance_after_cents FROM transactions WHERE user_id = ? AND amount_cents = 2000000",
      )
        .bind(client.id)
        .first();
      expect(entry).toMatchObject({
        status: "approved",
        created_by: maker.id,
        decided_by: checker.id,
        balance_after_cents: 7_000_000,
      });
      expect(await balanceOf(client.id)).toBe(7_000_000);
      expect(await proposal(proposed.proposalId)).toMatchObject({
        status: "approved",
        decided_by: checker.id,
        transaction_id: entry?.id,
      });
      expect(await auditsOf(proposed.proposalId, "proposal.approve")).toBe(1);
      expect(await countRows("audit_log", "action = 'ledger.entry' AND target = ?", `transaction:${entry?.id}`)).toBe(
        1,
      );
      expect(await countRows("email_outbox", "template = 'proposal_decided' AND to_address = ?", maker.email)).toBe(1);
      // A second approval (a replay, another admin) finds it decided and adds nothing.
      const again = await approveProposal(db, asActor(other), proposed.proposalId);
      expect(again).toEqual({ ok: false, error: PROPOSAL_MESSAGES.alreadyDecided });
      expect(await countRows("transactions", "user_id = ?", client.id)).toBe(2);
      expect(await countRows("email_outbox", "template = 'proposal_decided' AND to_address = ?", maker.email)).toBe(1);
    });

    it("that would overdraw by the time of approval change nothing", async () => {
      const client = await fundedClient(1_500_000);
      const proposed = await proposeLedgerEntry(db, asActor(maker), client.id, {
        type: "loss",
        amountCents: 1_200_000,
        tradingPair: "BTC/USD",
        idempotencyKey: newKey(),
        reason: "Closed position",
      });
      if (!proposed.ok) throw new Error(proposed.error);
      // Meanwhile a withdrawal of $5,000 is approved: the loss would now take the balance below zero.
      const withdrawal = await insertTransaction(client.id, { transactionType: "withdraw", amountCents: 500_000 });
      expect((await decideTransaction(db, asActor(checker), withdrawal, "approved", { limits: appEnv })).ok).toBe(true);
      const ledgerBefore = await countRows("transactions", "user_id = ?", client.id);
      const balanceBefore = await balanceOf(client.id);
      const result = await approveProposal(db, asActor(checker), proposed.proposalId);
      expect(result).toEqual({ ok: false, error: ENTRY_MESSAGES.wouldGoNegative });
      expect(await countRows("transactions", "user_id = ?", client.id)).toBe(ledgerBefore);
      expect(await balanceOf(client.id)).toBe(balanceBefore);
      expect((await proposal(proposed.proposalId))?.status).toBe("pending");
      expect(await auditsOf(proposed.proposalId, "proposal.approve")).toBe(0);
      expect(
        await countRows("email_outbox", "template = 'proposal_decided' AND payload LIKE '%Loss of $12,000.00%'"),
      ).toBe(0);
    });
  });

  describe("withdrawal approvals", () => {
    it("just below the threshold approve at once", async () => {
      const client = await fundedClient();
      const id = await insertTransaction(client.id, { transactionType: "withdraw", amountCents: THRESHOLD_CENTS - 1 });
      const response = await postForm(
        `/user/${client.id}`,
        { intent: "approve", transactionId: String(id) },
        { cookie: maker.cookie },
      );
      expect(statuses(await response.text())).toContain("Transaction approved");
      expect(await countRows("proposals", "transaction_id = ?", id)).toBe(0);
    });

    it("at the threshold wait; another admin's approval approves it and mails the client", async () => {
      const client = await fundedClient();
      const id = await insertTransaction(client.id, { transactionType: "withdraw", amountCents: THRESHOLD_CENTS });
      const form = { intent: "approve", transactionId: String(id) };
      for (const reply of await Promise.all(
        [1, 2].map(() => postForm(`/user/${client.id}`, form, { cookie: maker.cookie })),
      )) {
        expect(statuses(await reply.text())).toContain(PROPOSAL_MESSAGES.awaiting);
      }
      expect(await countRows("transactions", "id = ? AND status = 'pending'", id)).toBe(1);
      expect(await countRows("proposals", "transaction_id = ? AND status = 'pending'", id)).toBe(1);
      const row = await env.DB.prepare("SELECT id FROM proposals WHERE transaction_id = ?")
        .bind(id)
        .first<{ id: number }>();
      const proposalId = row?.id ?? 0;
      expect(await auditsOf(proposalId, "proposal.propose")).toBe(1);
      // The client's page shows the card to the other admin, with Approve and Reject.
      const page = await (await getPage(`/user/${client.id}`, checker.cookie)).text();
      expect(testIdTextWith(page, "proposal", "Approve withdrawal of $10,000.00 for Jane Tester")).toContain("Reject");
      expect(buttonNames(page)).toContain("Reject: Approve withdrawal of $10,000.00 for Jane Tester");
      const own = await (await getPage(`/user/${client.id}`, maker.cookie)).text();
      expect(testIdTextWith(own, "proposal", "Approve withdrawal of $10,000.00 for Jane Tester")).toContain(
        PROPOSAL_MESSAGES.waitingForOther,
      );

      const approved = await postForm(
        `/user/${client.id}`,
        { intent: "approveProposal", proposalId: String(proposalId) },
        { cookie: checker.cookie },
      );
      expect(statuses(await approved.text())).toContain(PROPOSAL_MESSAGES.approved);
      expect(await countRows("transactions", "id = ? AND status = 'approved' AND decided_by = ?", id, checker.id)).toBe(
        1,
      );
      expect(await balanceOf(client.id)).toBe(5_000_000 - THRESHOLD_CENTS);
      expect(await countRows("email_outbox", "template = 'request_decided' AND to_address = ?", client.email)).toBe(1);
      expect(await countRows("audit_log", "action = 'transaction.approve' AND target = ?", `transaction:${id}`)).toBe(
        1,
      );
    });

    it("no longer covered at approval change nothing", async () => {
      const client = await fundedClient(1_500_000);
      const id = await insertTransaction(client.id, { transactionType: "withdraw", amountCents: 1_200_000 });
      const proposed = await proposeRequestApproval(db, asActor(maker), { transactionId: id, userId: client.id });
      if (!proposed.ok) throw new Error(proposed.error);
      const loss = await insertTransaction(client.id, {
        transactionType: "loss",
        amountCents: 500_000,
        status: "approved",
      });
      expect(loss).toBeGreaterThan(0);
      const result = await approveProposal(db, asActor(checker), proposed.proposalId);
      expect(result).toEqual({ ok: false, error: PROPOSAL_MESSAGES.notCovered });
      expect(await countRows("transactions", "id = ? AND status = 'pending'", id)).toBe(1);
      expect((await proposal(proposed.proposalId))?.status).toBe("pending");
      expect(await countRows("email_outbox", "template = 'request_decided' AND to_address = ?", client.email)).toBe(0);
    });

    it("of a withdrawal decided meanwhile change nothing, and leave the card", async () => {
      const client = await fundedClient();
      const id = await insertTransaction(client.id, { transactionType: "withdraw", amountCents: 1_200_000 });
      const proposed = await proposeRequestApproval(db, asActor(maker), { transactionId: id, userId: client.id });
      if (!proposed.ok) throw new Error(proposed.error);
      const card = async () => (await getPage(`/user/${client.id}`, checker.cookie)).text();
      expect(await card()).toContain('data-testid="proposal"');
      expect((await decideTransaction(db, asActor(other), id, "rejected", { limits: appEnv })).ok).toBe(true);
      expect(await card()).not.toContain('data-testid="proposal"');
      const result = await approveProposal(db, asActor(checker), proposed.proposalId);
      expect(result).toEqual({ ok: false, error: PROPOSAL_MESSAGES.withdrawalGone });
      expect(await countRows("transactions", "id = ? AND status = 'rejected'", id)).toBe(1);
      expect((await proposal(proposed.proposalId))?.status).toBe("pending");
    });
  });

  describe("wallet changes", () => {
    const btcAddresses = ["1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"];
    const btc = () =>
      env.DB.prepare("SELECT id, wallet_address FROM deposit_wallets WHERE wallet_type = 'BTC'").first<{
        id: number;
        wallet_address: string;
      }>();

    it("always wait, one per wallet; the second admin's approval changes it and tells every admin", async () => {
      const wallet = await btc();
      if (!wallet) throw new Error("no BTC wallet");
      const fields = {
        intent: "wallets",
        [`wallet-${wallet.id}`]: btcAddresses[0] as string,
        [`was-${wallet.id}`]: wallet.wallet_address,
      };
      expect(statuses(await (await postForm("/admin", fields, { cookie: maker.cookie })).text())).toContain(
        PROPOSAL_MESSAGES.awaiting,
      );
      expect((await btc())?.wallet_address).toBe(wallet.wallet_address);
      const replay = await postForm("/admin", fields, { cookie: maker.cookie });
      expect(alerts(await replay.text())).toContain(PROPOSAL_MESSAGES.walletChangeWaiting);
      expect(await countRows("proposals", "wallet_id = ? AND status = 'pending'", wallet.id)).toBe(1);
      const row = await env.DB.prepare("SELECT id FROM proposals WHERE wallet_id = ? AND status = 'pending'")
        .bind(wallet.id)
        .first<{ id: number }>();
      const id = row?.id ?? 0;
      const desk = await (await getPage("/admin", checker.cookie)).text();
      expect(
        testIdTextWith(desk, "proposal", `Wallet BTC: ${wallet.wallet_address} → ${btcAddresses[0]}`),
      ).not.toBeNull();

      const admins = await countRows("users", "role = 'admin'");
      const noticesBefore = await countRows("email_outbox", "template = 'deposit_wallet_changed'");
      const at = Date.now();
      const approved = await approveProposal(db, asActor(checker), id, {}, at);
      expect(approved.ok).toBe(true);
      expect((await btc())?.wallet_address).toBe(btcAddresses[0]);
      // The same approval again, in the same millisecond: refused, and nothing recorded or mailed twice.
      expect(await approveProposal(db, asActor(checker), id, {}, at)).toEqual({
        ok: false,
        error: PROPOSAL_MESSAGES.alreadyDecided,
      });
      expect(await countRows("audit_log", "action = 'wallet.update' AND detail LIKE ?", `%${btcAddresses[0]}%`)).toBe(
        1,
      );
      expect(await countRows("email_outbox", "template = 'deposit_wallet_changed'")).toBe(noticesBefore + admins);
      expect(
        await countRows("audit_log", "action = 'wallet.update' AND target = ?", `wallet:${wallet.id}`),
      ).toBeGreaterThan(0);
      expect(await auditsOf(id, "proposal.approve")).toBe(1);
    });

    it("of a wallet changed since it was proposed change nothing", async () => {
      const wallet = await btc();
      if (!wallet) throw new Error("no BTC wallet");
      const proposed = await proposeWalletChanges(db, asActor(maker), [
        { id: wallet.id, walletAddress: btcAddresses[1] as string, renderedAddress: wallet.wallet_address },
      ]);
      expect(proposed.ok).toBe(true);
      const elsewhere = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
      await env.DB.prepare("UPDATE deposit_wallets SET wallet_address = ? WHERE id = ?")
        .bind(elsewhere, wallet.id)
        .run();
      const id = (
        await env.DB.prepare("SELECT id FROM proposals WHERE wallet_id = ? AND status = 'pending'")
          .bind(wallet.id)
          .first<{ id: number }>()
      )?.id as number;
      const result = await approveProposal(db, asActor(checker), id);
      expect(result).toEqual({ ok: false, error: PROPOSAL_MESSAGES.walletChanged });
      expect((await btc())?.wallet_address).toBe(elsewhere);
      expect((await proposal(id))?.status).toBe("pending");
      // Closed by a rejection, with its reason, so later cases can propose for this wallet.
      expect((await rejectProposal(db, asActor(checker), id, "Superseded")).ok).toBe(true);
      expect(await proposal(id)).toMatchObject({ status: "rejected", decision_reason: "Superseded" });
    });

    it("with a malformed address propose nothing", async () => {
      const wallet = await btc();
      if (!wallet) throw new Error("no BTC wallet");
      const result = await proposeWalletChanges(db, asActor(maker), [
        { id: wallet.id, walletAddress: "bc1-nope", renderedAddress: wallet.wallet_address },
      ]);
      expect(result).toEqual({ ok: false, error: "Please enter a valid BTC wallet address" });
      expect(await countRows("proposals", "wallet_id = ? AND status = 'pending'", wallet.id)).toBe(0);
    });
  });

  describe("the proposer", () => {
    it("cannot approve or reject their own proposal: the code says so, and the database refuses it anyway", async () => {
      const client = await fundedClient();
      const proposed = await proposeLedgerEntry(db, asActor(maker), client.id, {
        type: "deposit",
        amountCents: THRESHOLD_CENTS,
        idempotencyKey: newKey(),
        reason: "Wire",
      });
      if (!proposed.ok) throw new Error(proposed.error);
      const id = String(proposed.proposalId);
      const byRoute = await postForm("/admin", { intent: "approveProposal", proposalId: id }, { cookie: maker.cookie });
      expect(byRoute.status).toBe(403);
      expect(alerts(await byRoute.text())).toContain(PROPOSAL_MESSAGES.ownProposal);
      const rejectByRoute = await postForm(
        `/user/${client.id}`,
        { intent: "rejectProposal", proposalId: id, reason: "Changed my mind" },
        { cookie: maker.cookie },
      );
      expect(rejectByRoute.status).toBe(403);
      expect(await approveProposal(db, asActor(maker), proposed.proposalId)).toEqual({
        ok: false,
        error: PROPOSAL_MESSAGES.ownProposal,
      });
      const refusal = await dbRefusal(
        env.DB.prepare(
          "UPDATE proposals SET status = 'approved', decided_by = proposed_by, decided_at = ? WHERE id = ?",
        )
          .bind(Date.now(), proposed.proposalId)
          .run()
          .catch((error) => {
            throw Object.assign(new Error("refused"), { cause: error });
          }),
      );
      expect(refusal).toContain("a proposal is approved by a different admin before it expires");
      expect((await proposal(proposed.proposalId))?.status).toBe("pending");
      expect(await countRows("transactions", "user_id = ?", client.id)).toBe(1);
    });
  });

  describe("deciding", () => {
    it("approve against reject, many at once, gives exactly one decision", async () => {
      const client = await fundedClient();
      const proposed = await proposeLedgerEntry(db, asActor(maker), client.id, {
        type: "deposit",
        amountCents: 3_000_000,
        idempotencyKey: newKey(),
        reason: "Wire",
      });
      if (!proposed.ok) throw new Error(proposed.error);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2 === 0
            ? approveProposal(db, asActor(i % 4 === 0 ? checker : other), proposed.proposalId)
            : rejectProposal(db, asActor(i % 4 === 1 ? checker : other), proposed.proposalId, "No"),
        ),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      const status = (await proposal(proposed.proposalId))?.status;
      const entries = await countRows("transactions", "user_id = ? AND amount_cents = 3000000", client.id);
      expect(entries).toBe(status === "approved" ? 1 : 0);
      expect(
        await countRows(
          "audit_log",
          "target = ? AND action IN ('proposal.approve', 'proposal.reject')",
          `proposal:${proposed.proposalId}`,
        ),
      ).toBe(1);
      expect(await mailsOf("proposal_decided", "Deposit of $30,000.00")).toBe(1);
    });

    it("a rejection needs a reason, records it and tells the proposer", async () => {
      const client = await fundedClient();
      const proposed = await proposeLedgerEntry(db, asActor(maker), client.id, {
        type: "fee_deposit",
        amountCents: 4_000_000,
        idempotencyKey: newKey(),
        reason: "Annual fee",
      });
      if (!proposed.ok) throw new Error(proposed.error);
      const id = String(proposed.proposalId);
      const blank = await postForm(
        "/admin",
        { intent: "rejectProposal", proposalId: id, reason: " " },
        { cookie: checker.cookie },
      );
      expect(blank.status).toBe(400);
      expect(alerts(await blank.text())).toContain(PROPOSAL_MESSAGES.rejectReasonRequired);
      expect((await proposal(proposed.proposalId))?.status).toBe("pending");
      const rejected = await postForm(
        "/admin",
        { intent: "rejectProposal", proposalId: id, reason: "No invoice on file" },
        { cookie: checker.cookie },
      );
      expect(statuses(await rejected.text())).toContain(PROPOSAL_MESSAGES.rejected);
      expect(await proposal(proposed.proposalId)).toMatchObject({
        status: "rejected",
        decided_by: checker.id,
        decision_reason: "No invoice on file",
      });
      expect(await auditsOf(proposed.proposalId, "proposal.reject")).toBe(1);
      expect(await mailsOf("proposal_decided", "No invoice on file")).toBe(1);
      expect(await countRows("transactions", "user_id = ?", client.id)).toBe(1);
    });
  });

  describe("expiry", () => {
    it("refuses approval after 72 hours even before the cron ran; the cron marks it expired, audits it and mails once", async () => {
      const client = await fundedClient();
      const proposedAt = Date.now();
      const proposed = await proposeLedgerEntry(
        db,
        asActor(maker),
        client.id,
        { type: "deposit", amountCents: 5_000_000, idempotencyKey: newKey(), reason: "Wire" },
        proposedAt,
      );
      if (!proposed.ok) throw new Error(proposed.error);
      const later = proposedAt + PROPOSAL_LIFETIME_MS;
      expect(await approveProposal(db, asActor(checker), proposed.proposalId, {}, later)).toEqual({
        ok: false,
        error: PROPOSAL_MESSAGES.expired,
      });
      expect(await countRows("transactions", "user_id = ?", client.id)).toBe(1);
      // Still listed while, in real time, it has not expired; gone once it has.
      expect(
        testIdTextWith(await (await getPage("/admin", checker.cookie)).text(), "proposal", "Deposit of $50,000.00"),
      ).not.toBeNull();

      const swept = await expireProposals(db, later);
      expect(swept.expired).toBeGreaterThanOrEqual(1);
      expect((await proposal(proposed.proposalId))?.status).toBe("expired");
      expect(await auditsOf(proposed.proposalId, "proposal.expire")).toBe(1);
      expect(await mailsOf("proposal_decided", "Deposit of $50,000.00")).toBe(1);
      await expireProposals(db, later + 60_000);
      expect(await auditsOf(proposed.proposalId, "proposal.expire")).toBe(1);
      expect(await mailsOf("proposal_decided", "Deposit of $50,000.00")).toBe(1);
      expect(await approveProposal(db, asActor(checker), proposed.proposalId)).toEqual({
        ok: false,
        error: PROPOSAL_MESSAGES.expired,
      });
      const desk = await (await getPage("/admin", checker.cookie)).text();
      expect(testIdTexts(desk, "proposal").filter((card) => card.includes("Deposit of $50,000.00"))).toEqual([]);
    });
  });

  describe("the minute cron", () => {
    it("expires what nobody decided within 72 hours", async () => {
      const client = await fundedClient();
      const proposed = await proposeLedgerEntry(
        db,
        asActor(maker),
        client.id,
        { type: "deposit", amountCents: 6_000_000, idempotencyKey: newKey(), reason: "Wire" },
        Date.now() - PROPOSAL_LIFETIME_MS - 60_000,
      );
      if (!proposed.ok) throw new Error(proposed.error);
      const ctx = createExecutionContext();
      await worker.scheduled(createScheduledController({ cron: "* * * * *" }), env, ctx);
      await waitOnExecutionContext(ctx);
      expect((await proposal(proposed.proposalId))?.status).toBe("expired");
      expect(await auditsOf(proposed.proposalId, "proposal.expire")).toBe(1);
      expect(await mailsOf("proposal_decided", "Deposit of $60,000.00")).toBe(1);
      expect(await countRows("transactions", "user_id = ?", client.id)).toBe(1);
    });
  });

  describe("who may act", () => {
    it("another admin's session decides from either page, only that client's from /user/{id}", async () => {
      const client = await fundedClient();
      const elsewhere = await fundedClient();
      const proposed = await proposeLedgerEntry(db, asActor(maker), client.id, {
        type: "deposit",
        amountCents: 1_100_000,
        idempotencyKey: newKey(),
        reason: "Wire",
      });
      if (!proposed.ok) throw new Error(proposed.error);
      const id = String(proposed.proposalId);
      const wrongPage = await postForm(
        `/user/${elsewhere.id}`,
        { intent: "approveProposal", proposalId: id },
        {
          cookie: checker.cookie,
        },
      );
      expect(alerts(await wrongPage.text())).toContain(PROPOSAL_MESSAGES.notFound);
      expect((await proposal(proposed.proposalId))?.status).toBe("pending");
      const stale = await sessionCookieFor(checker.id, Date.now(), { freshSecondFactor: false });
      const asked = await postForm(
        `/user/${client.id}`,
        { intent: "approveProposal", proposalId: id },
        { cookie: stale },
      );
      expect(asked.status).toBe(401);
      expect((await proposal(proposed.proposalId))?.status).toBe("pending");
      const right = await postForm(
        `/user/${client.id}`,
        { intent: "approveProposal", proposalId: id },
        {
          cookie: checker.cookie,
        },
      );
      expect(statuses(await right.text())).toContain(PROPOSAL_MESSAGES.approved);
      expect(await balanceOf(client.id)).toBe(5_000_000 + 1_100_000);
    });

    it("a client is refused on every intent, and nothing changes", async () => {
      const client = await fundedClient();
      const cookie = await sessionCookieFor(client.id);
      const proposed = await proposeLedgerEntry(db, asActor(maker), client.id, {
        type: "deposit",
        amountCents: 1_200_000,
        idempotencyKey: newKey(),
        reason: "Wire",
      });
      if (!proposed.ok) throw new Error(proposed.error);
      const wallet = (await ensureDepositWallets())[0];
      const id = String(proposed.proposalId);
      const attempts: Array<[string, Record<string, string>]> = [
        ["/admin", { intent: "approveProposal", proposalId: id }],
        ["/admin", { intent: "rejectProposal", proposalId: id, reason: "x" }],
        [
          "/admin",
          {
            intent: "wallets",
            [`wallet-${wallet?.id}`]: "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
            [`was-${wallet?.id}`]: wallet?.walletAddress ?? "",
          },
        ],
        [`/user/${client.id}`, { intent: "approveProposal", proposalId: id }],
        [`/user/${client.id}`, { intent: "rejectProposal", proposalId: id, reason: "x" }],
        [`/user/${client.id}`, entryForm("20000", { reason: "Me" })],
      ];
      const proposalsBefore = await countRows("proposals");
      for (const [path, fields] of attempts) {
        const response = await postForm(path, fields, { cookie });
        expect(response.status).toBe(302);
        expect(response.headers.get("Location")).toBe("/dashboard");
      }
      expect((await proposal(proposed.proposalId))?.status).toBe("pending");
      expect(await countRows("proposals")).toBe(proposalsBefore);
      expect(await balanceOf(client.id)).toBe(5_000_000);
    });
  });

  describe("live", () => {
    it("the desk hears of a proposal and its decision; the client's feed only of the approved entry", async () => {
      const client = await fundedClient();
      const { events: desk } = await listen("/ws/admin", checker.cookie);
      const { events: feed } = await listen(`/ws/clients/${client.id}`, await sessionCookieFor(client.id));
      await postForm(`/user/${client.id}`, entryForm("25000", { reason: "Wire" }), { cookie: maker.cookie });
      await until(() => desk.some((e) => e.type === "proposal.changed"), "the desk's proposal event");
      expect(feed).toEqual([]);
      const row = await env.DB.prepare("SELECT id FROM proposals WHERE user_id = ?")
        .bind(client.id)
        .first<{ id: number }>();
      await postForm("/admin", { intent: "approveProposal", proposalId: String(row?.id) }, { cookie: checker.cookie });
      await until(() => feed.length === 1, "the client's entry");
      expect(feed[0]).toMatchObject({
        type: "transaction.created",
        transaction: { userId: client.id, amountCents: 2_500_000, status: "approved" },
      });
      await until(() => desk.filter((e) => e.type === "proposal.changed").length === 2, "the desk's decision event");
    });
  });

  it("refuses a withdrawal proposal for another client's row", async () => {
    const client = await fundedClient();
    const elsewhere = await fundedClient();
    const id = await insertTransaction(client.id, { transactionType: "withdraw", amountCents: 1_500_000 });
    const result = await proposeRequestApproval(db, asActor(maker), { transactionId: id, userId: elsewhere.id });
    expect(result).toEqual({ ok: false, error: ADMIN_MESSAGES.transactionNotFound });
    expect(await countRows("proposals", "transaction_id = ?", id)).toBe(0);
  });
});

// Last in this file: its support admin is one the proposals' mail counts above do not expect.
describe("an admin whose roles do not decide proposals", () => {
  it("sees a waiting proposal with who decides it, and no Approve or Reject", async () => {
    const proposer = await newAdmin();
    const client = await fundedClient();
    await postForm(`/user/${client.id}`, entryForm("20000", { reason: "Wire received" }), { cookie: proposer.cookie });
    const support = await createUser({ role: "admin", roles: ["support"] });
    const desk = await (await getPage("/admin", await sessionCookieFor(support.id))).text();
    expect(desk).toContain(`/user/${client.id}`);
    expect(testIdTextWith(desk, "proposal", "Deposit of $20,000.00 for Jane Tester")).toContain(
      PROPOSAL_MESSAGES.decidedByRoles("Approver, Owner"),
    );
    expect(desk).not.toContain('aria-label="Approve: Deposit of $20,000.00');
  });
});

describe("a deactivated admin", () => {
  it("is not mailed that a proposal waits", async () => {
    const proposer = await newAdmin();
    const gone = await createUser({ role: "admin" });
    await env.DB.prepare("UPDATE users SET deactivated_at = ? WHERE id = ?").bind(Date.now(), gone.id).run();
    const client = await fundedClient();
    const reply = await postForm(`/user/${client.id}`, entryForm("20000", { reason: "Wire received" }), {
      cookie: proposer.cookie,
    });
    expect(statuses(await reply.text())).toContain(PROPOSAL_MESSAGES.awaiting);
    expect(await countRows("email_outbox", "template = 'proposal_waiting' AND to_address = ?", gone.email)).toBe(0);
    await env.DB.prepare("UPDATE users SET deactivated_at = NULL WHERE id = ?").bind(gone.id).run();
  });
});
