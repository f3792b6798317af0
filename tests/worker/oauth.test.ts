import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MESSAGES } from "~/lib/schemas/auth";
import { OAUTH_MESSAGES } from "~/lib/schemas/oauth";
import { OAUTH_PENDING_TTL_MS } from "~/server/auth/oauth-accounts.server";
import { readAppEnv } from "~/server/env.server";
import worker from "../../workers/app";
import {
  appEnv,
  countRows,
  createUser,
  enableTwoFactor,
  ORIGIN,
  productionBindings,
  registrationFields,
  sessionCookieFor,
  TEST_PASSWORD,
  totpCode,
} from "../support/fixtures";
import { personWithPasskey, sessionsOf, verifyWithPasskey } from "../support/passkeys";
import {
  alerts,
  buttonTexts,
  cardTitled,
  documentTitle,
  fieldError,
  fieldValue,
  heading,
  linkHref,
  linkTexts,
  linkTextsTo,
  shownToast,
  statuses,
  testIdText,
} from "../support/places";
import { steadyStep } from "../support/two-factor";

/**
 * Sign-in with Google and GitHub through the whole Worker, with the providers' token and user endpoints
 * stood in for at the fetch level. The test bindings configure no provider; these tests run the Worker with a
 * copy of the bindings that configures both.
 */
const PROVIDER_KEYS = {
  GOOGLE_CLIENT_ID: "test-google-client.apps.googleusercontent.com",
  GOOGLE_CLIENT_SECRET: "test-google-secret",
  GITHUB_CLIENT_ID: "test-github-client",
  GITHUB_CLIENT_SECRET: "test-github-secret",
};
const withProviders = { ...env, ...PROVIDER_KEYS } as typeof env;

const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
const GITHUB_TOKEN_URL = "https://github.com/login/oauth/access_token";
const GITHUB_USER_URL = "https://api.github.com/user";
const GITHUB_EMAILS_URL = "https://api.github.com/user/emails";

/** A browser: keeps the cookies the Worker sets and sends them back, as Chromium would. */
class Browser {
  cookies = new Map<string, string>();
  constructor(private bindings: typeof env = withProviders) {}

  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async send(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
    const ctx = createExecutionContext();
    const url = path.startsWith("http") ? path : `${ORIGIN}${path}`;
    const response = await worker.fetch(
      new Request(url, {
        redirect: "manual",
        ...init,
        headers: { "CF-Connecting-IP": "203.0.113.60", Cookie: this.header(), ...init.headers },
      }),
      this.bindings,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      if (attributes.some((a) => /^\s*max-age=0$/i.test(a)) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** A click on one of our links (same-origin navigation). */
  get(path: string, headers: Record<string, string> = {}) {
    return this.send(path, { headers: { "Sec-Fetch-Site": "same-origin", ...headers } });
  }

  post(path: string, fields: Record<string, string>) {
    return this.send(path, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin" },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Follows one redirect and returns the page's HTML (its flash toast: `shownToast`). */
  async follow(response: Response) {
    const location = response.headers.get("Location");
    if (!location) throw new Error(`expected a redirect, got ${response.status}`);
    const page = await this.get(location);
    return { page, html: await page.text() };
  }
}

// --- the providers, stood in for ---------------------------------------------------------------------------

interface GoogleAccount {
  sub: string;
  email: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  aud?: string;
}
interface GitHubAccount {
  id: number;
  name: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}
interface ProviderCall {
  url: string;
  headers: Headers;
  form: URLSearchParams | null;
}

const idToken = (claims: Record<string, unknown>) =>
  [{ alg: "RS256", typ: "JWT" }, claims, "signature"]
    .map((part) => encodeBase64urlNoPadding(new TextEncoder().encode(JSON.stringify(part))))
    .join(".");

/** Stands in for Google's and GitHub's endpoints: answers for `account`, or as `answer` says for an endpoint. */
function fakeProviders(
  account: { google?: GoogleAccount; github?: GitHubAccount },
  answer: Partial<Record<string, () => Response>> = {},
) {
  const calls: ProviderCall[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init as RequestInit);
    const form =
      request.method === "POST" ? new URLSearchParams(new TextDecoder().decode(await request.arrayBuffer())) : null;
    calls.push({ url: request.url, headers: request.headers, form });
    const custom = answer[request.url];
    if (custom) return custom();
    if (request.url === GOOGLE_TOKEN_URL && account.google) {
      const { aud = PROVIDER_KEYS.GOOGLE_CLIENT_ID, email_verified = true, ...claims } = account.google;
      return Response.json({
        access_token: "google-access-token",
        token_type: "Bearer",
        expires_in: 3599,
        id_token: idToken({
          iss: "https://accounts.google.com",
          aud,
          exp: Math.floor(Date.now() / 1000) + 3600,
          iat: Math.floor(Date.now() / 1000),
          email_verified,
          ...claims,
        }),
      });
    }
    if (request.url === GITHUB_TOKEN_URL && account.github) {
      return Response.json({
        access_token: "github-access-token",
        token_type: "bearer",
        scope: "read:user,user:email",
      });
    }
    if (request.url === GITHUB_USER_URL && account.github) {
      return Response.json({ id: account.github.id, login: "octo", name: account.github.name });
    }
    if (request.url === GITHUB_EMAILS_URL && account.github) {
      return Response.json(account.github.emails.map((e) => ({ ...e, visibility: "private" })));
    }
    throw new Error(`unexpected fetch of ${request.url}`);
  });
  return calls;
}

afterEach(() => {
  vi.restoreAllMocks();
});

// --- helpers -------------------------------------------------------------------------------------------------

let people = 0;
const newEmail = (label: string) => `${label}${++people}-${crypto.randomUUID().slice(0, 8)}@example.com`;
const newSub = () => `${Date.now()}${Math.floor(Math.random() * 1e9)}`;

/** Starts a sign-in from our page and returns the provider's authorization URL. */
async function start(browser: Browser, provider: "google" | "github") {
  const response = await browser.get(`/auth/${provider}`);
  expect(response.status).toBe(302);
  return new URL(response.headers.get("Location") ?? "");
}

/** The provider sends the browser back with a code for the state it was given. */
function callback(browser: Browser, authorization: URL, params: Record<string, string> = {}) {
  const provider = authorization.hostname === "github.com" ? "github" : "google";
  const query = new URLSearchParams({
    state: authorization.searchParams.get("state") ?? "",
    code: "the-code",
    ...params,
  });
  // The browser arrives from the provider's site.
  return browser.get(`/auth/${provider}/callback?${query}`, { "Sec-Fetch-Site": "cross-site" });
}

async function signInRound(browser: Browser, provider: "google" | "github", params: Record<string, string> = {}) {
  return callback(browser, await start(browser, provider), params);
}

/** The rows a refused callback must leave as they were. */
const accountCounts = () =>
  Promise.all(
    ["users", "profiles", "sessions", "oauth_accounts", "oauth_pending", "email_outbox"].map((t) => countRows(t)),
  );

const notices = (to: string, event: string) =>
  countRows(
    "email_outbox",
    "template = 'security_notice' AND to_address = ? AND json_extract(payload, '$.event') = ?",
    to,
    event,
  );

async function link(userId: string, provider: "google" | "github", providerUserId: string, email: string) {
  await env.DB.prepare("INSERT INTO oauth_accounts (provider, provider_user_id, user_id, email) VALUES (?, ?, ?, ?)")
    .bind(provider, providerUserId, userId, email)
    .run();
}

/** Gives the browser a fresh session of this user, as a completed sign-in would. */
async function signInAs(browser: Browser, userId: string) {
  const pair = await sessionCookieFor(userId);
  browser.cookies.set("session", pair.slice(pair.indexOf("=") + 1));
}

/** The sign-in activity on /account as this browser sees it: each row's result and its way in. */
async function signInWays(browser: Browser) {
  const html = await (await browser.get("/account")).text();
  // The Method column is the third of the row (Time, Result, Method, Browser, Location).
  return [...html.matchAll(/<tr[^>]*data-result="([^"]+)"[^>]*>([\s\S]*?)<\/tr>/g)].map(([, result, row = ""]) => [
    result,
    [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)][2]?.[1]?.replace(/<[^>]+>/g, ""),
  ]);
}

