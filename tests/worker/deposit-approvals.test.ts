import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { PROPOSAL_MESSAGES } from "~/lib/proposals";
import { STEP_UP_FIELD, STEP_UP_MESSAGES } from "~/lib/step-up";
import {
  appEnv,
  countRows,
  createUser,
  dbRefusal,
  ensureDepositWallets,
  getPage,
  insertTransaction,
  postForm,
  sessionCookieFor,
  totpCode,
} from "../support/fixtures";
import { alerts, buttonNames, fieldLabel, statuses, testIdTextWith } from "../support/places";

/**
 * Approving a client's deposit or stock deposit is held to the rules of a withdrawal's approval: a fresh code
 * (step-up) every time, and a second admin at or above the four-eyes threshold. Without them one admin could
 * credit a large deposit that never arrived and pay it out in withdrawals under the threshold, alone.
 */

type Admin = { id: string; email: string; cookie: string; totpSecret: Uint8Array | null };

const THRESHOLD_CENTS = appEnv.FOUR_EYES_THRESHOLD * 100;

async function newAdmin(): Promise<Admin> {
  const created = await createUser({ role: "admin" });
  return { ...created, cookie: await sessionCookieFor(created.id) };
}

let maker: Admin;
let checker: Admin;

beforeAll(async () => {
  await ensureDepositWallets();
  maker = await newAdmin();
  checker = await newAdmin();
});

const balanceOf = async (userId: string) =>
  (
    await env.DB.prepare(
      "SELECT coalesce(sum(CASE WHEN status = 'approved' THEN amount_cents ELSE 0 END), 0) AS cents FROM transactions WHERE user_id = ? AND transaction_type = 'deposit'",
    )
      .bind(userId)
      .first<{ cents: number }>()
  )?.cents ?? 0;

const statusOf = async (id: number) =>
  (await env.DB.prepare("SELECT status FROM transactions WHERE id = ?").bind(id).first<{ status: string }>())?.status;

const proposalOf = (transactionId: number) =>
  env.DB.prepare("SELECT * FROM proposals WHERE transaction_id = ? ORDER BY id DESC").bind(transactionId).first<{
    id: number;
    kind: string;
    status: string;
    transaction_type: string;
    amount_cents: number;
    stock: string | null;
    proposed_by: string;
  }>();

const approve = (admin: Pick<Admin, "cookie">, clientId: string, id: number, fields: Record<string, string> = {}) =>
  postForm(`/user/${clientId}`, { intent: "approve", transactionId: String(id), ...fields }, { cookie: admin.cookie });

const approveProposal = (admin: Pick<Admin, "cookie">, proposalId: number) =>
  postForm("/admin", { intent: "approveProposal", proposalId: String(proposalId) }, { cookie: admin.cookie });

const REQUESTS = [
  { name: "a deposit", type: "deposit" as const, stock: undefined, noun: "deposit" },
  { name: "a stock deposit", type: "stock_deposit" as const, stock: "AAPL", noun: "stock deposit" },
];

