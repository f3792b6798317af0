import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MESSAGES } from "~/lib/schemas/auth";
import { readAppEnv } from "~/server/env.server";
import { SITEVERIFY_URL } from "~/server/turnstile.server";
import worker from "../../workers/app";
import {
  countRows,
  createUser,
  ORIGIN,
  postForm,
  registrationFields,
  TEST_PASSWORD,
  totpCode,
} from "../support/fixtures";
import { alerts, fieldError, scripts, statuses } from "../support/places";
import { secondStep } from "../support/two-factor";

/**
 * Turnstile with a real secret. The test bindings carry Cloudflare's always-pass test keys, with which the
 * server never calls siteverify; these tests run the whole Worker with a copy of the bindings that holds
 * real-looking keys instead, and siteverify is a stand-in at the fetch level.
 */
const REAL_KEYS = {
  TURNSTILE_SITE_KEY: "0x4AAAAAAADnPIDROrmt1Wwj",
  TURNSTILE_SECRET_KEY: "0x4AAAAAAADnPIDROrmt1Wwj-real-looking-secret",
};
const withRealKeys = { ...env, ...REAL_KEYS };
const HOST = new URL(ORIGIN).hostname;
const TOKEN_FIELD = "cf-turnstile-response";

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * A form POST through the Worker with the given bindings, background work included. Without the browser's
 * origin headers: the cross-site checks have their own tests, and these are about the security check.
 */
async function send(
  path: string,
  fields: Record<string, string>,
  { ip = "203.0.113.20", bindings = withRealKeys }: { ip?: string; bindings?: typeof env } = {},
) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": ip },
      body: new URLSearchParams(fields).toString(),
    }),
    bindings,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