async function passwordless(userId: string) {
  await env.DB.prepare("UPDATE users SET password_hash = '' WHERE id = ?").bind(userId).run();
}

const completion = (fields: Record<string, string> = {}) => {
  const { email: _e, password: _p, confirmPassword: _c, ...profile } = registrationFields();
  return { ...profile, firstName: "Ada", lastName: "Lovelace", ...fields };
};

// --- tests -----------------------------------------------------------------------------------------------------

describe("the buttons", () => {
  it("offers each provider on /login and /register only when its client id and secret are both set", async () => {
    const none = await new Browser(env).get("/login");
    expect(linkTexts(await none.text()).filter((text) => text.startsWith("Continue with"))).toEqual([]);
    for (const path of ["/login", "/register"]) {
      const html = await (await new Browser().get(path)).text();
      expect(linkHref(html, "Continue with Google")).toBe("/auth/google");
      expect(linkHref(html, "Continue with GitHub")).toBe("/auth/github");
    }
    const githubOnly = new Browser({ ...withProviders, GOOGLE_CLIENT_SECRET: "" } as typeof env);
    const html = await (await githubOnly.get("/login")).text();
    expect(linkTextsTo(html, "/auth/google")).toEqual([]);
    expect(linkHref(html, "Continue with GitHub")).toBe("/auth/github");
    expect((await githubOnly.get("/auth/google")).status).toBe(404);
    expect((await new Browser().get("/auth/facebook")).status).toBe(404);
  });

  it("answers a provider that is not configured with the site's own 'Page not found', titled, start and callback alike", async () => {
    const none = new Browser(env);
    for (const path of ["/auth/google", "/auth/github/callback", "/auth/facebook"]) {
      const response = await none.get(path);
      expect(response.status).toBe(404);
      const html = await response.text();
      expect(heading(html)).toBe("Page not found");
      expect(documentTitle(html)).toBe(appEnv.BRAND_NAME);
      // The site's own shell, its header's way to sign in included.
      expect(linkHref(html, "Sign In")).toBe("/login");
    }
  });
});

