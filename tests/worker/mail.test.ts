import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MESSAGES, type RegistrationInput } from "~/lib/schemas/auth";
import { registerClient } from "~/server/auth/registration.server";
import { schema } from "~/server/db.server";
import {
  deliverDueEmails,
  deliverEmail,
  enqueueEmail,
  MAX_RETRY_DELAY_MS,
  RETRY_BASE_MS,
  RETRY_WINDOW_MS,
} from "~/server/mail/outbox.server";
import { renderEmail } from "~/server/mail/templates.server";
import worker from "../../workers/app";
import { appEnv, countRows, db, ORIGIN, registrationFields } from "../support/fixtures";
import { cardTitled, elementsWith, heading } from "../support/places";

const { emailOutbox } = schema;
const TOKEN = env.MAIL_API_TOKEN;
const withResend = { ...appEnv, RESEND_API_KEY: "re_test_key" };

const validBodies = {
  "/api/send-welcome-email": { to: "new.client@example.com", name: "Jamie" },
  "/api/send-deposit-email": {
    to: "desk@example.com",
    name: "Jamie",
    amount: 2500,
    wallet_type: "BTC",
    wallet_address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
    stock: "AAPL",
  },
  "/api/send-withdrawal-email": {
    to: "desk@example.com",
    name: "Jamie",
    amount: 80,
    wallet_type: "ETH",
    wallet_address: "0x000000000000000000000000000000000000dEaD",
  },
} as const;
type Endpoint = keyof typeof validBodies;
const endpoints = Object.keys(validBodies) as Endpoint[];

function post(path: string, body: unknown, token: string | null = TOKEN) {
  return exports.default.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token === null ? {} : { Authorization: `Bearer ${token}` }) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function outboxCount() {
  const row = await db.select({ n: sql<number>`count(*)` }).from(emailOutbox).get();
  return row?.n ?? 0;
}

/** A stand-in for the mail provider's HTTP API: records each request, answers as told. */
function fakeResend(answer: (call: number) => Response | Error) {
  const calls: Array<{ url: string; headers: Headers; body: Record<string, unknown> }> = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init as RequestInit);
    calls.push({ url: request.url, headers: request.headers, body: await request.json() });
    const result = answer(calls.length);
    if (result instanceof Error) throw result;
    return result;
  });
  return calls;
}
const accepted = (id: string) => Response.json({ id }, { status: 200 });
// Error bodies as the provider's API sends them.
const outage = () =>
  Response.json({ statusCode: 503, name: "internal_server_error", message: "Service unavailable" }, { status: 503 });
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Tests that run the cron through hours of simulated time: seconds of real time on a busy machine. */
const SIMULATION_TIMEOUT_MS = 30_000;

/**
 * The cron, every minute from `from` until `until`, leaving out the minutes in which no row is due (a run
 * then does nothing). Returns the minute after the last run.
 */
async function runCron(env: typeof withResend, from: number, until: number) {
  let now = from;
  while (now < until) {
    await deliverDueEmails(db, env, now);
    const next = await db
      .select({ at: sql<number | null>`min(${emailOutbox.nextAttemptAt})` })
      .from(emailOutbox)
      .where(eq(emailOutbox.status, "pending"))
      .get();
    const due = next?.at ?? until;
    now = Math.max(now + MINUTE, from + Math.ceil((due - from) / MINUTE) * MINUTE);
  }
  return now;
}