async function page(path: string, { ip = "203.0.113.20", bindings = withRealKeys as typeof env } = {}) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${ORIGIN}${path}`, { headers: { "CF-Connecting-IP": ip } }),
    bindings,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { response, html: await response.text() };
}

interface SiteverifyAnswer {
  success: boolean;
  "error-codes": string[];
  hostname?: string;
  action?: string;
  challenge_ts?: string;
}
type SiteverifyCall = Record<string, string>;

/** A stand-in for siteverify: records each request's fields, answers as told (or fails, for an Error). */
function fakeSiteverify(answer: (call: SiteverifyCall, n: number) => SiteverifyAnswer | Response | Error) {
  const calls: SiteverifyCall[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init as RequestInit);
    if (request.url !== SITEVERIFY_URL) throw new Error(`unexpected fetch of ${request.url}`);
    const call = (await request.json()) as SiteverifyCall;
    calls.push(call);
    const result = answer(call, calls.length);
    if (result instanceof Error) throw result;
    return result instanceof Response ? result : Response.json(result);
  });
  return calls;
}

/** What siteverify says about a good token solved on our page for this form. */
const solved = (action: string, hostname = HOST): SiteverifyAnswer => ({
  success: true,
  "error-codes": [],
  challenge_ts: new Date().toISOString(),
  hostname,
  action,
});
const refused = (...codes: string[]): SiteverifyAnswer => ({ success: false, "error-codes": codes });

const token = () => `0.${crypto.randomUUID()}${crypto.randomUUID()}`;
let people = 0;
const registration = (extra: Record<string, string> = {}) =>
  registrationFields({ email: `turnstile${++people}-${crypto.randomUUID().slice(0, 8)}@example.com`, ...extra });

/** The rows a refused form must leave as they were. */
const tableCounts = () =>
  Promise.all(["users", "profiles", "email_outbox", "sessions", "auth_tokens"].map((table) => countRows(table)));

describe("registration with a real secret", () => {
  it("refuses a form without a token and does nothing else: no siteverify call, no rows", async () => {
    const calls = fakeSiteverify(() => solved("register"));
    const before = await tableCounts();
    const response = await send("/register", registration());
    expect(response.status).toBe(403);
    expect(alerts(await response.text())).toContain(MESSAGES.challengeRequired);
    expect(calls).toEqual([]);
    expect(await tableCounts()).toEqual(before);
  });

  it("accepts a token siteverify passes, sending it the secret, the token, the address and an idempotency key", async () => {
    const calls = fakeSiteverify(() => solved("register"));
    const solvedToken = token();
    const response = await send("/register", registration({ [TOKEN_FIELD]: solvedToken }), { ip: "203.0.113.21" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect(calls).toEqual([
      {
        secret: REAL_KEYS.TURNSTILE_SECRET_KEY,
        response: solvedToken,
        remoteip: "203.0.113.21",
        idempotency_key: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    ]);
  });

  const failures: Array<[string, SiteverifyAnswer]> = [
    ["a token siteverify fails", refused("invalid-input-response")],
    ["a replayed token (siteverify: timeout-or-duplicate)", refused("timeout-or-duplicate")],
    ["a token solved on another site", solved("register", "evil.example")],
    ["a token solved for another form", solved("login")],
    ["an answer without a hostname or action", { success: true, "error-codes": [] }],
  ];
  it.each(failures)("refuses %s and writes nothing", async (_name, answer) => {
    const calls = fakeSiteverify(() => answer);
    const before = await tableCounts();
    const response = await send("/register", registration({ [TOKEN_FIELD]: token() }));
    expect(response.status).toBe(403);
    expect(alerts(await response.text())).toContain(MESSAGES.challengeRequired);
    expect(calls).toHaveLength(1);
    expect(await tableCounts()).toEqual(before);
  });

  it("takes a token once: the second use is refused without asking siteverify again", async () => {
    const calls = fakeSiteverify(() => solved("register"));
    const once = token();
    expect((await send("/register", registration({ [TOKEN_FIELD]: once }))).status).toBe(302);
    const again = await send("/register", registration({ [TOKEN_FIELD]: once }));
    expect(again.status).toBe(403);
    expect(calls).toHaveLength(1);
  });

  it("refuses when siteverify cannot be reached, after one retry with the same idempotency key", async () => {
    const calls = fakeSiteverify(() => new TypeError("Network connection lost."));
    vi.spyOn(console, "error").mockImplementation(() => {});
    const before = await tableCounts();
    const response = await send("/register", registration({ [TOKEN_FIELD]: token() }));
    expect(response.status).toBe(403);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.idempotency_key).toBe(calls[0]?.idempotency_key);
    expect(await tableCounts()).toEqual(before);
  });

  it("checks the fields first: a refused field costs no token", async () => {
    const calls = fakeSiteverify(() => solved("register"));
    const response = await send("/register", registration({ confirmPassword: "other", [TOKEN_FIELD]: token() }));
    expect(response.status).toBe(400);
    expect(fieldError(await response.text(), "confirmPassword")).toBe(MESSAGES.passwordsDoNotMatch);
    expect(calls).toEqual([]);
  });
});

describe("forgot password with a real secret", () => {
  it("mails nothing without a passing token", async () => {
    const client = await createUser();
    const calls = fakeSiteverify(() => refused("invalid-input-response"));
    const mails = () => countRows("email_outbox", "to_address = ?", client.email);
    const missing = await send("/forgot-password", { email: client.email });
    expect(missing.status).toBe(403);
    expect(alerts(await missing.text())).toContain(MESSAGES.challengeRequired);
    const failed = await send("/forgot-password", { email: client.email, [TOKEN_FIELD]: token() });
    expect(failed.status).toBe(403);
    expect(calls).toHaveLength(1);
    expect(await mails()).toBe(0);
  });

  it("sends the link with a passing token", async () => {
    const client = await createUser();
    fakeSiteverify(() => solved("forgot-password"));
    const response = await send("/forgot-password", { email: client.email, [TOKEN_FIELD]: token() });
    expect(response.status).toBe(200);
    expect(statuses(await response.text())).toContain(MESSAGES.resetEmailSent);
    expect(await countRows("email_outbox", "to_address = ?", client.email)).toBe(1);
  });
});

describe("sign-in with a real secret", () => {
  const signIn = (email: string, password: string, ip: string, challenge?: string) =>
    send("/login", { email, password, redirectTo: "", ...(challenge ? { [TOKEN_FIELD]: challenge } : {}) }, { ip });
  const sessionsOf = (userId: string) => countRows("sessions", "user_id = ?", userId);

  /** Wrong passwords for the account, each from another address (the addresses stay under their budgets). */
  async function attack(email: string, times: number, network: string) {
    for (let i = 0; i < times; i++) expect((await signIn(email, `wrong-${i}`, `${network}.${i}`)).status).toBe(401);
  }

  it("asks the owner of an account under attack for the check instead of locking them out", async () => {
    const owner = await createUser();
    const calls = fakeSiteverify(() => solved("login"));
    await attack(owner.email, 10, "198.51.100");
    expect(calls).toEqual([]);

    // Without a token the password is not even looked at: right and wrong get the same answer.
    const right = await signIn(owner.email, TEST_PASSWORD, "192.0.2.10");
    const wrong = await signIn(owner.email, "still wrong", "192.0.2.11");
    for (const response of [right, wrong]) {
      expect(response.status).toBe(403);
      expect(alerts(await response.text())).toContain(MESSAGES.challengeRequired);
    }
    expect(calls).toEqual([]);
    expect(await sessionsOf(owner.id)).toBe(0);

    const passed = await signIn(owner.email, TEST_PASSWORD, "192.0.2.10", token());
    expect(passed.status).toBe(302);
    expect(passed.headers.get("Location")).toBe("/dashboard");
    expect(calls).toHaveLength(1);
    expect(await sessionsOf(owner.id)).toBe(1);
  });

  it("lets the admin in too, with the check, after failures from everywhere", async () => {
    const admin = await createUser({ role: "admin" });
    fakeSiteverify(() => solved("login"));
    await attack(admin.email, 10, "203.0.113");
    expect((await signIn(admin.email, TEST_PASSWORD, "192.0.2.12")).status).toBe(403);
    const passed = await signIn(admin.email, TEST_PASSWORD, "192.0.2.12", token());
    // The password and the check pass the first step; the admin's code is the second.
    expect(passed.headers.get("Location")).toBe("/login/two-factor");
    const withCode = await secondStep(passed, totpCode(admin.totpSecret as Uint8Array), { ip: "192.0.2.12" });
    expect(withCode.headers.get("Location")).toBe("/admin");
  });

  const badTokens: Array<[string, SiteverifyAnswer]> = [
    ["a failing token", refused("invalid-input-response")],
    ["a replayed token", refused("timeout-or-duplicate")],
    ["a token solved on another site", solved("login", "evil.example")],
    ["a token solved for another form", solved("register")],
  ];
  it.each(badTokens)("refuses %s, even with the right password", async (_name, answer) => {
    const owner = await createUser();
    await attack(owner.email, 10, "198.51.100");
    const calls = fakeSiteverify(() => answer);
    const response = await signIn(owner.email, TEST_PASSWORD, "192.0.2.20", token());
    expect(response.status).toBe(403);
    expect(alerts(await response.text())).toContain(MESSAGES.challengeRequired);
    expect(calls).toHaveLength(1);
    expect(await sessionsOf(owner.id)).toBe(0);
  });

  it("still says 'Invalid login credentials' for a wrong password with a passing token", async () => {
    const owner = await createUser();
    await attack(owner.email, 10, "198.51.100");
    fakeSiteverify(() => solved("login"));
    const response = await signIn(owner.email, "not it", "192.0.2.21", token());
    expect(response.status).toBe(401);
    expect(alerts(await response.text())).toContain(MESSAGES.invalidCredentials);
  });

  it("asks an address with 10 failures, on any accounts, for the check", async () => {
    const calls = fakeSiteverify(() => solved("login"));
    const ip = "198.51.100.77";
    for (let i = 0; i < 10; i++) expect((await signIn(`guess${i}@example.com`, "password", ip)).status).toBe(401);
    const client = await createUser();
    expect((await signIn(client.email, TEST_PASSWORD, ip)).status).toBe(403);
    expect((await signIn(client.email, TEST_PASSWORD, ip, token())).status).toBe(302);
    // The same account from an address without failures needs no check.
    expect((await signIn(client.email, TEST_PASSWORD, "198.51.100.78")).status).toBe(302);
    expect(calls).toHaveLength(1);
  });

  it("locks only the address that keeps failing: the owner still gets in from elsewhere", async () => {
    const owner = await createUser();
    const attacker = "198.51.100.99";
    // 49 earlier failures of this address, then one more through the page with a good token.
    await env.DB.batch(
      Array.from({ length: 49 }, (_, i) =>
        env.DB.prepare("INSERT INTO auth_failures (scope, key, created_at) VALUES ('sign-in:ip', ?, ?)").bind(
          attacker,
          Date.now() - i,
        ),
      ),
    );
    const calls = fakeSiteverify(() => solved("login"));
    expect((await signIn(owner.email, "wrong", attacker, token())).status).toBe(401);
    const locked = await signIn(owner.email, TEST_PASSWORD, attacker, token());
    expect(locked.status).toBe(429);
    expect(alerts(await locked.text())).toContain(MESSAGES.tooManyAttempts);
    // A locked address costs no siteverify call.
    expect(calls).toHaveLength(1);
    expect((await signIn(owner.email, TEST_PASSWORD, "192.0.2.30")).status).toBe(302);
  });
});

describe("with the always-pass test secret (local development, CI, the browser tests)", () => {
  it("signs the owner of an account under attack in without a token, and never calls siteverify", async () => {
    const calls = fakeSiteverify(() => refused("internal-error"));
    const client = await createUser();
    for (let i = 0; i < 12; i++)
      expect((await postForm("/login", { email: client.email, password: `wrong-${i}` })).status).toBe(401);
    expect((await postForm("/login", { email: client.email, password: TEST_PASSWORD })).status).toBe(302);
    expect(calls).toEqual([]);
  });

  it("registers and mails reset links without a token, and never calls siteverify", async () => {
    const calls = fakeSiteverify(() => refused("internal-error"));
    expect((await postForm("/register", registration(), { ip: "203.0.113.40" })).status).toBe(302);
    const client = await createUser();
    expect((await postForm("/forgot-password", { email: client.email })).status).toBe(200);
    expect(await countRows("email_outbox", "to_address = ?", client.email)).toBe(1);
    expect(calls).toEqual([]);
  });
});

describe("configuration", () => {
  const production = {
    ...env,
    ENVIRONMENT: "production",
    PASSWORD_HASH_COST: "standard",
    SITE_URL: "https://portal.example",
  };

  /** The bindings without the Turnstile keys. */
  function withoutKeys<T extends object>(bindings: T): T {
    const copy = { ...bindings } as Record<string, unknown>;
    delete copy.TURNSTILE_SITE_KEY;
    delete copy.TURNSTILE_SECRET_KEY;
    return copy as T;
  }

  it("needs both keys in production", () => {
    expect(() => readAppEnv(withoutKeys(production))).toThrow(/TURNSTILE_SITE_KEY/);
    expect(() => readAppEnv({ ...withoutKeys(production), TURNSTILE_SITE_KEY: REAL_KEYS.TURNSTILE_SITE_KEY })).toThrow(
      /TURNSTILE_SECRET_KEY/,
    );
    expect(readAppEnv({ ...production, ...REAL_KEYS })).toMatchObject(REAL_KEYS);
  });

  it("uses Cloudflare's always-pass test keys outside production when none are set", () => {
    expect(readAppEnv({ ...withoutKeys(env), ENVIRONMENT: "development" })).toMatchObject({
      TURNSTILE_SITE_KEY: "1x00000000000000000000AA",
      TURNSTILE_SECRET_KEY: "1x0000000000000000000000000000000AA",
    });
  });

  it("calls siteverify in production even with the always-pass test secret", async () => {
    const calls = fakeSiteverify(() => solved("register"));
    vi.spyOn(console, "error").mockImplementation(() => {});
    const bindings = { ...production, TURNSTILE_SECRET_KEY: "1x0000000000000000000000000000000AA" };
    expect((await send("/register", registration(), { bindings })).status).toBe(403);
    expect(calls).toEqual([]);
    expect((await send("/register", registration({ [TOKEN_FIELD]: token() }), { bindings })).status).toBe(302);
    expect(calls).toHaveLength(1);
  });
});

describe("the widget", () => {
  const SCRIPT = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";
  /** The widget's container for this form, as the page renders it. */
  const container = (html: string, action: string) =>
    new RegExp(`<div[^>]*class="cf-turnstile[^"]*"[^>]*data-action="${action}"[^>]*>`).exec(html)?.[0] ?? null;
  const cspOf = (response: Response) => response.headers.get("Content-Security-Policy") ?? "";

  it("is on the registration and forgot-password forms, reserving its space, with its script under the CSP nonce", async () => {
    for (const [path, action] of [
      ["/register", "register"],
      ["/forgot-password", "forgot-password"],
    ] as const) {
      const { response, html } = await page(path);
      const widget = container(html, action);
      expect(widget, path).toContain(`data-sitekey="${REAL_KEYS.TURNSTILE_SITE_KEY}"`);
      expect(widget).toMatch(/min-h-\[65px\]/);
      const nonce = /'nonce-([^']+)'/.exec(cspOf(response))?.[1];
      expect(scripts(html).filter((script) => script.src === SCRIPT)).toEqual([{ src: SCRIPT, nonce }]);
    }
  });

  it("allows the challenge host in the CSP only for a real site key", async () => {
    const real = cspOf((await page("/register")).response);
    expect(real).toMatch(/script-src [^;]*https:\/\/challenges\.cloudflare\.com/);
    expect(real).toMatch(/frame-src [^;]*https:\/\/challenges\.cloudflare\.com/);
    const { response, html } = await page("/register", { bindings: env });
    expect(cspOf(response)).not.toContain("challenges.cloudflare.com");
    // With a test key the space is kept, but no script is loaded (the CSP would refuse it).
    expect(container(html, "register")).toContain('data-sitekey="1x00000000000000000000AA"');
    expect(scripts(html).map((script) => script.src)).not.toContain(SCRIPT);
  });

  it("is on the sign-in form only once the check is needed", async () => {
    const owner = await createUser();
    expect(container((await page("/login")).html, "login")).toBeNull();
    let answer = "";
    for (let i = 0; i < 10; i++) {
      const response = await send(
        "/login",
        { email: owner.email, password: "wrong", redirectTo: "" },
        { ip: `198.51.100.${i}` },
      );
      answer = await response.text();
      // Before the tenth failure the form has no widget; its answer brings it.
      expect(container(answer, "login") === null, `failure ${i + 1}`).toBe(i < 9);
    }
    expect(container(answer, "login")).toContain(`data-sitekey="${REAL_KEYS.TURNSTILE_SITE_KEY}"`);
  });

  it("is on the sign-in page from the start for an address with repeated failures", async () => {
    const ip = "198.51.100.150";
    for (let i = 0; i < 10; i++)
      await send("/login", { email: `nobody${i}@example.com`, password: "x", redirectTo: "" }, { ip });
    expect(container((await page("/login", { ip })).html, "login")).not.toBeNull();
    expect(container((await page("/login", { ip: "198.51.100.151" })).html, "login")).toBeNull();
  });
});
