import { beforeAll, describe, expect, it } from "vitest";
import { ALERT_MESSAGES } from "~/lib/monitoring/alerts";
import { transactionReference } from "~/lib/reference";
import { evaluateRules } from "~/server/monitoring/evaluate.server";
import { listen, until } from "../support/feeds";
import {
  appEnv,
  createUser,
  db,
  ensureDepositWallets,
  fundedClient,
  getPage,
  postForm,
  sessionCookieFor,
} from "../support/fixtures";
import { alertsOf, client, DAY, HOUR, judge, request, T, theAlert } from "../support/monitoring";
import { alerts, elementsWith, fieldValue } from "../support/places";

/** A compliance officer's session: the queue is what these tests read, as the officer reads it. */
let officerCookie = "";

beforeAll(async () => {
  await ensureDepositWallets();
  const officer = await createUser({ role: "admin", roles: ["compliance"] });
  officerCookie = await sessionCookieFor(officer.id);
});

/** The open alerts of one client as the queue (/admin/alerts) shows them: the rule, its words, the references. */
async function queueRowsOf(clientId: string) {
  const html = await (await getPage("/admin/alerts", officerCookie)).text();
  return html
    .split("<tr data-alert=")
    .slice(1)
    .map((row) => row.slice(0, row.indexOf("</tr>")))
    .filter((row) => row.includes(`href="/user/${clientId}"`))
    .map((row) => ({
      rule: row.match(/<p class="font-medium">([^<]*)<\/p>/)?.[1],
      words: row.match(/<p class="text-ink-muted">([^<]*)<\/p>/)?.[1]?.replaceAll("&#x27;", "'"),
      references: [...row.matchAll(/\?reference=(TX-[A-Z0-9-]+)"/g)].map((match) => match[1]),
    }));
}

const references = (ids: number[]) => ids.map(transactionReference);

/**
 * The acceptance run's client: three small pending deposits ($1,200, $800, $250), then three just under the
 * threshold ($9,100, $9,300, $9,600) over the next days; each judged as it is made.
 */
async function smallThenJustUnder(judgeEach = true) {
  const pat = await client();
  const small = [
    await request(pat.id, "deposit", 1_200_00, 5 * DAY),
    await request(pat.id, "deposit", 800_00, 4 * DAY),
    await request(pat.id, "deposit", 250_00, 3 * DAY),
  ];
  const justUnder = [
    await request(pat.id, "deposit", 9_100_00, DAY + 2 * HOUR),
    await request(pat.id, "deposit", 9_300_00, 12 * HOUR),
    await request(pat.id, "deposit", 9_600_00, 0),
  ];
  if (judgeEach) for (const id of [...small, ...justUnder]) await judge(id);
  return { pat, small, justUnder };
}

const GROWN_WORDS =
  "3 deposits just under $10,000.00 (between $9,100.00 and $9,600.00) totalling $28,000.00, " +
  "among 6 deposits in 5 days totalling $30,250.00";

describe("structuring behind earlier small requests", () => {
  it("opens on $9,100 with the deposit just under the threshold named, then grows with $9,300 and $9,600", async () => {
    const pat = await client();
    const small = [
      await request(pat.id, "deposit", 1_200_00, 5 * DAY),
      await request(pat.id, "deposit", 800_00, 4 * DAY),
      await request(pat.id, "deposit", 250_00, 3 * DAY),
    ];
    for (const id of small) await judge(id);
    expect(await queueRowsOf(pat.id)).toEqual([]);

    const first = await request(pat.id, "deposit", 9_100_00, DAY + 2 * HOUR);
    await judge(first);
    expect(await queueRowsOf(pat.id)).toEqual([
      {
        rule: "Structuring",
        words: "1 deposit just under $10,000.00 ($9,100.00), among 4 deposits in 4 days totalling $11,350.00",
        references: references([...small, first]),
      },
    ]);

    const later = [
      await request(pat.id, "deposit", 9_300_00, 12 * HOUR),
      await request(pat.id, "deposit", 9_600_00, 0),
    ];
    for (const id of later) await judge(id);
    expect(await queueRowsOf(pat.id)).toEqual([
      { rule: "Structuring", words: GROWN_WORDS, references: references([...small, first, ...later]) },
    ]);
    // One open alert for the rule, grown: still the one $9,100 opened.
    const alert = await theAlert(pat.id, "structuring");
    expect(alert.triggerId).toBe(first);
    expect(alert.status).toBe("open");
  });

  it("reads the same when one run judges all six at once, and judging again changes nothing", async () => {
    const { pat, small, justUnder } = await smallThenJustUnder(false);
    expect(await evaluateRules(db, appEnv, { from: T - 6 * DAY, to: T }, T)).toBeGreaterThan(0);
    const expected = [{ rule: "Structuring", words: GROWN_WORDS, references: references([...small, ...justUnder]) }];
    expect(await queueRowsOf(pat.id)).toEqual(expected);

    const before = await alertsOf(pat.id);
    for (const id of [...small, ...justUnder]) expect(await judge(id, T + HOUR)).toBe(0);
    await Promise.all(justUnder.map((id) => judge(id, T + 2 * HOUR)));
    expect(await evaluateRules(db, appEnv, { from: T - 6 * DAY, to: T }, T + 3 * HOUR)).toBe(0);
    expect(await alertsOf(pat.id)).toEqual(before);
    expect(await queueRowsOf(pat.id)).toEqual(expected);
  });

  it("a pattern that starts again while the alert is open joins it instead of opening a second one", async () => {
    const pat = await client();
    const early = [];
    for (const ago of [20 * DAY, 19 * DAY, 18 * DAY]) early.push(await request(pat.id, "deposit", 9_000_00, ago));
    const late = [];
    for (const ago of [2 * DAY, DAY, 0]) late.push(await request(pat.id, "deposit", 9_000_00, ago));
    for (const id of [...early, ...late]) await judge(id);

    expect(await queueRowsOf(pat.id)).toEqual([
      {
        rule: "Structuring",
        words: "6 deposits in 20 days, each between $9,000.00 and $9,000.00 (just under $10,000.00)",
        references: references([...early, ...late]),
      },
    ]);
  });

  it("a decided alert keeps the requests it was decided on", async () => {
    const pat = await client();
    const ids = [];
    for (const ago of [3 * DAY, 2 * DAY, DAY]) ids.push(await request(pat.id, "deposit", 9_000_00, ago));
    for (const id of ids) await judge(id);
    await db.$client
      .prepare(
        "UPDATE monitoring_alerts SET status = 'dismissed', disposed_by = ?, disposed_at = ?, disposition_note = 'Known' WHERE user_id = ?",
      )
      .bind(pat.id, T, pat.id)
      .run();

    await judge(await request(pat.id, "deposit", 9_500_00, 0), T + HOUR);
    const alert = await theAlert(pat.id, "structuring");
    expect(alert.status).toBe("dismissed");
    expect(alert.detail.transactionIds).toEqual(ids);
  });
});

describe("deciding an alert that grows", () => {
  it("refuses a decision taken on fewer requests than the alert now lists, and takes the one on all of them", async () => {
    const { pat } = await smallThenJustUnder();
    const alert = await db.$client
      .prepare("SELECT id FROM monitoring_alerts WHERE user_id = ? AND rule = 'structuring'")
      .bind(pat.id)
      .first<{ id: number }>();
    const id = String(alert?.id);
    const page = await (await getPage("/admin/alerts", officerCookie)).text();
    // Each of the alert's row's decision forms says which alert it decides and that it was taken on the six listed.
    const [row = ""] = elementsWith(page, "data-alert", id);
    const decisions = elementsWith(row, "method", "post");
    expect(decisions).toHaveLength(3);
    for (const form of decisions) expect([fieldValue(form, "alertId"), fieldValue(form, "listed")]).toEqual([id, "6"]);

    const dismiss = (listed: string) =>
      postForm("/admin/alerts", { intent: "dismiss", alertId: id, listed, reason: "Known" }, { cookie: officerCookie });
    const stale = await dismiss("4");
    expect(stale.status).toBe(409);
    expect(alerts(await stale.text())).toContain(ALERT_MESSAGES.grown);
    expect((await theAlert(pat.id, "structuring")).status).toBe("open");

    expect((await dismiss("6")).status).toBe(200);
    expect((await theAlert(pat.id, "structuring")).status).toBe("dismissed");
  });
});

describe("velocity grows the same way", () => {
  it("lists every request of a busy day and a half in its one open alert", async () => {
    const busy = await client();
    const ids = [];
    // One request every 3 hours for 36 hours: from the sixth on, each has more than 5 in its 24 hours.
    for (let i = 12; i >= 0; i--) ids.push(await request(busy.id, "deposit", 100_00, i * 3 * HOUR));
    for (const id of ids) await judge(id);

    expect(await queueRowsOf(busy.id)).toEqual([
      {
        rule: "Velocity",
        words: "13 requests in 2 days (more than 5 within 24 hours)",
        references: references(ids),
      },
    ]);
    expect((await theAlert(busy.id, "velocity")).triggerId).toBe(ids[5]);
  });
});

describe("the desk is told when an alert grows", () => {
  it("a client's real $9,300 deposit after the alert opened sends alerts.changed", async () => {
    const pat = await fundedClient(100_00);
    const deposit = async (amount: string) => {
      const response = await postForm(
        "/deposit",
        { amount, walletType: "BTC", idempotencyKey: crypto.randomUUID() },
        { cookie: pat.cookie },
      );
      expect(response.status).toBe(302);
    };
    const listed = async () => (await alertsOf(pat.id, "structuring"))[0]?.detail.transactionIds.length ?? 0;
    const waitFor = async (count: number) => {
      for (let i = 0; i < 100 && (await listed()) < count; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await listed()).toBe(count);
    };

    for (const amount of ["1200.00", "800.00", "250.00", "9100.00"]) await deposit(amount);
    await waitFor(4);

    const desk = await listen("/ws/admin", officerCookie);
    expect(desk.status).toBe(101);
    await deposit("9300.00");
    await waitFor(5);
    await until(() => desk.events.some((event) => event.type === "alerts.changed"), "alerts.changed");
    desk.socket?.close();
    expect(await alertsOf(pat.id, "structuring")).toHaveLength(1);
  });
});
