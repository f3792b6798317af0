import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { alertWords } from "~/lib/monitoring/rules";
import { createUser, insertTransaction } from "../support/fixtures";
import { alertsOf, client, DAY, HOUR, judge, request, T, theAlert } from "../support/monitoring";

const LARGE = 10_000_00;

describe("large single transaction", () => {
  it("fires on a request at the threshold, not a cent under it, nor on an admin's entry", async () => {
    const pat = await client();
    const atThreshold = await request(pat.id, "deposit", LARGE, 0);
    const under = await request(pat.id, "withdraw", LARGE - 1, 0);
    const admin = await createUser({ role: "admin" });
    const entry = await insertTransaction(pat.id, { amountCents: 50_000_00, createdBy: admin.id, createdAt: T });
    for (const id of [atThreshold, under, entry]) await judge(id);

    const alert = await theAlert(pat.id, "large_transaction");
    expect(alert.triggerId).toBe(atThreshold);
    expect(alertWords("large_transaction", alert.detail)).toBe("A deposit of $10,000.00, at or above $10,000.00");
  });
});

describe("structuring", () => {
  it("fires on the third deposit in 6 days each just under the threshold, and says so", async () => {
    const pat = await client();
    const ids = [
      await request(pat.id, "deposit", 9_000_00, 6 * DAY),
      await request(pat.id, "deposit", 9_500_00, 3 * DAY),
      await request(pat.id, "deposit", 8_000_00, 0),
    ];
    for (const id of ids) await judge(id);

    const alert = await theAlert(pat.id, "structuring");
    expect(alert.triggerId).toBe(ids[2]);
    expect([...alert.detail.transactionIds].sort()).toEqual([...ids].sort());
    expect(alertWords("structuring", alert.detail)).toBe(
      "3 deposits in 6 days, each between $8,000.00 and $9,500.00 (just under $10,000.00)",
    );
  });

  it("stays quiet when the same three deposits spread over 8 days", async () => {
    const pat = await client();
    const ids = [
      await request(pat.id, "deposit", 9_000_00, 8 * DAY),
      await request(pat.id, "deposit", 9_500_00, 3 * DAY),
      await request(pat.id, "deposit", 8_000_00, 0),
    ];
    for (const id of ids) await judge(id);
    expect(await alertsOf(pat.id, "structuring")).toEqual([]);
  });

  it("fires when small requests together pass the threshold, and stays quiet just under it", async () => {
    const over = await client();
    for (const ago of [2 * DAY, DAY, 0]) await judge(await request(over.id, "deposit", 3_400_00, ago));
    const alert = await theAlert(over.id, "structuring");
    expect(alertWords("structuring", alert.detail)).toBe(
      "3 deposits in 2 days totalling $10,200.00, each below $10,000.00",
    );

    const under = await client();
    for (const ago of [2 * DAY, DAY, 0]) await judge(await request(under.id, "deposit", 3_300_00, ago));
    expect(await alertsOf(under.id, "structuring")).toEqual([]);
  });

  it("writes one alert for a pattern, and the requests that follow it join that alert", async () => {
    const pat = await client();
    const ids = [];
    for (const ago of [3 * DAY, 2 * DAY, DAY, 0]) ids.push(await request(pat.id, "deposit", 9_000_00, ago));
    for (const id of ids) await judge(id);
    const alert = await theAlert(pat.id, "structuring");
    expect(alert.triggerId).toBe(ids[2]);
    expect(alert.detail.transactionIds).toEqual(ids);
  });

  it("reads an alert written before the just-under figures were kept as it read then", () => {
    const before = { transactionIds: [1, 2, 3, 4], kind: "request" as const, count: 4, totalCents: 11_350_00 };
    const detail = { ...before, minCents: 250_00, maxCents: 9_100_00, spanMs: 4 * DAY, thresholdCents: LARGE };
    expect(alertWords("structuring", detail)).toBe("4 requests in 4 days totalling $11,350.00, each below $10,000.00");
  });
});

describe("velocity", () => {
  it("fires on the sixth request in 24 hours and stays quiet at five", async () => {
    const busy = await client();
    const ids = [];
    for (let i = 5; i >= 0; i--) ids.push(await request(busy.id, i % 2 ? "deposit" : "withdraw", 100_00, i * HOUR));
    for (const id of ids) await judge(id);
    const alert = await theAlert(busy.id, "velocity");
    expect(alert.triggerId).toBe(ids[5]);
    expect(alertWords("velocity", alert.detail)).toBe("6 requests in 24 hours (more than 5)");

    const calm = await client();
    for (let i = 4; i >= 0; i--) await judge(await request(calm.id, "deposit", 100_00, i * HOUR));
    // A sixth one a little more than 24 hours after the first stays quiet too.
    await judge(await request(calm.id, "deposit", 100_00, -(20 * HOUR + 1)), T + 21 * HOUR);
    expect(await alertsOf(calm.id, "velocity")).toEqual([]);
  });
});