async function rowOf(id: number) {
  const row = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).get();
  if (!row) throw new Error(`no outbox row ${id}`);
  return row;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("mail endpoints", () => {
  it.each(endpoints)("%s answers 401 without a token or with a wrong one, and stores nothing", async (path) => {
    const before = await outboxCount();
    for (const token of [null, "wrong-token-0123456789", `${TOKEN}x`]) {
      const response = await post(path, validBodies[path], token);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: "Unauthorized" });
    }
    const basic = await exports.default.fetch(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { Authorization: `Basic ${btoa(`user:${TOKEN}`)}` },
      body: JSON.stringify(validBodies[path]),
    });
    expect(basic.status).toBe(401);
    expect(await outboxCount()).toBe(before);
  });

  it.each(endpoints)("%s answers 202 with the outbox row for a good payload", async (path) => {
    const before = await outboxCount();
    const response = await post(path, validBodies[path]);
    expect(response.status).toBe(202);
    const body = (await response.json()) as { id: number; status: string };
    expect(body).toEqual({ id: expect.any(Number), status: "pending" });
    expect(await outboxCount()).toBe(before + 1);
    const row = await db.select().from(emailOutbox).where(eq(emailOutbox.id, body.id)).get();
    expect(row?.toAddress).toBe(validBodies[path].to);
  });

  const badFields: Array<[Endpoint, Record<string, unknown> | string, RegExp]> = [
    ["/api/send-welcome-email", "not json", /Request body must be JSON/],
    ["/api/send-welcome-email", { name: "Jamie" }, /^to: /],
    ["/api/send-welcome-email", { to: "not-an-address", name: "Jamie" }, /^to: must be a valid e-mail address/],
    ["/api/send-welcome-email", { to: "a@example.com" }, /^name: is required/],
    ["/api/send-welcome-email", { to: "a@example.com", name: "J", bcc: "x@example.com" }, /Unknown field: bcc/],
    [
      "/api/send-deposit-email",
      { ...validBodies["/api/send-deposit-email"], amount: -5 },
      /^amount: must be greater than 0/,
    ],
    [
      "/api/send-deposit-email",
      { ...validBodies["/api/send-deposit-email"], amount: "25" },
      /^amount: must be a number/,
    ],
    [
      "/api/send-deposit-email",
      { ...validBodies["/api/send-deposit-email"], wallet_type: "" },
      /^wallet_type: is required/,
    ],
    [
      "/api/send-deposit-email",
      { ...validBodies["/api/send-deposit-email"], wallet_address: " " },
      /^wallet_address: is required/,
    ],
    ["/api/send-deposit-email", { ...validBodies["/api/send-deposit-email"], stock: "" }, /^stock: must not be empty/],
    ["/api/send-withdrawal-email", { ...validBodies["/api/send-withdrawal-email"], to: "desk" }, /^to: /],
    [
      "/api/send-withdrawal-email",
      { ...validBodies["/api/send-withdrawal-email"], amount: 0 },
      /^amount: must be greater than 0/,
    ],
    [
      "/api/send-withdrawal-email",
      { ...validBodies["/api/send-withdrawal-email"], stock: "AAPL" },
      /Unknown field: stock/,
    ],
  ];

  it.each(badFields)("%s refuses %j with 400 naming the field", async (path, body, message) => {
    const before = await outboxCount();
    const response = await post(path, body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(message);
    expect(await outboxCount()).toBe(before);
  });

  it("delivers in the background: without RESEND_API_KEY the mail is captured for the local mailbox", async () => {
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request(`${ORIGIN}/api/send-welcome-email`, {
        method: "POST",
        headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
        body: JSON.stringify(validBodies["/api/send-welcome-email"]),
      }),
      env,
      ctx,
    );
    const { id } = (await response.json()) as { id: number };
    await waitOnExecutionContext(ctx);
    const row = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).get();
    expect(row).toMatchObject({ status: "captured", attempts: 0, providerId: null });
  });
});

