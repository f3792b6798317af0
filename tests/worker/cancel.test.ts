import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { CANCEL_MESSAGES } from "~/lib/schemas/requests";
import { decideTransaction } from "~/server/admin/decisions.server";
import { cancelRequest } from "~/server/ledger/cancel.server";
import { signCancelToken } from "~/server/ledger/cancel-link.server";
import { withdrawableCents } from "~/server/ledger/figures.server";
import {
  appEnv,
  countRows,
  createUser,
  db,
  dbRefusal,
  ensureDepositWallets,
  fundedClient as fundedClientOf,
  getPage,
  insertTransaction,
  postForm,
  requestWithdrawalAs,
  sessionCookieFor,
} from "../support/fixtures";
import { alerts, buttonNames, elementsWith, heading, readText, testIdText } from "../support/places";

let admin: { id: string; email: string };

beforeAll(async () => {
  await ensureDepositWallets();
  admin = await createUser({ role: "admin" });
});

const fundedClient = () => fundedClientOf(10_000, "Cleo");
const requestWithdrawal = (client: { id: string; cookie: string }, amount = "50.00") =>
  requestWithdrawalAs(client, { amount });

const cancelPost = (id: number, cookie: string, redirectTo = "/dashboard") =>
  postForm(`/requests/${id}/cancel`, { redirectTo }, { cookie });

async function rowOf(id: number) {
  return env.DB.prepare("SELECT status, decided_by, decided_at FROM transactions WHERE id = ?")
    .bind(id)
    .first<{ status: string; decided_by: string | null; decided_at: number | null }>();
}