describe.each(REQUESTS)("approving $name", ({ type, stock, noun }) => {
  const pending = async (amountCents: number) => {
    const client = await createUser({ firstName: "Jane" });
    const id = await insertTransaction(client.id, { transactionType: type, stock, amountCents });
    return { client, id };
  };

  it("just below the threshold is decided at once by one admin", async () => {
    const { client, id } = await pending(THRESHOLD_CENTS - 1);
    const response = await approve(maker, client.id, id);
    expect(statuses(await response.text())).toContain("Transaction approved");
    expect(await statusOf(id)).toBe("approved");
    expect(await countRows("proposals", "transaction_id = ?", id)).toBe(0);
  });

  it("at the threshold waits for a second admin: nothing is credited until another admin approves", async () => {
    const { client, id } = await pending(THRESHOLD_CENTS);
    const replies = await Promise.all([1, 2].map(() => approve(maker, client.id, id)));
    for (const reply of replies) expect(statuses(await reply.text())).toContain(PROPOSAL_MESSAGES.awaiting);
    expect(await statusOf(id)).toBe("pending");
    expect(await balanceOf(client.id)).toBe(0);
    const proposal = await proposalOf(id);
    expect(proposal).toMatchObject({
      kind: "request_approval",
      status: "pending",
      transaction_type: type,
      amount_cents: THRESHOLD_CENTS,
      stock: stock ?? null,
      proposed_by: maker.id,
    });
    expect(await countRows("proposals", "transaction_id = ?", id)).toBe(1);
    const description = `Approve ${noun} of $10,000.00${stock ? ` (${stock})` : ""} for Jane Tester`;
    expect(
      await countRows("email_outbox", "template = 'proposal_waiting' AND instr(payload, ?) > 0", description),
    ).toBe(
      // Every admin but the proposer, once each however often Approve was pressed.
      (await countRows("users", "role = 'admin'")) - 1,
    );
    // The row says it waits instead of offering Approve; the card offers the other admin Approve and Reject.
    const page = await (await getPage(`/user/${client.id}`, checker.cookie)).text();
    expect(testIdTextWith(page, "proposal", description)).toContain("Reject");
    expect(buttonNames(page)).toContain(`Reject: ${description}`);
    expect(buttonNames(page)).not.toContain(`Approve ${noun} of $10,000.00`);

    const approved = await approveProposal(checker, proposal?.id ?? 0);
    expect(statuses(await approved.text())).toContain(PROPOSAL_MESSAGES.approved);
    expect(await countRows("transactions", "id = ? AND status = 'approved' AND decided_by = ?", id, checker.id)).toBe(
      1,
    );
    if (type === "deposit") expect(await balanceOf(client.id)).toBe(THRESHOLD_CENTS);
    expect(await countRows("email_outbox", "template = 'request_decided' AND to_address = ?", client.email)).toBe(1);
    expect(await countRows("audit_log", "action = 'transaction.approve' AND target = ?", `transaction:${id}`)).toBe(1);
  });

  it("cannot be finished by the admin who proposed it, in the code or in the database", async () => {
    const { client, id } = await pending(THRESHOLD_CENTS * 3);
    await approve(maker, client.id, id);
    const proposal = await proposalOf(id);
    const own = await approveProposal(maker, proposal?.id ?? 0);
    expect(alerts(await own.text())).toContain(PROPOSAL_MESSAGES.ownProposal);
    expect(await statusOf(id)).toBe("pending");
    expect(
      await dbRefusal(
        env.DB.prepare("UPDATE proposals SET status = 'approved', decided_by = ?, decided_at = ? WHERE id = ?")
          .bind(maker.id, Date.now(), proposal?.id ?? 0)
          .run(),
      ),
    ).toContain("a proposal is approved by a different admin before it expires");
  });

  it("against the client's cancel, many at once, gives exactly one outcome", async () => {
    for (let round = 0; round < 4; round++) {
      const { client, id } = await pending(THRESHOLD_CENTS);
      await approve(maker, client.id, id);
      const proposal = await proposalOf(id);
      const clientCookie = await sessionCookieFor(client.id);
      const answers = await Promise.all([
        approveProposal(checker, proposal?.id ?? 0).then((r) => r.text()),
        postForm(`/requests/${id}/cancel`, { redirectTo: "/dashboard" }, { cookie: clientCookie }).then(
          (r) => r.status,
        ),
      ]);
      const status = await statusOf(id);
      const decided = (await proposalOf(id))?.status;
      if (status === "approved") {
        expect(decided).toBe("approved");
        expect(statuses(answers[0])).toContain(PROPOSAL_MESSAGES.approved);
        if (type === "deposit") expect(await balanceOf(client.id)).toBe(THRESHOLD_CENTS);
      } else {
        expect(status).toBe("cancelled");
        expect(decided).toBe("pending");
        expect(alerts(answers[0])).toContain(
          type === "deposit" ? PROPOSAL_MESSAGES.depositGone : PROPOSAL_MESSAGES.stockDepositGone,
        );
        expect(await balanceOf(client.id)).toBe(0);
      }
      expect(
        await countRows(
          "audit_log",
          "target = ? AND action IN ('transaction.approve', 'transaction.cancel')",
          `transaction:${id}`,
        ),
      ).toBe(1);
    }
  });

  it("by an admin whose code is over 10 minutes old asks for one first and writes nothing, at any amount", async () => {
    const stale = await createUser({ role: "admin" });
    const cookie = await sessionCookieFor(stale.id, Date.now(), { freshSecondFactor: false });
    for (const cents of [100, THRESHOLD_CENTS, 100_000_000]) {
      const { client, id } = await pending(cents);
      const audits = await countRows("audit_log");
      const response = await approve({ cookie }, client.id, id);
      expect(response.status).toBe(401);
      expect(fieldLabel(await response.text(), STEP_UP_FIELD)).toBe(STEP_UP_MESSAGES.prompt);
      expect(await statusOf(id)).toBe("pending");
      expect(await countRows("proposals", "transaction_id = ?", id)).toBe(0);
      expect(await countRows("audit_log")).toBe(audits);
    }
  });

  it("of $1,000,000.00 by one admin with a code is only a proposal: the balance stays as it was", async () => {
    const alone = await createUser({ role: "admin" });
    const cookie = await sessionCookieFor(alone.id, Date.now(), { freshSecondFactor: false });
    const { client, id } = await pending(100_000_000);
    const response = await approve({ cookie }, client.id, id, {
      [STEP_UP_FIELD]: totpCode(alone.totpSecret as Uint8Array),
    });
    expect(statuses(await response.text())).toContain(PROPOSAL_MESSAGES.awaiting);
    expect(await statusOf(id)).toBe("pending");
    expect(await balanceOf(client.id)).toBe(0);
  });
});