describe("outbox delivery through the provider", () => {
  async function enqueueDeposit() {
    const [row] = await db.batch([
      enqueueEmail(db, {
        to: appEnv.ADMIN_MAILBOX,
        template: "deposit_request",
        data: { name: "Jamie", amount: 2500, walletType: "BTC", walletAddress: "bc1qtest", stock: "AAPL" },
      }),
    ]);
    const id = row[0]?.id;
    if (!id) throw new Error("no outbox row");
    return id;
  }

  it("sends from/to/subject with the row id as idempotency key and marks the row sent", async () => {
    const id = await enqueueDeposit();
    const calls = fakeResend(() => accepted("re_msg_1"));
    expect(await deliverEmail(db, withResend, id)).toBe("sent");

    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.url).toBe("https://api.resend.com/emails");
    expect(call?.headers.get("Authorization")).toBe("Bearer re_test_key");
    expect(call?.headers.get("Idempotency-Key")).toBe(`outbox-${id}`);
    expect(call?.body).toMatchObject({
      from: `${appEnv.BRAND_NAME} <${appEnv.MAIL_FROM}>`,
      to: [appEnv.ADMIN_MAILBOX],
      subject: "New stock deposit request: AAPL",
    });
    expect(String(call?.body.html)).toContain("$2,500.00");
    expect(String(call?.body.text)).toContain("Stock: AAPL");
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).get()).toMatchObject({
      status: "sent",
      providerId: "re_msg_1",
      attempts: 1,
      lastError: null,
    });
  });

  it("keeps the row through an outage, backs off, and delivers exactly once when the provider returns", async () => {
    const id = await enqueueDeposit();
    const start = Date.now();
    let providerUp = false;
    const calls = fakeResend(() => (providerUp ? accepted("re_after_outage") : outage()));

    expect(await deliverEmail(db, withResend, id, start)).toBe("retry");
    let row = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).get();
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row?.lastError).toMatch(/503/);
    expect(row?.nextAttemptAt).toBe(start + RETRY_BASE_MS);

    // A network error is an outage too; the next wait doubles.
    vi.restoreAllMocks();
    fakeResend(() => new TypeError("Network connection lost"));
    const second = start + RETRY_BASE_MS;
    expect(await deliverEmail(db, withResend, id, second)).toBe("retry");
    row = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).get();
    expect(row).toMatchObject({ status: "pending", attempts: 2 });
    expect(row?.nextAttemptAt).toBe(second + 2 * RETRY_BASE_MS);

    // Not due yet: the cron leaves it alone.
    vi.restoreAllMocks();
    const retried = fakeResend(() => (providerUp ? accepted("re_after_outage") : outage()));
    expect(await deliverDueEmails(db, withResend, second + RETRY_BASE_MS)).toEqual({
      sent: 0,
      captured: 0,
      retry: 0,
      held: 0,
      failed: 0,
    });
    expect(retried).toHaveLength(0);

    providerUp = true;
    const due = second + 2 * RETRY_BASE_MS;
    expect((await deliverDueEmails(db, withResend, due)).sent).toBe(1);
    expect((await deliverDueEmails(db, withResend, due + 10 * RETRY_BASE_MS)).sent).toBe(0);
    expect(retried).toHaveLength(1);
    expect(calls.length).toBe(1);
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).get()).toMatchObject({
      status: "sent",
      providerId: "re_after_outage",
      attempts: 3,
    });
  });

  it(
    "retries a 6-hour outage and then delivers every row exactly once",
    async () => {
      const ids = [await enqueueDeposit(), await enqueueDeposit(), await enqueueDeposit(), await enqueueDeposit()];
      const start = Date.now();
      // Notices keep coming during the outage: one at its start, then one every 90 minutes.
      for (const [i, id] of ids.entries()) {
        const queued = start + i * 90 * MINUTE;
        await db.update(emailOutbox).set({ createdAt: queued, nextAttemptAt: queued }).where(eq(emailOutbox.id, id));
      }
      let providerUp = false;
      const calls = fakeResend((n) => (providerUp ? accepted(`re_recovered_${n}`) : outage()));

      // The cron runs every minute through six hours of outage.
      let now = await runCron(withResend, start, start + 6 * HOUR);
      for (const id of ids) expect((await rowOf(id)).status).toBe("pending");
      // The first notice was tried at 0, 1, 3, 7, 15, 31, 63 minutes, then every hour: 11 times in 6 hours.
      expect(await rowOf(ids[0] as number)).toMatchObject({ attempts: 11, failedAt: null });
      expect((await rowOf(ids[0] as number)).lastError).toMatch(/^503: /);

      // Back up: within the longest wait (an hour) every notice has gone out, once.
      providerUp = true;
      const outageCalls = calls.length;
      now = await runCron(withResend, now, now + MAX_RETRY_DELAY_MS + MINUTE);
      for (const id of ids) {
        expect(await rowOf(id)).toMatchObject({ status: "sent", lastError: null, failedAt: null });
        const sends = calls.slice(outageCalls).filter((call) => call.headers.get("Idempotency-Key") === `outbox-${id}`);
        expect(sends).toHaveLength(1);
      }
    },
    SIMULATION_TIMEOUT_MS,
  );

  it(
    "fails a row only when a try fails 72 hours after it was queued, keeping its attempts and last error",
    async () => {
      const id = await enqueueDeposit();
      const { createdAt } = await rowOf(id);
      fakeResend(() => outage());
      const waits: number[] = [];
      let now = createdAt;
      for (;;) {
        const outcome = await deliverEmail(db, withResend, id, now);
        if (outcome !== "retry") {
          expect(outcome).toBe("failed");
          break;
        }
        const row = await rowOf(id);
        expect(row.status).toBe("pending");
        waits.push((row.nextAttemptAt - now) / MINUTE);
        now = row.nextAttemptAt;
      }
      // 1, 2, 4 … 32 minutes, then hourly, the last wait cut short so that the last try falls on the 72nd hour.
      expect(waits).toEqual([1, 2, 4, 8, 16, 32, ...Array(70).fill(60), 57]);
      expect(now).toBe(createdAt + RETRY_WINDOW_MS);
      expect(await rowOf(id)).toMatchObject({
        status: "failed",
        attempts: 78,
        failedAt: createdAt + RETRY_WINDOW_MS,
        lastError: expect.stringMatching(/^503: Service unavailable/),
      });
      expect(await deliverEmail(db, withResend, id, now + HOUR)).toBeNull();
    },
    SIMULATION_TIMEOUT_MS,
  );

  it.each([
    [401, "restricted_api_key", "This API key is restricted to only send emails."],
    [403, "invalid_api_key", "API key is invalid"],
  ])(
    "holds the queue on a %i (our key refused): no attempt counted, nothing failed, one probe a run, then resumes",
    async (status, name, message) => {
      const loud = vi.spyOn(console, "error").mockImplementation(() => {});
      const ids = [await enqueueDeposit(), await enqueueDeposit(), await enqueueDeposit()];
      const inBackoff = ids[2] as number;
      await db.update(emailOutbox).set({ attempts: 3 }).where(eq(emailOutbox.id, inBackoff));
      let keyWorks = false;
      const calls = fakeResend(() =>
        keyWorks ? accepted("re_key_fixed") : Response.json({ statusCode: status, name, message }, { status }),
      );
      const start = Date.now();

      // Delivery right after the action is held too.
      expect(await deliverEmail(db, withResend, ids[0] as number, start)).toBe("held");
      expect(loud).toHaveBeenCalledWith(expect.stringMatching(/MAIL PROVIDER REFUSED OUR API KEY/));
      expect((await rowOf(ids[0] as number)).lastError).toBe(`${status}: ${message}`);

      // The cron probes with one notice a run, for longer than the retry window: nothing fails, no attempt counts.
      for (let now = start; now <= start + RETRY_WINDOW_MS + 6 * HOUR; now += HOUR) {
        const before = calls.length;
        expect(await deliverDueEmails(db, withResend, now)).toMatchObject({ held: 1, sent: 0, retry: 0, failed: 0 });
        expect(calls.length - before).toBe(1);
      }
      for (const id of ids) {
        expect(await rowOf(id)).toMatchObject({
          status: "pending",
          attempts: id === inBackoff ? 3 : 0,
          failedAt: null,
        });
      }

      // The key is fixed: the next run's probe goes through and takes every held notice with it.
      keyWorks = true;
      const outcomes = await deliverDueEmails(db, withResend, start + RETRY_WINDOW_MS + 7 * HOUR);
      expect(outcomes).toMatchObject({ held: 0, failed: 0 });
      expect(outcomes.sent).toBeGreaterThanOrEqual(ids.length);
      for (const id of ids) {
        expect(await rowOf(id)).toMatchObject({
          status: "sent",
          attempts: id === inBackoff ? 4 : 1,
          lastError: null,
          providerId: "re_key_fixed",
        });
      }
    },
    SIMULATION_TIMEOUT_MS,
  );

  it("fails at once a stored notice that no longer renders, without calling the provider", async () => {
    const row = await db
      .insert(emailOutbox)
      .values({ toAddress: "broken@example.com", template: "password_reset", payload: { name: "A" } })
      .returning({ id: emailOutbox.id })
      .get();
    const calls = fakeResend(() => accepted("re_never"));
    expect(await deliverEmail(db, withResend, row.id)).toBe("failed");
    expect(calls).toHaveLength(0);
    expect(await rowOf(row.id)).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: "render: resetUrl: Invalid input: expected string, received undefined",
    });
  });

  it("gives up at once on a message the provider refuses as malformed", async () => {
    const id = await enqueueDeposit();
    fakeResend(() =>
      Response.json({ statusCode: 422, name: "validation_error", message: "Invalid `to` field" }, { status: 422 }),
    );
    const now = Date.now();
    expect(await deliverEmail(db, withResend, id, now)).toBe("failed");
    expect(await rowOf(id)).toMatchObject({
      status: "failed",
      attempts: 1,
      failedAt: now,
      lastError: expect.stringMatching(/422: Invalid `to` field/),
    });
  });

  it("runs from the cron trigger", async () => {
    const id = await enqueueDeposit();
    const calls = fakeResend(() => accepted("re_cron"));
    const ctx = createExecutionContext();
    await worker.scheduled(
      createScheduledController({ cron: "* * * * *" }),
      { ...env, RESEND_API_KEY: "re_test_key" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(calls.some((call) => call.headers.get("Idempotency-Key") === `outbox-${id}`)).toBe(true);
    expect((await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).get())?.status).toBe("sent");
  });
});

