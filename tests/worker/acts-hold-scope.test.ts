import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { STEP_UP_MESSAGES } from "~/lib/step-up";
import {
  countRows,
  createUser,
  ensureDepositWallets,
  fundedClient,
  insertTransaction,
  postForm,
  requestWithdrawalAs,
  sessionCookieFor,
} from "../support/fixtures";
import { alerts, refusals } from "../support/places";

/**
 * The hold after a two-factor reset with a recovery code or an access recovery (docs/product.md, "Step-up for
 * money": no step-up act goes through for 24 hours) holds only the acts whose row in the acts table asks for a fresh
 * code. What needs none still goes through: a client cancels their own pending withdrawal (one an intruder placed
 * before the client won the account back, say) or asks for a deposit; an admin rejects a request, writes a note,
 * suspends a client or deactivates an admin.
 */
beforeAll(async () => {
  await ensureDepositWallets();
});

const startHold = (userId: string) =>
  env.DB.prepare("UPDATE users SET second_factor_reset_at = ? WHERE id = ?").bind(Date.now(), userId).run();
const statusOf = async (id: number) =>
  (await env.DB.prepare("SELECT status FROM transactions WHERE id = ?").bind(id).first<{ status: string }>())?.status;

describe("the reset hold holds only the acts that need a fresh code", () => {
  it("still holds a client's withdrawal (a step-up act)", async () => {
    const client = await fundedClient();
    await startHold(client.id);
    const response = await postForm(
      "/withdraw",
      {
        amount: "10.00",
        cryptoCurrency: "ETH",
        walletAddress: "0x3333333333333333333333333333333333333333",
        idempotencyKey: crypto.randomUUID(),
      },
      { cookie: client.cookie },
    );
    expect(response.status).toBe(403);
    expect(alerts(await response.text())).toContainEqual(
      expect.stringContaining("Two-factor sign-in was reset recently"),
    );
  });

  it("lets a client cancel their own pending withdrawal during the hold", async () => {
    const client = await fundedClient();
    const id = await requestWithdrawalAs(client);
    await startHold(client.id);
    const response = await postForm(`/requests/${id}/cancel`, { redirectTo: "/dashboard" }, { cookie: client.cookie });
    expect(response.status).toBe(302);
    expect(await statusOf(id)).toBe("cancelled");
  });

  it("lets a client ask for a deposit during the hold (no fresh code, no money out)", async () => {
    const client = await fundedClient();
    await startHold(client.id);
    const response = await postForm(
      "/deposit",
      { amount: "250.00", walletType: "BTC", idempotencyKey: crypto.randomUUID() },
      { cookie: client.cookie },
    );
    expect(response.status).toBe(302);
    expect(await countRows("transactions", "user_id = ? AND status = 'pending'", client.id)).toBe(1);
  });

  it("lets an admin in the hold reject a withdrawal request (it moves no money)", async () => {
    const admin = await createUser({ role: "admin", roles: ["approver"] });
    await startHold(admin.id);
    const cookie = await sessionCookieFor(admin.id);
    const client = await fundedClient();
    const id = await insertTransaction(client.id, { transactionType: "withdraw", amountCents: 5_000 });
    const response = await postForm(
      `/user/${client.id}`,
      { intent: "reject", transactionId: String(id), reason: "Suspicious" },
      { cookie },
    );
    const text = await response.text();
    expect(response.status, text.slice(0, 200)).toBe(200);
    const hold = STEP_UP_MESSAGES.resetHold(Date.now() + 24 * 3_600_000).slice(0, 40);
    expect(refusals(text).filter((refusal) => refusal.startsWith(hold))).toEqual([]);
    expect(await statusOf(id)).toBe("rejected");
  });
});
