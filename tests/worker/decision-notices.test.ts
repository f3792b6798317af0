import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { transactionReference } from "~/lib/reference";
import { REASON_MAX_LENGTH, REASON_TOO_LONG } from "~/lib/schemas/reason";
import { renderStoredEmail } from "~/server/mail/templates.server";
import backfill from "../../db/migrations/0030_rejected_withdrawal_notices_say_the_reserve_is_released.sql?raw";
import { appEnv, countRows, createUser, insertTransaction, postForm, signedInAdmin } from "../support/fixtures";
import { refusals } from "../support/places";

let admin: { id: string; email: string; cookie: string };

beforeAll(async () => {
  admin = await signedInAdmin();
});

const decidePost = (clientId: string, intent: "approve" | "reject", id: number, reason?: string) =>
  postForm(
    `/user/${clientId}`,
    { intent, transactionId: String(id), ...(reason === undefined ? {} : { reason }) },
    { cookie: admin.cookie },
  );

async function noticesFor(email: string) {
  const { results } = await env.DB.prepare(
    "SELECT payload FROM email_outbox WHERE to_address = ? AND template = 'request_decided' ORDER BY id",
  )
    .bind(email)
    .all<{ payload: string }>();
  return results.map((row) => JSON.parse(row.payload) as Record<string, unknown>);
}

describe("the client's mail about a decision", () => {
  it("is enqueued once when a request is approved, however often the admin clicks", async () => {
    const client = await createUser({ firstName: "Dora" });
    const id = await insertTransaction(client.id, { amountCents: 12_345, createdAt: Date.UTC(2026, 0, 2, 3, 4) });
    expect((await decidePost(client.id, "approve", id)).status).toBe(200);
    expect((await decidePost(client.id, "approve", id)).status).toBe(409);
    expect((await decidePost(client.id, "reject", id, "late")).status).toBe(409);

    const notices = await noticesFor(client.email);
    expect(notices).toEqual([
      {
        name: "Dora",
        decision: "approved",
        requestType: "Deposit",
        amount: 123.45,
        requestedAt: Date.UTC(2026, 0, 2, 3, 4),
        reference: transactionReference(id),
        transactionId: id,
      },
    ]);
    const mail = renderStoredEmail("request_decided", notices[0], appEnv);
    expect(mail.subject).toBe("Your deposit request was approved");
    expect(mail.text).toContain("$123.45");
    expect(mail.text).toContain(`Reference: ${transactionReference(id)}`);
    expect(mail.text).toContain("2026-01-02 03:04 UTC");
  });

  it("carries the admin's reason for a rejection: stored, audited and mailed", async () => {
    const client = await createUser();
    const id = await insertTransaction(client.id, { transactionType: "withdraw", amountCents: 5_000 });
    const response = await decidePost(client.id, "reject", id, "  Address failed our screening.  ");
    expect(response.status).toBe(200);

    const row = await env.DB.prepare("SELECT status, decision_reason FROM transactions WHERE id = ?").bind(id).first();
    expect(row).toEqual({ status: "rejected", decision_reason: "Address failed our screening." });
    const audit = await env.DB.prepare(
      "SELECT detail FROM audit_log WHERE target = ? AND action = 'transaction.reject'",
    )
      .bind(`transaction:${id}`)
      .first<{ detail: string }>();
    expect(JSON.parse(audit?.detail ?? "{}")).toMatchObject({ reason: "Address failed our screening." });

    const notices = await noticesFor(client.email);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      decision: "rejected",
      requestType: "Withdrawal",
      reason: "Address failed our screening.",
    });
    const mail = renderStoredEmail("request_decided", notices[0], appEnv);
    expect(mail.text).toContain("Reason: Address failed our screening.");
    expect(mail.text).toContain("The reserved amount is available again.");
  });

  it("has no reason when the admin gave none", async () => {
    const client = await createUser();
    const id = await insertTransaction(client.id, { amountCents: 900 });
    expect((await decidePost(client.id, "reject", id, "   ")).status).toBe(200);
    const notices = await noticesFor(client.email);
    expect(notices).toHaveLength(1);
    expect(notices[0]).not.toHaveProperty("reason");
    const mail = renderStoredEmail("request_decided", notices[0], appEnv).text;
    expect(mail).not.toContain("Reason:");
    // A deposit reserved nothing while it waited.
    expect(mail).not.toContain("The reserved amount is available again.");
    const row = await env.DB.prepare("SELECT decision_reason FROM transactions WHERE id = ?").bind(id).first();
    expect(row).toEqual({ decision_reason: null });
  });

  it("refuses a reason over 500 characters and changes nothing", async () => {
    const client = await createUser();
    const id = await insertTransaction(client.id, { amountCents: 900 });
    const response = await decidePost(client.id, "reject", id, "x".repeat(REASON_MAX_LENGTH + 1));
    expect(response.status).toBe(400);
    expect(refusals(await response.text())).toContain(REASON_TOO_LONG);
    const row = await env.DB.prepare("SELECT status FROM transactions WHERE id = ?").bind(id).first();
    expect(row).toEqual({ status: "pending" });
    expect(await noticesFor(client.email)).toEqual([]);
    expect(await countRows("audit_log", "target = ?", `transaction:${id}`)).toBe(0);
  });

  it("is one for ten parallel approvals of one request", async () => {
    const client = await createUser();
    const id = await insertTransaction(client.id, { amountCents: 1_000 });
    const responses = await Promise.all(Array.from({ length: 10 }, () => decidePost(client.id, "approve", id)));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await noticesFor(client.email)).toHaveLength(1);
  });
});

describe("a rejected withdrawal's notice stored before it carried reserveReleased", () => {
  it("reads as it did once migration 0030 has run over it", async () => {
    const stored = {
      name: "Robin",
      decision: "rejected",
      requestType: "Withdrawal",
      amount: 9,
      requestedAt: Date.now(),
    };
    const row = await env.DB.prepare(
      "INSERT INTO email_outbox (to_address, template, payload, status) VALUES ('old@example.com', 'request_decided', ?, 'sent') RETURNING id",
    )
      .bind(JSON.stringify(stored))
      .first<{ id: number }>();
    const before = renderStoredEmail("request_decided", stored, appEnv).text;
    expect(before).not.toContain("The reserved amount is available again.");
    await env.DB.prepare(backfill.replace(/^--.*$/gm, "")).run();
    const after = await env.DB.prepare("SELECT payload FROM email_outbox WHERE id = ?")
      .bind(row?.id)
      .first<{ payload: string }>();
    const mail = renderStoredEmail("request_decided", JSON.parse(after?.payload ?? "{}"), appEnv).text;
    expect(mail).toContain("The reserved amount is available again.");
  });
});