describe("a client cancels their own pending request", () => {
  it("cancels a withdrawal: the reserve is free at once, one audit row by the client, back to the page", async () => {
    const client = await fundedClient();
    const id = await requestWithdrawal(client);
    expect(await withdrawableCents(db, client.id)).toBe(5_000);

    const response = await cancelPost(id, client.cookie, "/dashboard?from=test");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard?from=test");
    expect(response.headers.get("Set-Cookie")).toContain("toast=");

    expect(await rowOf(id)).toMatchObject({ status: "cancelled", decided_by: client.id });
    expect(await withdrawableCents(db, client.id)).toBe(10_000);
    const audit = await env.DB.prepare(
      "SELECT actor_id, detail FROM audit_log WHERE action = 'transaction.cancel' AND target = ?",
    )
      .bind(`transaction:${id}`)
      .all<{ actor_id: string; detail: string }>();
    expect(audit.results).toHaveLength(1);
    expect(audit.results[0]?.actor_id).toBe(client.id);
    expect(JSON.parse(audit.results[0]?.detail ?? "{}")).toMatchObject({
      by: client.email,
      before: "pending",
      after: "cancelled",
      amountCents: 5_000,
      via: "dashboard",
    });

    // The dashboard lists it grey as Cancelled, with no Cancel button left, and the balance back up.
    const html = await (await getPage("/dashboard", client.cookie)).text();
    const cancelled = elementsWith(html, "data-status", "cancelled").map(readText);
    expect(cancelled).toEqual([expect.stringMatching(/^Withdrawal .*Cancelled.*\$50\.00$/)]);
    expect(buttonNames(html)).not.toContain("Cancel withdrawal of $50.00");
    expect(testIdText(html, "balance-available")).toBe("$100.00");
  });

  it("offers Cancel on each pending row of the dashboard, named after the request", async () => {
    const client = await fundedClient();
    await requestWithdrawal(client, "12.50");
    await insertTransaction(client.id, { createdBy: client.id, transactionType: "deposit", amountCents: 2_000 });
    const html = await (await getPage("/dashboard", client.cookie)).text();
    expect(buttonNames(html)).toEqual(
      expect.arrayContaining(["Cancel withdrawal of $12.50", "Cancel deposit of $20.00"]),
    );
  });

  it("offers no Cancel on a deposit seen on chain and held for the desk: not on the dashboard, History or a link", async () => {
    const client = await fundedClient();
    await insertTransaction(client.id, { createdBy: client.id, transactionType: "deposit", amountCents: 2_000 });
    const held = await insertTransaction(client.id, { idempotencyKey: "chain:BTC:cd:0", amountCents: 5_000 });
    for (const page of ["/dashboard", "/transactions"]) {
      const names = buttonNames(await (await getPage(page, client.cookie)).text());
      expect(names, page).toContain("Cancel deposit of $20.00");
      expect(names, page).not.toContain("Cancel deposit of $50.00");
    }
    const token = signCancelToken(appEnv.SESSION_SECRET, held, client.id);
    const link = await (await getPage(`/cancel-request?token=${encodeURIComponent(token)}`)).text();
    expect(heading(link)).toBe("This request cannot be cancelled here");
    expect(alerts(link)).toEqual([CANCEL_MESSAGES.receivedOnChain]);
    expect(buttonNames(link)).not.toContain("Cancel request");
  });

  it("cancels deposits and stock deposits too, and a suspended client may still cancel", async () => {
    const client = await fundedClient();
    const deposit = await insertTransaction(client.id, {
      createdBy: client.id,
      transactionType: "deposit",
      amountCents: 700,
    });
    const stock = await insertTransaction(client.id, {
      createdBy: client.id,
      transactionType: "stock_deposit",
      stock: "AAPL",
      amountCents: 900,
    });
    await env.DB.prepare("UPDATE profiles SET status = 'suspended' WHERE user_id = ?").bind(client.id).run();
    expect((await cancelPost(deposit, client.cookie)).status).toBe(302);
    expect((await cancelPost(stock, client.cookie)).status).toBe(302);
    expect((await rowOf(deposit))?.status).toBe("cancelled");
    expect((await rowOf(stock))?.status).toBe("cancelled");
  });

  it("answers another client's request exactly as a missing one, and changes nothing", async () => {
    const owner = await fundedClient();
    const intruder = await fundedClient();
    const id = await requestWithdrawal(owner);
    const before = await countRows("audit_log");

    expect(await cancelRequest(db, { id: intruder.id, email: intruder.email }, id)).toEqual({
      ok: false,
      error: CANCEL_MESSAGES.notFound,
    });
    expect(await cancelRequest(db, { id: intruder.id, email: intruder.email }, 999_999_999)).toEqual({
      ok: false,
      error: CANCEL_MESSAGES.notFound,
    });
    const response = await cancelPost(id, intruder.cookie);
    expect(response.status).toBe(302);
    expect((await rowOf(id))?.status).toBe("pending");
    expect(await withdrawableCents(db, owner.id)).toBe(5_000);
    expect(await countRows("audit_log")).toBe(before);
  });

  it("refuses a decided request, an already cancelled one and an admin's entry", async () => {
    const client = await fundedClient();
    const actor = { id: client.id, email: client.email };
    const approved = await insertTransaction(client.id, { createdBy: client.id, amountCents: 300 });
    await decideTransaction(db, { id: admin.id, email: admin.email }, approved, "approved", { limits: appEnv });
    const rejected = await insertTransaction(client.id, { createdBy: client.id, amountCents: 300 });
    await decideTransaction(db, { id: admin.id, email: admin.email }, rejected, "rejected", { limits: appEnv });
    const cancelled = await insertTransaction(client.id, { createdBy: client.id, amountCents: 300 });
    expect((await cancelRequest(db, actor, cancelled)).ok).toBe(true);
    const profit = await insertTransaction(client.id, {
      createdBy: client.id,
      transactionType: "profit",
      tradingPair: "EUR/USD",
    });

    expect(await cancelRequest(db, actor, approved)).toEqual({ ok: false, error: CANCEL_MESSAGES.alreadyDecided });
    expect(await cancelRequest(db, actor, rejected)).toEqual({ ok: false, error: CANCEL_MESSAGES.alreadyDecided });
    expect(await cancelRequest(db, actor, cancelled)).toEqual({ ok: false, error: CANCEL_MESSAGES.alreadyCancelled });
    expect(await cancelRequest(db, actor, profit)).toEqual({ ok: false, error: CANCEL_MESSAGES.notCancellable });
    expect((await rowOf(approved))?.status).toBe("approved");
    expect((await rowOf(rejected))?.status).toBe("rejected");
    expect((await rowOf(profit))?.status).toBe("pending");
    expect(await countRows("audit_log", "action = 'transaction.cancel' AND actor_id = ?", client.id)).toBe(1);
  });

  it("is a POST only, for a signed-in client", async () => {
    const client = await fundedClient();
    const id = await requestWithdrawal(client);
    const signedOut = await postForm(`/requests/${id}/cancel`, { redirectTo: "/dashboard" });
    expect(signedOut.headers.get("Location")).toMatch(/^\/login/);
    const adminResponse = await cancelPost(id, await sessionCookieFor(admin.id));
    expect(adminResponse.headers.get("Location")).toBe("/admin");
    // A redirect elsewhere is never followed.
    const offSite = await cancelPost(id, client.cookie, "https://evil.example/");
    expect(offSite.headers.get("Location")).toBe("/dashboard");
    expect((await rowOf(id))?.status).toBe("cancelled");
  });
});