describe("starting", () => {
  it("sends the browser to Google with PKCE, and keeps the state and verifier in short-lived HttpOnly cookies", async () => {
    const browser = new Browser();
    const response = await browser.get("/auth/google");
    const url = new URL(response.headers.get("Location") ?? "");
    expect(url.origin + url.pathname).toBe("https://accounts.google.com/o/oauth2/v2/auth");
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: "code",
      client_id: PROVIDER_KEYS.GOOGLE_CLIENT_ID,
      redirect_uri: `${ORIGIN}/auth/google/callback`,
      code_challenge_method: "S256",
      scope: "openid email profile",
    });
    expect(url.searchParams.get("state")).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    const cookies = response.headers.getSetCookie();
    for (const name of ["oauth-state", "oauth-verifier"]) {
      const cookie = cookies.find((c) => c.startsWith(`${name}=`)) ?? "";
      expect(cookie).toMatch(/Max-Age=600/);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
    }
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });

  it("sends the browser to GitHub without PKCE (GitHub takes none)", async () => {
    const browser = new Browser();
    browser.cookies.set("oauth-verifier", "left-over");
    const url = await start(browser, "github");
    expect(url.origin + url.pathname).toBe("https://github.com/login/oauth/authorize");
    expect(url.searchParams.get("client_id")).toBe(PROVIDER_KEYS.GITHUB_CLIENT_ID);
    expect(url.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/github/callback`);
    expect(url.searchParams.get("scope")).toBe("read:user user:email");
    expect(url.searchParams.has("code_challenge")).toBe(false);
    expect(browser.cookies.has("oauth-verifier")).toBe(false);
    expect(browser.cookies.has("oauth-state")).toBe(true);
  });

  it("does not start a sign-in another site triggered", async () => {
    for (const site of ["cross-site", "same-site"]) {
      const browser = new Browser();
      const response = await browser.get("/auth/google", { "Sec-Fetch-Site": site });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/login");
      expect(browser.cookies.size).toBe(0);
    }
  });

  it("is a link (GET): a POST is not a way to start one", async () => {
    const response = await new Browser().post("/auth/google", {});
    expect(response.status).toBe(405);
  });
});

describe("Google", () => {
  it("signs a new person up: Complete your profile, then the account, its link, the welcome mail and a session", async () => {
    const email = newEmail("new-google");
    const sub = newSub();
    const calls = fakeProviders({
      google: { sub, email: email.toUpperCase(), given_name: "Ada", family_name: "Lovelace" },
    });
    const browser = new Browser();
    const authorization = await start(browser, "google");
    const before = await countRows("users");
    const response = await callback(browser, authorization);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/register/complete");
    expect(await countRows("users")).toBe(before);
    expect(await countRows("oauth_pending", "email = ? AND purpose = 'register'", email)).toBe(1);
    // The state and verifier are spent.
    expect(browser.cookies.has("oauth-state")).toBe(false);
    expect(browser.cookies.has("oauth-verifier")).toBe(false);

    // PKCE: the code went back with the verifier whose S256 hash was the challenge.
    const exchange = calls.find((call) => call.url === GOOGLE_TOKEN_URL);
    const verifier = exchange?.form?.get("code_verifier") ?? "";
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
    expect(encodeBase64urlNoPadding(digest)).toBe(authorization.searchParams.get("code_challenge"));
    expect(exchange?.form?.get("code")).toBe("the-code");
    expect(exchange?.form?.get("redirect_uri")).toBe(`${ORIGIN}/auth/google/callback`);

    const page = await (await browser.get("/register/complete")).text();
    expect(heading(page)).toBe("Complete your profile");
    expect(cardTitled(page, "Complete your profile")).toContain(`You signed in with Google as ${email}.`);
    expect(fieldValue(page, "firstName")).toBe("Ada");
    expect(fieldValue(page, "lastName")).toBe("Lovelace");

    // The registration's own checks and messages, nothing written on a refusal.
    const refused = await browser.post("/register/complete", completion({ username: "" }));
    expect(refused.status).toBe(400);
    expect(fieldError(await refused.text(), "username")).toBe(MESSAGES.usernameRequired);
    const noTerms = await browser.post("/register/complete", completion({ terms: "" }));
    expect(fieldError(await noTerms.text(), "terms")).toBe(MESSAGES.termsRequired);
    expect(await countRows("users", "email = ?", email)).toBe(0);

    const held = browser.cookies.get("oauth-pending") ?? "";
    const done = await browser.post("/register/complete", completion({ username: "ada" }));
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/dashboard");
    const user = await env.DB.prepare("SELECT id, password_hash, email_confirmed_at FROM users WHERE email = ?")
      .bind(email)
      .first<{ id: string; password_hash: string; email_confirmed_at: number | null }>();
    expect(user?.password_hash).toBe("");
    expect(user?.email_confirmed_at).not.toBeNull();
    expect(await countRows("profiles", "user_id = ? AND username = 'ada' AND first_name = 'Ada'", user?.id)).toBe(1);
    expect(
      await countRows("oauth_accounts", "provider = 'google' AND provider_user_id = ? AND user_id = ?", sub, user?.id),
    ).toBe(1);
    expect(await countRows("oauth_pending", "email = ?", email)).toBe(0);
    expect(
      await countRows("sign_in_events", "user_id = ? AND method = 'google' AND result = 'success'", user?.id),
    ).toBe(1);
    // The welcome mail, without a confirmation link: Google confirmed the address.
    const welcome = await env.DB.prepare(
      "SELECT payload FROM email_outbox WHERE to_address = ? AND template = 'welcome'",
    )
      .bind(email)
      .all<{ payload: string }>();
    expect(welcome.results).toHaveLength(1);
    expect(JSON.parse(welcome.results[0]?.payload ?? "{}")).toEqual({ name: "Ada" });
    expect(await countRows("auth_tokens", "user_id = ?", user?.id)).toBe(0);

    const dashboard = await browser.get("/dashboard");
    expect(dashboard.status).toBe(200);
    expect(testIdText(await dashboard.text(), "greeting")).toBe("Welcome, Ada");
    // No password to change: Account Settings says how to add one instead of asking for the current one.
    const account = await (await browser.get("/account")).text();
    expect(cardTitled(account, "Password")).toContain("Your account has no password yet");
    expect(cardTitled(account, "Password")).not.toContain("Current Password");

    // The same completed sign-up again: it is spent.
    const again = new Browser();
    again.cookies.set("oauth-pending", held);
    const replay = await again.post("/register/complete", completion({ username: "ada2" }));
    // The page itself is gone: back to /register, with the message.
    expect(replay.headers.get("Location")).toBe("/register");
    expect(await shownToast((await again.follow(replay)).html)).toEqual({
      type: "error",
      text: OAUTH_MESSAGES.profileExpired,
    });
    expect(await countRows("users", "email = ?", email)).toBe(1);
  });

  it("keeps Complete your profile, which shows who the provider vouched for, out of every cache", async () => {
    const email = newEmail("uncached");
    fakeProviders({ google: { sub: newSub(), email, given_name: "Ada", family_name: "Lovelace" } });
    const browser = new Browser();
    await signInRound(browser, "google");
    const answers = [
      await browser.get("/register/complete"),
      await browser.get("/register/complete.data"),
      await browser.post("/register/complete", completion({ username: "" })),
    ];
    for (const response of answers) {
      expect(response.status).toBeLessThan(500);
      expect(response.headers.get("Cache-Control")).toBe("private, no-store");
      await response.body?.cancel();
    }
  });

  it("never lets a password open the account that has none", async () => {
    const email = newEmail("nopass");
    const user = await createUser({ email });
    await passwordless(user.id);
    for (const password of ["", " ", TEST_PASSWORD]) {
      const response = await new Browser().post("/login", { email, password, redirectTo: "" });
      expect(response.status).not.toBe(302);
    }
  });

  it("refuses a password for the account that has none as it refuses one for an unknown e-mail", async () => {
    const email = newEmail("nopass-refusal");
    const user = await createUser({ email });
    await passwordless(user.id);
    const browser = new Browser();
    let address = 0;
    const refusal = async (to: string) => {
      const response = await browser.send("/login", {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "Sec-Fetch-Site": "same-origin",
          // One address per try: no try counts towards another's budget.
          "CF-Connecting-IP": `198.51.100.${++address}`,
        },
        body: new URLSearchParams({ email: to, password: "a wrong password", redirectTo: "" }).toString(),
      });
      return { status: response.status, text: await response.text() };
    };
    const unknown = await refusal(newEmail("nobody"));
    const withoutPassword = await refusal(email);
    expect(unknown.status).toBe(401);
    expect(withoutPassword.status).toBe(401);
    // The same refusal for both; that their times match too is `npm run bench`'s to show (docs/decisions/0059).
    expect(alerts(unknown.text)).toContain(MESSAGES.invalidCredentials);
    expect(alerts(withoutPassword.text)).toContain(MESSAGES.invalidCredentials);
  });

  it("signs a linked person in, recording the sign-in with Google as its method", async () => {
    const email = newEmail("linked-google");
    const sub = newSub();
    const user = await createUser({ email });
    await link(user.id, "google", sub, email);
    fakeProviders({ google: { sub, email } });
    const browser = new Browser();
    const response = await signInRound(browser, "google");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect(browser.cookies.has("session")).toBe(true);
    expect(browser.cookies.has("oauth-state")).toBe(false);
    expect(await countRows("sign_in_events", "user_id = ? AND method = 'google' AND result = 'success'", user.id)).toBe(
      1,
    );
    expect((await browser.get("/dashboard")).status).toBe(200);
  });

  it("takes a linked person with two-factor on to the second step, with no session yet", async () => {
    const email = newEmail("linked-2fa");
    const sub = newSub();
    const user = await createUser({ email, twoFactor: true });
    await link(user.id, "google", sub, email);
    fakeProviders({ google: { sub, email } });
    const browser = new Browser();
    const response = await signInRound(browser, "google");
    expect(response.headers.get("Location")).toBe("/login/two-factor");
    expect(browser.cookies.has("session")).toBe(false);
    expect(await countRows("sign_in_challenges", "user_id = ? AND method = 'google'", user.id)).toBe(1);
    expect(await countRows("sessions", "user_id = ?", user.id)).toBe(0);
  });

  it("takes a linked person whose second factor is a passkey through the second step with it, to a session that says so", async () => {
    const email = newEmail("linked-passkey");
    const sub = newSub();
    const person = await personWithPasskey({ email });
    await link(person.id, "google", sub, email);
    fakeProviders({ google: { sub, email } });
    const browser = new Browser();
    const response = await signInRound(browser, "google");
    expect(response.headers.get("Location")).toBe("/login/two-factor");
    const challenge = `sign-in-challenge=${browser.cookies.get("sign-in-challenge")}`;

    const verified = await verifyWithPasskey(person.authenticator, challenge);
    expect(verified.status).toBe(200);
    expect(await verified.json()).toEqual({ redirectTo: "/dashboard" });
    expect((await sessionsOf(person.id)).at(-1)).toEqual({ signIn: "google", secondFactor: "passkey" });
    expect(await countRows("sign_in_challenges", "user_id = ?", person.id)).toBe(0);
  });

  it("names the way in on /account: Google alone, then Google and the authenticator's code", async () => {
    const email = newEmail("way-in");
    const sub = newSub();
    const user = await createUser({ email });
    await link(user.id, "google", sub, email);
    fakeProviders({ google: { sub, email } });
    const first = new Browser();
    expect((await signInRound(first, "google")).headers.get("Location")).toBe("/dashboard");
    expect(await signInWays(first)).toEqual([["success", "Google"]]);

    // With two-factor on, a provider opens the second step like a password; a wrong code then the right one.
    const secret = await enableTwoFactor(user.id);
    await steadyStep();
    const second = new Browser();
    expect((await signInRound(second, "google")).headers.get("Location")).toBe("/login/two-factor");
    const right = totpCode(secret);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, "0");
    expect((await second.post("/login/two-factor", { code: wrong, method: "totp" })).status).toBe(400);
    expect((await second.post("/login/two-factor", { code: right, method: "totp" })).status).toBe(302);
    expect(await signInWays(second)).toEqual([
      ["success", "Google + authenticator code"],
      ["wrong_code", "Google + authenticator code"],
      ["success", "Google"],
    ]);
  });

  describe("refuses, with a message on /login and nothing created,", () => {
    let before: number[];
    beforeEach(async () => {
      before = await accountCounts();
    });
    const expectRefused = async (browser: Browser, response: Response, message: string) => {
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/login");
      expect(browser.cookies.has("session")).toBe(false);
      expect(browser.cookies.has("oauth-state")).toBe(false);
      const { html } = await browser.follow(response);
      expect(await shownToast(html)).toEqual({ type: "error", text: message });
      expect(await accountCounts()).toEqual(before);
    };

    it("a state that does not match the browser's, without asking Google anything", async () => {
      const calls = fakeProviders({ google: { sub: newSub(), email: newEmail("forged") } });
      const browser = new Browser();
      const authorization = await start(browser, "google");
      const response = await callback(browser, authorization, { state: "forged-state-of-another-browser" });
      await expectRefused(browser, response, OAUTH_MESSAGES.unverifiable("Google"));
      expect(calls).toEqual([]);
    });

    it("a callback this browser never started (no state cookie), or one for the other provider", async () => {
      const calls = fakeProviders({ google: { sub: newSub(), email: newEmail("nostate") } });
      const browser = new Browser();
      const response = await browser.get("/auth/google/callback?state=anything&code=the-code");
      await expectRefused(browser, response, OAUTH_MESSAGES.unverifiable("Google"));
      const github = await start(browser, "github");
      const crossed = await browser.get(
        `/auth/google/callback?state=${github.searchParams.get("state")}&code=the-code`,
      );
      await expectRefused(browser, crossed, OAUTH_MESSAGES.unverifiable("Google"));
      expect(calls).toEqual([]);
    });

    it("a missing code verifier", async () => {
      const calls = fakeProviders({ google: { sub: newSub(), email: newEmail("noverifier") } });
      const browser = new Browser();
      const authorization = await start(browser, "google");
      browser.cookies.delete("oauth-verifier");
      await expectRefused(browser, await callback(browser, authorization), OAUTH_MESSAGES.unverifiable("Google"));
      expect(calls).toEqual([]);
    });

    it("a replayed callback: the state is good for one answer", async () => {
      fakeProviders({ google: { sub: newSub(), email: newEmail("replay") } });
      const browser = new Browser();
      const authorization = await start(browser, "google");
      const first = await callback(browser, authorization);
      expect(first.headers.get("Location")).toBe("/register/complete");
      before = await accountCounts();
      await expectRefused(browser, await callback(browser, authorization), OAUTH_MESSAGES.unverifiable("Google"));
    });

    it("an error from Google (the person cancelled)", async () => {
      const calls = fakeProviders({});
      const browser = new Browser();
      const authorization = await start(browser, "google");
      const response = await callback(browser, authorization, { error: "access_denied", code: "" });
      await expectRefused(browser, response, OAUTH_MESSAGES.providerError("Google"));
      expect(calls).toEqual([]);
    });

    it("a code Google will not exchange, or a network failure", async () => {
      for (const failure of [
        () => Response.json({ error: "invalid_grant", error_description: "Bad Request" }, { status: 400 }),
        () => new Response("upstream down", { status: 503 }),
        () => {
          throw new TypeError("network connection lost");
        },
      ]) {
        fakeProviders({}, { [GOOGLE_TOKEN_URL]: failure });
        const browser = new Browser();
        await expectRefused(browser, await signInRound(browser, "google"), OAUTH_MESSAGES.providerError("Google"));
        vi.restoreAllMocks();
      }
    });

    it("an id token issued to another app", async () => {
      fakeProviders({ google: { sub: newSub(), email: newEmail("otherapp"), aud: "someone-else" } });
      const browser = new Browser();
      await expectRefused(browser, await signInRound(browser, "google"), OAUTH_MESSAGES.providerError("Google"));
    });

    it("an e-mail Google has not verified", async () => {
      fakeProviders({ google: { sub: newSub(), email: newEmail("unverified"), email_verified: false } });
      const browser = new Browser();
      await expectRefused(browser, await signInRound(browser, "google"), OAUTH_MESSAGES.unverifiedEmail("Google"));
    });

    it("an admin's e-mail: admins never sign in with a provider, and are never linked", async () => {
      const admin = await createUser({ role: "admin", email: newEmail("admin") });
      before = await accountCounts();
      fakeProviders({ google: { sub: newSub(), email: admin.email } });
      const browser = new Browser();
      await expectRefused(browser, await signInRound(browser, "google"), OAUTH_MESSAGES.adminRefused);
    });

    it("an admin linked before being made admin", async () => {
      const sub = newSub();
      const promoted = await createUser({ email: newEmail("promoted") });
      await link(promoted.id, "google", sub, promoted.email);
      await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(promoted.id).run();
      before = await accountCounts();
      fakeProviders({ google: { sub, email: promoted.email } });
      const browser = new Browser();
      await expectRefused(browser, await signInRound(browser, "google"), OAUTH_MESSAGES.adminRefused);
      expect(await countRows("sign_in_events", "user_id = ?", promoted.id)).toBe(0);
    });
  });
});

describe("GitHub", () => {
  it("signs a new person up with the primary verified e-mail, the stable id and the name split in two", async () => {
    const email = newEmail("new-github");
    const calls = fakeProviders({
      github: {
        id: 4242001,
        name: "Grace Brewster Hopper",
        emails: [
          { email: newEmail("secondary"), primary: false, verified: true },
          { email, primary: true, verified: true },
        ],
      },
    });
    const browser = new Browser();
    const response = await signInRound(browser, "github");
    expect(response.headers.get("Location")).toBe("/register/complete");
    const page = await (await browser.get("/register/complete")).text();
    expect(cardTitled(page, "Complete your profile")).toContain(`You signed in with GitHub as ${email}.`);
    expect(fieldValue(page, "firstName")).toBe("Grace");
    expect(fieldValue(page, "lastName")).toBe("Brewster Hopper");

    const exchange = calls.find((call) => call.url === GITHUB_TOKEN_URL);
    expect(exchange?.headers.get("Authorization")).toBe(
      `Basic ${btoa(`${PROVIDER_KEYS.GITHUB_CLIENT_ID}:${PROVIDER_KEYS.GITHUB_CLIENT_SECRET}`)}`,
    );
    expect(exchange?.form?.has("code_verifier")).toBe(false);
    for (const url of [GITHUB_USER_URL, GITHUB_EMAILS_URL]) {
      const call = calls.find((c) => c.url === url);
      expect(call?.headers.get("Authorization")).toBe("Bearer github-access-token");
      expect(call?.headers.get("User-Agent")).toBeTruthy();
    }

    const done = await browser.post("/register/complete", completion({ firstName: "Grace", lastName: "Hopper" }));
    expect(done.headers.get("Location")).toBe("/dashboard");
    expect(
      await countRows("oauth_accounts", "provider = 'github' AND provider_user_id = '4242001' AND email = ?", email),
    ).toBe(1);
    expect(await countRows("email_outbox", "to_address = ? AND template = 'welcome'", email)).toBe(1);
    expect(
      await countRows(
        "sign_in_events",
        "method = 'github' AND user_id = (SELECT id FROM users WHERE email = ?)",
        email,
      ),
    ).toBe(1);
  });

  it("signs a linked person in by the stable id, whatever e-mail GitHub gives now", async () => {
    const user = await createUser({ email: newEmail("linked-github") });
    await link(user.id, "github", "4242002", user.email);
    fakeProviders({
      github: { id: 4242002, name: null, emails: [{ email: newEmail("changed"), primary: true, verified: true }] },
    });
    const browser = new Browser();
    const response = await signInRound(browser, "github");
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect(await countRows("sessions", "user_id = ?", user.id)).toBe(1);
    expect(await signInWays(browser)).toEqual([["success", "GitHub"]]);
  });

  it("refuses a token endpoint that answers 200 with an error, and a primary e-mail that is not verified", async () => {
    const before = await accountCounts();
    fakeProviders({}, { [GITHUB_TOKEN_URL]: () => Response.json({ error: "bad_verification_code" }) });
    const browser = new Browser();
    const failed = await signInRound(browser, "github");
    expect(await shownToast((await browser.follow(failed)).html)).toEqual({
      type: "error",
      text: OAUTH_MESSAGES.providerError("GitHub"),
    });
    vi.restoreAllMocks();

    fakeProviders({
      github: {
        id: 4242003,
        name: "Someone",
        emails: [
          { email: newEmail("primary"), primary: true, verified: false },
          { email: newEmail("verified"), primary: false, verified: true },
        ],
      },
    });
    const unverified = await signInRound(browser, "github");
    expect(await shownToast((await browser.follow(unverified)).html)).toEqual({
      type: "error",
      text: OAUTH_MESSAGES.unverifiedEmail("GitHub"),
    });
    expect(await accountCounts()).toEqual(before);
  });
});

describe("an e-mail that already has an account", () => {
  /** A client who has a password, and a Google identity with the same e-mail coming back from Google. */
  async function ownerAndIdentity() {
    const owner = await createUser({ email: newEmail("owner") });
    const sub = newSub();
    fakeProviders({ google: { sub, email: owner.email } });
    const browser = new Browser();
    const response = await signInRound(browser, "google");
    return { owner, sub, browser, response };
  }

  it("is never linked silently: the owner is asked to sign in with the password first", async () => {
    const { owner, browser, response } = await ownerAndIdentity();
    expect(response.headers.get("Location")).toBe("/login?redirectTo=%2Faccount%2Flink");
    expect(browser.cookies.has("session")).toBe(false);
    expect(await countRows("oauth_accounts", "user_id = ?", owner.id)).toBe(0);
    expect(await countRows("oauth_pending", "email = ? AND purpose = 'link'", owner.email)).toBe(1);
    const login = await (await browser.get("/login?redirectTo=%2Faccount%2Flink")).text();
    expect(statuses(login)).toContain(OAUTH_MESSAGES.linkRequired("Google"));
  });

  it("is refused without proof: signed out, or signed in to another account", async () => {
    const { owner, browser } = await ownerAndIdentity();
    const signedOut = await browser.post("/account/link", { intent: "link" });
    expect(signedOut.headers.get("Location")).toBe("/login?redirectTo=%2Faccount%2Flink");

    const someoneElse = await createUser({ email: newEmail("someone") });
    await signInAs(browser, someoneElse.id);
    const page = await (await browser.get("/account/link")).text();
    expect(alerts(page)).toContain(OAUTH_MESSAGES.linkWrongAccount("Google"));
    expect(buttonTexts(page)).not.toContain("Link Google");
    const refused = await browser.post("/account/link", { intent: "link" });
    expect(refused.status).toBe(409);
    expect(alerts(await refused.text())).toContain(OAUTH_MESSAGES.linkWrongAccount("Google"));
    expect(await countRows("oauth_accounts", "user_id IN (?, ?)", owner.id, someoneElse.id)).toBe(0);
    expect(await notices(someoneElse.email, "provider_linked")).toBe(0);
    expect(await notices(owner.email, "provider_linked")).toBe(0);
  });

  it("is refused to the owner in a browser that does not hold the identity", async () => {
    const { owner } = await ownerAndIdentity();
    const elsewhere = new Browser();
    await signInAs(elsewhere, owner.id);
    const refused = await elsewhere.post("/account/link", { intent: "link" });
    expect(alerts(await refused.text())).toContain(OAUTH_MESSAGES.linkExpired);
    expect(await countRows("oauth_accounts", "user_id = ?", owner.id)).toBe(0);
  });

  it("is refused once the held identity has expired", async () => {
    const { owner, browser } = await ownerAndIdentity();
    await env.DB.prepare("UPDATE oauth_pending SET expires_at = ? WHERE email = ?")
      .bind(Date.now() - 1, owner.email)
      .run();
    await browser.post("/login", { email: owner.email, password: TEST_PASSWORD, redirectTo: "/account/link" });
    const refused = await browser.post("/account/link", { intent: "link" });
    expect(alerts(await refused.text())).toContain(OAUTH_MESSAGES.linkExpired);
    expect(await countRows("oauth_accounts", "user_id = ?", owner.id)).toBe(0);
    expect(OAUTH_PENDING_TTL_MS).toBe(15 * 60 * 1000);
  });

  it("is linked once the owner signs in with the password and confirms, with one provider_linked notice", async () => {
    const { owner, sub, browser } = await ownerAndIdentity();
    const signedIn = await browser.post("/login", {
      email: owner.email,
      password: TEST_PASSWORD,
      redirectTo: "/account/link",
    });
    expect(signedIn.headers.get("Location")).toBe("/account/link");
    const page = await (await browser.get("/account/link")).text();
    expect(cardTitled(page, "Link a sign-in provider")).toContain(
      `Link the Google account ${owner.email} to your account?`,
    );
    expect(buttonTexts(page)).toContain("Link Google");
    // Nothing is linked by looking at the page.
    expect(await countRows("oauth_accounts", "user_id = ?", owner.id)).toBe(0);

    const linked = await browser.post("/account/link", { intent: "link" });
    expect(linked.headers.get("Location")).toBe("/account");
    expect(
      await countRows("oauth_accounts", "user_id = ? AND provider = 'google' AND provider_user_id = ?", owner.id, sub),
    ).toBe(1);
    expect(await countRows("oauth_pending", "email = ?", owner.email)).toBe(0);
    expect(await notices(owner.email, "provider_linked")).toBe(1);
    const account = await (await browser.get("/account")).text();
    expect(cardTitled(account, "Sign-in providers")).toContain(`Google Linked as ${owner.email} since`);

    // Confirming again does nothing more.
    const again = await browser.post("/account/link", { intent: "link" });
    expect(again.status).toBe(409);
    expect(await notices(owner.email, "provider_linked")).toBe(1);

    // From now on Google signs the owner in directly.
    const later = new Browser();
    const signIn = await signInRound(later, "google");
    expect(signIn.headers.get("Location")).toBe("/dashboard");
  });

  it("links once when two confirmations race", async () => {
    const { owner, browser } = await ownerAndIdentity();
    await browser.post("/login", { email: owner.email, password: TEST_PASSWORD, redirectTo: "/account/link" });
    const answers = await Promise.all([1, 2, 3].map(() => browser.post("/account/link", { intent: "link" })));
    expect(answers.filter((answer) => answer.status === 302)).toHaveLength(1);
    expect(await countRows("oauth_accounts", "user_id = ?", owner.id)).toBe(1);
    expect(await notices(owner.email, "provider_linked")).toBe(1);
  });

  it("drops the held identity when the owner cancels", async () => {
    const { owner, browser } = await ownerAndIdentity();
    await browser.post("/login", { email: owner.email, password: TEST_PASSWORD, redirectTo: "/account/link" });
    const cancelled = await browser.post("/account/link", { intent: "cancel" });
    expect(cancelled.headers.get("Location")).toBe("/account");
    expect(await countRows("oauth_pending", "email = ?", owner.email)).toBe(0);
    expect(await countRows("oauth_accounts", "user_id = ?", owner.id)).toBe(0);
  });
});

describe("Link on Account Settings (signed in)", () => {
  it("holds the identity for the owner's confirmation when the e-mail is the account's", async () => {
    const user = await createUser({ email: newEmail("viewer") });
    fakeProviders({
      github: { id: 4242010, name: "V", emails: [{ email: user.email, primary: true, verified: true }] },
    });
    const browser = new Browser();
    await signInAs(browser, user.id);
    const account = await (await browser.get("/account")).text();
    expect(cardTitled(account, "Sign-in providers")).toContain("GitHub Not linked Link your GitHub account");
    expect(linkHref(account, "Link your GitHub account")).toBe("/auth/github");
    const response = await signInRound(browser, "github");
    expect(response.headers.get("Location")).toBe("/account/link");
    expect(await countRows("oauth_accounts", "user_id = ?", user.id)).toBe(0);
    await browser.post("/account/link", { intent: "link" });
    expect(await countRows("oauth_accounts", "user_id = ? AND provider = 'github'", user.id)).toBe(1);
    expect(await notices(user.email, "provider_linked")).toBe(1);

    // Once more: it is linked already, and nothing more happens.
    const again = await signInRound(browser, "github");
    expect(again.headers.get("Location")).toBe("/account");
    expect(await shownToast((await browser.follow(again)).html)).toEqual({
      type: "info",
      text: OAUTH_MESSAGES.alreadyLinked("GitHub"),
    });
    expect(await notices(user.email, "provider_linked")).toBe(1);
  });

  it("brings a refused answer back to Account Settings, not to the sign-in page", async () => {
    const user = await createUser({ email: newEmail("viewer") });
    const browser = new Browser();
    await signInAs(browser, user.id);
    fakeProviders({});
    const response = await signInRound(browser, "google", { error: "access_denied", code: "" });
    expect(response.headers.get("Location")).toBe("/account");
    expect(await shownToast((await browser.follow(response)).html)).toEqual({
      type: "error",
      text: OAUTH_MESSAGES.providerError("Google"),
    });
    expect(await countRows("oauth_pending", "email = ?", user.email)).toBe(0);
  });

  it("refuses another e-mail, an identity linked to someone else, and an admin", async () => {
    const user = await createUser({ email: newEmail("viewer") });
    const other = await createUser({ email: newEmail("other") });
    await link(other.id, "github", "4242011", other.email);
    const browser = new Browser();
    await signInAs(browser, user.id);

    fakeProviders({
      github: { id: 4242012, name: "V", emails: [{ email: newEmail("different"), primary: true, verified: true }] },
    });
    let response = await signInRound(browser, "github");
    expect(response.headers.get("Location")).toBe("/account");
    expect(await shownToast((await browser.follow(response)).html)).toEqual({
      type: "error",
      text: OAUTH_MESSAGES.linkWrongAccount("GitHub"),
    });
    vi.restoreAllMocks();

    fakeProviders({
      github: { id: 4242011, name: "V", emails: [{ email: user.email, primary: true, verified: true }] },
    });
    response = await signInRound(browser, "github");
    expect(await shownToast((await browser.follow(response)).html)).toEqual({
      type: "error",
      text: OAUTH_MESSAGES.linkedElsewhere("GitHub"),
    });
    vi.restoreAllMocks();

    const admin = await createUser({ role: "admin", email: newEmail("admin-viewer") });
    const adminBrowser = new Browser();
    await signInAs(adminBrowser, admin.id);
    fakeProviders({
      github: { id: 4242013, name: "A", emails: [{ email: admin.email, primary: true, verified: true }] },
    });
    response = await signInRound(adminBrowser, "github");
    expect(await shownToast((await adminBrowser.follow(response)).html)).toEqual({
      type: "error",
      text: OAUTH_MESSAGES.adminRefused,
    });
    const adminAccount = await (await adminBrowser.get("/account")).text();
    expect(linkTextsTo(adminAccount, "/auth/github")).toEqual([]);

    expect(await countRows("oauth_accounts", "user_id IN (?, ?)", user.id, admin.id)).toBe(0);
    expect(await countRows("oauth_pending", "email IN (?, ?)", user.email, admin.email)).toBe(0);
  });
});

describe("unlink", () => {
  async function signedIn(options: { password: boolean; providers: Array<"google" | "github"> }) {
    const user = await createUser({ email: newEmail("unlink") });
    if (!options.password) await passwordless(user.id);
    for (const provider of options.providers) await link(user.id, provider, `${provider}-${user.id}`, user.email);
    const browser = new Browser();
    await signInAs(browser, user.id);
    return { user, browser };
  }

  it("unlinks while the password remains, with one provider_unlinked notice", async () => {
    const { user, browser } = await signedIn({ password: true, providers: ["google"] });
    expect(buttonTexts(await (await browser.get("/account")).text())).toContain("Unlink Google");
    const response = await browser.post("/account/providers", { provider: "google", intent: "unlink" });
    expect(response.headers.get("Location")).toBe("/account");
    expect(await shownToast((await browser.follow(response)).html)).toEqual({
      type: "success",
      text: OAUTH_MESSAGES.unlinked("Google"),
    });
    expect(await countRows("oauth_accounts", "user_id = ?", user.id)).toBe(0);
    expect(await notices(user.email, "provider_unlinked")).toBe(1);

    const again = await browser.post("/account/providers", { provider: "google", intent: "unlink" });
    expect(await shownToast((await browser.follow(again)).html)).toEqual({
      type: "error",
      text: OAUTH_MESSAGES.notLinked("Google"),
    });
    expect(await notices(user.email, "provider_unlinked")).toBe(1);
  });

  it("refuses to unlink the only way in of an account without a password", async () => {
    const { user, browser } = await signedIn({ password: false, providers: ["google"] });
    const account = await (await browser.get("/account")).text();
    expect(buttonTexts(account)).not.toContain("Unlink Google");
    const response = await browser.post("/account/providers", { provider: "google", intent: "unlink" });
    expect(await shownToast((await browser.follow(response)).html)).toEqual({
      type: "error",
      text: OAUTH_MESSAGES.lastWayIn("Google"),
    });
    expect(await countRows("oauth_accounts", "user_id = ?", user.id)).toBe(1);
    expect(await notices(user.email, "provider_unlinked")).toBe(0);
  });

  it("unlinks one of two providers of an account without a password, then refuses the last", async () => {
    const { user, browser } = await signedIn({ password: false, providers: ["google", "github"] });
    await browser.post("/account/providers", { provider: "google", intent: "unlink" });
    expect(await countRows("oauth_accounts", "user_id = ?", user.id)).toBe(1);
    const last = await browser.post("/account/providers", { provider: "github", intent: "unlink" });
    expect(await shownToast((await browser.follow(last)).html)).toEqual({
      type: "error",
      text: OAUTH_MESSAGES.lastWayIn("GitHub"),
    });
    expect(await countRows("oauth_accounts", "user_id = ?", user.id)).toBe(1);
    expect(await notices(user.email, "provider_unlinked")).toBe(1);
  });

  it("keeps one way in when both providers are unlinked at once", async () => {
    const { user, browser } = await signedIn({ password: false, providers: ["google", "github"] });
    await Promise.all([
      browser.post("/account/providers", { provider: "google", intent: "unlink" }),
      browser.post("/account/providers", { provider: "github", intent: "unlink" }),
    ]);
    expect(await countRows("oauth_accounts", "user_id = ?", user.id)).toBe(1);
    expect(await notices(user.email, "provider_unlinked")).toBe(1);
  });

  it("touches only the signed-in user's own links, and needs a session", async () => {
    const { user: other } = await signedIn({ password: true, providers: ["google"] });
    const { browser } = await signedIn({ password: true, providers: [] });
    const response = await browser.post("/account/providers", { provider: "google", intent: "unlink" });
    expect(await shownToast((await browser.follow(response)).html)).toEqual({
      type: "error",
      text: OAUTH_MESSAGES.notLinked("Google"),
    });
    const signedOut = await new Browser().post("/account/providers", { provider: "google", intent: "unlink" });
    expect(signedOut.headers.get("Location")).toMatch(/^\/login/);
    expect(await countRows("oauth_accounts", "user_id = ?", other.id)).toBe(1);
  });
});

describe("configuration", () => {
  const production = productionBindings();

  it("refuses the fake provider's endpoints in production, and anything but a loopback origin", () => {
    expect(() => readAppEnv({ ...production, OAUTH_TEST_ENDPOINTS: "http://127.0.0.1:8790" } as never)).toThrow(
      /OAUTH_TEST_ENDPOINTS is not allowed in production/,
    );
    expect(() => readAppEnv({ ...production } as never)).not.toThrow();
    expect(() => readAppEnv({ ...env, OAUTH_TEST_ENDPOINTS: "https://evil.example" } as never)).toThrow(
      /loopback origin/,
    );
  });

  it("uses __Host- cookies in production", async () => {
    const browser = new Browser({ ...production, ...PROVIDER_KEYS } as typeof env);
    const response = await browser.get("/auth/google");
    const names = response.headers.getSetCookie().map((cookie) => cookie.split("=")[0]);
    expect(names).toEqual(expect.arrayContaining(["__Host-oauth-state", "__Host-oauth-verifier"]));
    for (const cookie of response.headers.getSetCookie()) expect(cookie).toMatch(/Secure/);
  });

  it("points every endpoint at the fake provider under the test setting", async () => {
    const fake = "http://127.0.0.1:8790";
    const browser = new Browser({ ...withProviders, OAUTH_TEST_ENDPOINTS: fake } as typeof env);
    const google = await start(browser, "google");
    expect(google.href.startsWith(`${fake}/accounts.google.com/o/oauth2/v2/auth?`)).toBe(true);
    const calls: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      calls.push(new Request(input as RequestInfo, init as RequestInit).url);
      return Response.json({ error: "invalid_grant" }, { status: 400 });
    });
    const query = new URLSearchParams({ state: google.searchParams.get("state") ?? "", code: "c" });
    await browser.get(`/auth/google/callback?${query}`);
    expect(calls).toEqual([`${fake}/oauth2.googleapis.com/token`]);
  });
});