describe("rapid in and out", () => {
  const approvedDeposit = (userId: string, cents: number, approvedAgo: number) =>
    request(userId, "deposit", cents, 3 * DAY, { status: "approved", decidedAt: T - approvedAgo });

  it("fires on a withdrawal of 80% of a deposit approved 47 hours before", async () => {
    const pat = await client();
    const deposit = await approvedDeposit(pat.id, 5_000_00, 47 * HOUR);
    const withdrawal = await request(pat.id, "withdraw", 4_000_00, 0);
    await judge(withdrawal);
    const alert = await theAlert(pat.id, "rapid_in_out");
    expect(alert.detail.transactionIds).toEqual([deposit, withdrawal]);
    expect(alertWords("rapid_in_out", alert.detail)).toBe(
      "A withdrawal of $4,000.00 47 hours after a deposit of $5,000.00 was approved",
    );
  });

  it("stays quiet just under 80% of the deposit, and 49 hours after its approval", async () => {
    const under = await client();
    await approvedDeposit(under.id, 5_000_00, 47 * HOUR);
    await judge(await request(under.id, "withdraw", 3_999_99, 0));
    const late = await client();
    await approvedDeposit(late.id, 5_000_00, 49 * HOUR);
    await judge(await request(late.id, "withdraw", 5_000_00, 0));
    expect(await alertsOf(under.id, "rapid_in_out")).toEqual([]);
    expect(await alertsOf(late.id, "rapid_in_out")).toEqual([]);
  });
});

describe("new destination after a security change", () => {
  const securityNotice = (email: string, event: string, ago: number) =>
    env.DB.prepare(
      "INSERT INTO email_outbox (to_address, template, payload, status, created_at) VALUES (?, 'security_notice', ?, 'sent', ?)",
    )
      .bind(email, JSON.stringify({ event }), T - ago)
      .run();

  it("fires on a withdrawal to a new address 71 hours after a password change", async () => {
    const pat = await client();
    await securityNotice(pat.email, "password_changed", 71 * HOUR);
    const withdrawal = await request(pat.id, "withdraw", 500_00, 0, { withdrawalWalletAddress: "0xnew" });
    await judge(withdrawal);
    const alert = await theAlert(pat.id, "new_destination_after_security_change");
    expect(alert.triggerId).toBe(withdrawal);
    expect(alertWords("new_destination_after_security_change", alert.detail)).toBe(
      "A withdrawal of $500.00 to a new address 71 hours after a password change",
    );
  });

  it("stays quiet 73 hours after the change, and for an address the client was paid to before", async () => {
    const late = await client();
    await securityNotice(late.email, "new_browser", 73 * HOUR);
    await judge(await request(late.id, "withdraw", 500_00, 0, { withdrawalWalletAddress: "0xnew" }));
    const known = await client();
    await request(known.id, "withdraw", 100_00, 30 * DAY, { status: "approved", withdrawalWalletAddress: "0xold" });
    await securityNotice(known.email, "two_factor_off", HOUR);
    await judge(await request(known.id, "withdraw", 500_00, 0, { withdrawalWalletAddress: "0xold" }));
    expect(await alertsOf(late.id, "new_destination_after_security_change")).toEqual([]);
    expect(await alertsOf(known.id, "new_destination_after_security_change")).toEqual([]);
  });
});

describe("dormant account awakens", () => {
  it("fires on a withdrawal after 200 days without a ledger row, not after 170", async () => {
    const sleeper = await client();
    await request(sleeper.id, "deposit", 1_000_00, 200 * DAY, { status: "approved" });
    const withdrawal = await request(sleeper.id, "withdraw", 900_00, 0);
    await judge(withdrawal);
    const alert = await theAlert(sleeper.id, "dormant_account");
    expect(alert.triggerId).toBe(withdrawal);
    expect(alertWords("dormant_account", alert.detail)).toBe("A withdrawal of $900.00 after 200 days without activity");

    const napper = await client();
    await request(napper.id, "deposit", 1_000_00, 170 * DAY, { status: "approved" });
    await judge(await request(napper.id, "withdraw", 900_00, 0));
    expect(await alertsOf(napper.id, "dormant_account")).toEqual([]);
  });
});
