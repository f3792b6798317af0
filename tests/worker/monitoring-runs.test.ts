import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { readAppEnv } from "~/server/env.server";
import { evaluateRules } from "~/server/monitoring/evaluate.server";
import worker from "../../workers/app";
import {
  appEnv,
  db,
  dbRefusal,
  ensureDepositWallets,
  formRequest,
  fundedClient,
  getPage,
  postForm,
  requestWithdrawalAs,
} from "../support/fixtures";
import { alertsOf, client, DAY, HOUR, judge, request, T, theAlert } from "../support/monitoring";

beforeAll(async () => {
  await ensureDepositWallets();
});

/** The rules run after the answer (in the background): wait until they wrote, or give up after a while. */
async function eventually<T>(read: () => Promise<T[]>, wanted = 1): Promise<T[]> {
  for (let i = 0; i < 50; i++) {
    const rows = await read();
    if (rows.length >= wanted) return rows;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return read();
}

describe("running the rules", () => {
  it("writes one alert however often and however concurrently a request is judged", async () => {
    const pat = await client();
    const large = await request(pat.id, "deposit", 12_000_00, 0);
    await judge(large);
    await judge(large);
    await Promise.all([judge(large), judge(large), judge(large)]);
    expect(await alertsOf(pat.id)).toHaveLength(1);
  });

  it("the cron judges the last 24 hours' requests at its own time, and none older", async () => {
    const pat = await client();
    const recent = await request(pat.id, "deposit", 15_000_00, 2 * HOUR);
    await request(pat.id, "withdraw", 20_000_00, DAY + HOUR);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: T }), env, ctx);
    await waitOnExecutionContext(ctx);

    const alerts = await alertsOf(pat.id);
    expect(alerts.map((a) => [a.rule, a.triggerId])).toEqual([["large_transaction", recent]]);
    // A second run over the same window adds nothing.
    await evaluateRules(db, appEnv, { from: T - DAY, to: T }, T + 60_000);
    expect(await alertsOf(pat.id)).toHaveLength(1);
  });

  it("a client's deposit and withdrawal requests are judged when they are made", async () => {
    const pat = await fundedClient(20_000_00);
    const deposit = await postForm(
      "/deposit",
      { amount: "10000.00", walletType: "BTC", idempotencyKey: crypto.randomUUID() },
      { cookie: pat.cookie },
    );
    expect(deposit.status).toBe(302);
    const withdrawal = await requestWithdrawalAs(pat, { amount: "11000.00" });

    const alerts = await eventually(() => alertsOf(pat.id, "large_transaction"), 2);
    expect(alerts.map((a) => a.detail.kind).sort()).toEqual(["deposit", "withdrawal"]);
    expect(alerts.map((a) => a.triggerId)).toContain(withdrawal);
  });

  it("a client never sees an alert about them", async () => {
    const pat = await fundedClient(20_000_00);
    await requestWithdrawalAs(pat, { amount: "12000.00" });
    expect(await eventually(() => alertsOf(pat.id))).not.toEqual([]);
    for (const path of ["/dashboard", "/transactions", "/account", "/statements"]) {
      const page = await getPage(path, pat.cookie);
      expect(page.status).toBe(200);
      const html = await page.text();
      // Page-wide: a client is never tipped off, so nothing of an alert about them is sent, shown or in the page's data.
      expect(html).not.toMatch(/large single transaction|monitoring|alert_|at or above \$10,000/i);
    }
  });
});

describe("monitoring switched off (the bench's comparison)", () => {
  const off = { ...env, AML_MONITORING: "off" };

  it("judges no request, neither after it is made nor in the cron", async () => {
    const pat = await fundedClient(20_000_00);
    const ctx = createExecutionContext();
    const deposit = await worker.fetch(
      formRequest(
        "/deposit",
        { amount: "12000.00", walletType: "BTC", idempotencyKey: crypto.randomUUID() },
        { cookie: pat.cookie, ip: "203.0.113.10" },
      ),
      off,
      ctx,
    );
    expect(deposit.status).toBe(302);
    await waitOnExecutionContext(ctx);
    await request(pat.id, "withdraw", 15_000_00, HOUR);
    const cron = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: T }), off, cron);
    await waitOnExecutionContext(cron);
    expect(await alertsOf(pat.id)).toEqual([]);

    // The same cron with monitoring on (the default) judges what the switched-off runs left.
    const on = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: T }), env, on);
    await waitOnExecutionContext(on);
    expect((await alertsOf(pat.id)).map((alert) => alert.rule)).toContain("large_transaction");
  });

  it("is refused in production", () => {
    expect(() => readAppEnv({ ...env, ENVIRONMENT: "production", AML_MONITORING: "off" })).toThrow(/AML_MONITORING/);
  });
});

describe("an alert's record", () => {
  it("grows while open, never losing a request it listed", async () => {
    const pat = await client();
    const ids = [];
    for (const ago of [2 * DAY, DAY, 0]) ids.push(await request(pat.id, "deposit", 9_000_00, ago));
    for (const id of ids) await judge(id);
    const setIds = (transactionIds: number[]) =>
      env.DB.prepare(
        "UPDATE monitoring_alerts SET detail = json_set(detail, '$.transactionIds', json(?)) WHERE user_id = ?",
      )
        .bind(JSON.stringify(transactionIds), pat.id)
        .run();

    expect(await dbRefusal(setIds(ids.slice(1)))).toContain("an open monitoring alert only grows");
    await setIds([...ids, 999_999]);
    expect((await theAlert(pat.id)).detail.transactionIds).toEqual([...ids, 999_999]);
  });

  it("is decided once and never deleted", async () => {
    const pat = await client();
    await judge(await request(pat.id, "deposit", 10_000_00, 0));
    const decide = (status: string, note: string) =>
      env.DB.prepare(
        "UPDATE monitoring_alerts SET status = ?, disposed_by = ?, disposed_at = ?, disposition_note = ? WHERE user_id = ?",
      )
        .bind(status, pat.id, T + DAY, note, pat.id)
        .run();

    await decide("dismissed", "Expected: a house sale");
    expect(await dbRefusal(decide("reported", "changed my mind"))).toContain("a monitoring alert is decided once");
    const grow = env.DB.prepare(
      "UPDATE monitoring_alerts SET detail = json_insert(detail, '$.transactionIds[#]', 999999) WHERE user_id = ?",
    ).bind(pat.id);
    expect(await dbRefusal(grow.run())).toContain("a monitoring alert is decided once");
    expect(
      await dbRefusal(env.DB.prepare("DELETE FROM monitoring_alerts WHERE user_id = ?").bind(pat.id).run()),
    ).toContain("monitoring alerts are never deleted");
    const alert = await theAlert(pat.id);
    expect(alert.status).toBe("dismissed");
  });
});