describe("a notice and the action that caused it", () => {
  it("are stored together or not at all: two sign-ups of one address at once leave one account, one welcome mail", async () => {
    const email = `same-time-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const input: RegistrationInput = { ...registrationFields({ email }), terms: true };
    // Started in the same tick, both find the address free; the unique index then refuses the second batch,
    // welcome mail included.
    const outcomes = await Promise.all([
      registerClient({ db, env: appEnv }, input, ORIGIN),
      registerClient({ db, env: appEnv }, input, ORIGIN),
    ]);
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.find((outcome) => !outcome.ok)).toEqual({
      ok: false,
      error: MESSAGES.emailTaken,
      status: 409,
      field: "email",
    });
    expect(await countRows("users", "email = ?", email)).toBe(1);
    expect(await countRows("email_outbox", "to_address = ? AND template = 'welcome'", email)).toBe(1);
  });
});

describe("templates", () => {
  it("escape every interpolated value in the HTML", () => {
    const hostile = `<script>alert("x")</script>`;
    const mail = renderEmail(
      "deposit_request",
      { name: hostile, amount: 10, walletType: "<b>BTC</b>", walletAddress: `" onmouseover="x` },
      appEnv,
    );
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(mail.html).toContain("&lt;b&gt;BTC&lt;/b&gt;");
    expect(mail.html).not.toContain(`" onmouseover="x`);
    expect(mail.text).toContain(hostile);
  });

  it("say 'User' when the deposit notice has no name", () => {
    const mail = renderEmail(
      "deposit_request",
      { name: "", amount: 1, walletType: "BTC", walletAddress: "bc1q" },
      appEnv,
    );
    expect(mail.text).toContain("User submitted a deposit request");
  });

  it("refuse to enqueue a reset mail without a valid link", () => {
    expect(() =>
      enqueueEmail(db, {
        to: "a@example.com",
        template: "password_reset",
        data: { name: "A", resetUrl: "javascript:alert(1)" },
      }),
    ).toThrow();
  });
});

/** The Worker in a given environment, as a request to it from `url` with these headers arrives. */
async function mailbox(url: string, environment: string, headers: Record<string, string> = {}) {
  const ctx = createExecutionContext();
  const production =
    environment === "production" ? { PASSWORD_HASH_COST: "standard", SITE_URL: "https://portal.example" } : {};
  const response = await worker.fetch(
    new Request(url, { headers }),
    { ...env, ENVIRONMENT: environment, ...production },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

describe("/dev/mailbox", () => {
  it("lists captured mail newest first, with clickable links", async () => {
    await db.batch([
      enqueueEmail(db, { to: "first@example.com", template: "welcome", data: { name: "First" } }),
      enqueueEmail(db, {
        to: "second@example.com",
        template: "password_reset",
        data: { name: "Second", resetUrl: `${ORIGIN}/reset-password?token=abc123` },
      }),
    ]);
    await deliverDueEmails(db, appEnv);
    const response = await mailbox(`${ORIGIN}/dev/mailbox`, "development");
    expect(response.status).toBe(200);
    const html = await response.text();
    const reset = html.indexOf(`Reset your ${appEnv.BRAND_NAME} password`);
    const welcome = html.indexOf(`Welcome to ${appEnv.BRAND_NAME}`);
    expect(reset).toBeGreaterThan(-1);
    expect(welcome).toBeGreaterThan(reset);
    const resetMail = cardTitled(html, `Reset your ${appEnv.BRAND_NAME} password`);
    expect(resetMail).toContain("captured ·");
    expect(elementsWith(html, "href", `${ORIGIN}/reset-password?token=abc123`)).toHaveLength(1);
  });

  it("does not exist in production", async () => {
    const response = await mailbox(`${ORIGIN}/dev/mailbox`, "production");
    expect(response.status).toBe(404);
    expect(heading(await response.text())).toBe("Page not found");
  });

  it.each([
    ["in test mode", `${ORIGIN}/dev/mailbox`, "test", {}],
    ["for another host name", "http://dev.example/dev/mailbox", "development", {}],
    ["from another machine", `${ORIGIN}/dev/mailbox`, "development", { "CF-Connecting-IP": "203.0.113.9" }],
    ["from a private network", "http://127.0.0.1/dev/mailbox", "development", { "CF-Connecting-IP": "192.168.1.20" }],
  ] as const)("does not exist %s", async (_case, url, environment, headers) => {
    const response = await mailbox(url, environment, headers);
    expect(response.status).toBe(404);
    expect(heading(await response.text())).toBe("Page not found");
  });

  it("answers development from this machine, by IPv4 or IPv6", async () => {
    for (const url of ["http://127.0.0.1/dev/mailbox", "http://[::1]/dev/mailbox"]) {
      const response = await mailbox(url, "development", { "CF-Connecting-IP": "127.0.0.1" });
      expect(response.status).toBe(200);
      await response.body?.cancel();
    }
  });
});