describe("the database's guards", () => {
  it("refuse a client deciding a request, and a cancel by anyone but the owner or of an admin's entry", async () => {
    const client = await createUser();
    const other = await createUser();
    const id = await insertTransaction(client.id, { createdBy: client.id });
    const update = (status: string, by: string, rowId = id) =>
      env.DB.prepare("UPDATE transactions SET status = ?, decided_by = ?, decided_at = ? WHERE id = ?")
        .bind(status, by, Date.now(), rowId)
        .run();
    expect(await dbRefusal(update("approved", client.id))).toContain("only an admin may approve or reject a request");
    expect(await dbRefusal(update("rejected", client.id))).toContain("only an admin may approve or reject a request");
    expect(await dbRefusal(update("cancelled", other.id))).toContain("only its owner may cancel a pending request");
    expect(await dbRefusal(update("cancelled", admin.id))).toContain("only its owner may cancel a pending request");
    const profit = await insertTransaction(client.id, {
      createdBy: client.id,
      transactionType: "profit",
      tradingPair: "EUR/USD",
    });
    expect(await dbRefusal(update("cancelled", client.id, profit))).toContain("only its owner may cancel");
    expect((await rowOf(id))?.status).toBe("pending");

    await update("cancelled", client.id);
    expect(await dbRefusal(update("approved", admin.id))).toContain("transaction already decided");
  });

  it("refuse the client's cancel of a deposit they did not ask for: one seen on chain and held for the desk", async () => {
    const client = await createUser();
    const held = await insertTransaction(client.id, { idempotencyKey: "chain:BTC:ab:0", amountCents: 5_000 });
    expect(
      await dbRefusal(
        env.DB.prepare("UPDATE transactions SET status = 'cancelled', decided_by = ?, decided_at = ? WHERE id = ?")
          .bind(client.id, Date.now(), held)
          .run(),
      ),
    ).toContain("only a request the client made may be cancelled");
    const refused = await cancelRequest(db, { id: client.id, email: client.email }, held);
    expect(refused).toEqual({ ok: false, error: CANCEL_MESSAGES.receivedOnChain });
    expect((await rowOf(held))?.status).toBe("pending");
  });
});

describe("a cancel racing an admin's approval", () => {
  it("ends with exactly one of them, every round: 10 approvals and 10 cancels in parallel", async () => {
    const adminActor = { id: admin.id, email: admin.email };
    for (let round = 0; round < 10; round++) {
      const client = await fundedClient();
      const id = await requestWithdrawal(client, "40.00");
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2 === 0
            ? decideTransaction(db, adminActor, id, "approved", { limits: appEnv })
            : cancelRequest(db, { id: client.id, email: client.email }, id),
        ),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      const status = (await rowOf(id))?.status;
      expect(["approved", "cancelled"]).toContain(status);
      // One audit row, of the one that won; one decision mail only when the approval won.
      const audits = await env.DB.prepare("SELECT action FROM audit_log WHERE target = ?")
        .bind(`transaction:${id}`)
        .all<{ action: string }>();
      expect(audits.results.map((a) => a.action)).toEqual([
        status === "approved" ? "transaction.approve" : "transaction.cancel",
      ]);
      expect(await countRows("email_outbox", "dedupe_key = ?", `request_decided:tx:${id}`)).toBe(
        status === "approved" ? 1 : 0,
      );
      // Totals and the profile's balance agree with the winner.
      const profile = await env.DB.prepare("SELECT balance_cents FROM profiles WHERE user_id = ?")
        .bind(client.id)
        .first<{ balance_cents: number }>();
      expect(profile?.balance_cents).toBe(status === "approved" ? 6_000 : 10_000);
      expect(await withdrawableCents(db, client.id)).toBe(status === "approved" ? 6_000 : 10_000);
      const totals = await env.DB.prepare(
        "SELECT status, count, cents FROM ledger_totals WHERE user_id = ? AND transaction_type = 'withdraw'",
      )
        .bind(client.id)
        .all();
      expect(totals.results).toEqual([{ status, count: 1, cents: 4_000 }]);
    }
  }, 60_000);
});
