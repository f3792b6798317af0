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

/**
 * The hold after a two-factor reset with a recovery code or an access recovery (docs/product.md: "24 hours: no
 * step-up act goes through") holds the acts that need a fresh code. Since the acts runner
 * (app/server/acts.server.ts) calls `checkStepUp` for every act, whatever its `freshCode`, the hold refuses every
 * act instead: a client can no longer cancel their own pending withdrawal (for instance one an intruder placed
 * before the client lost their factors and won the account back through access recovery) or ask for a deposit,
 * and an admin in the hold can no longer reject a request, write a note, suspend a client or deactivate an admin.
 * Before 2e261f5..main these all went through.
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
    expect(await response.text()).toContain("Two-factor sign-in was reset recently");
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
    expect(text).not.toContain(STEP_UP_MESSAGES.resetHold(Date.now() + 24 * 3_600_000).slice(0, 40));
    expect(await statusOf(id)).toBe("rejected");
  });
});
