import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MESSAGES } from "~/lib/schemas/auth";
import { oauthCookie } from "~/server/auth/oauth-accounts.server";
import { challengeCookie, deviceCookie } from "~/server/auth/sign-in.server";
import { sha256Hex } from "~/server/crypto.server";
import { bookmarkSetCookie } from "~/server/db-session.server";
import { readAppEnv } from "~/server/env.server";
import { requireAdmin, requireClient, sessionCookie } from "~/server/session.server";
import { createToastHeader } from "~/server/toast.server";
import {
  appEnv,
  cookieFrom,
  countRows,
  createUser,
  db,
  getPage,
  postForm,
  registrationFields,
  sessionCookieFor,
  TEST_PASSWORD,
  totpCode,
} from "../support/fixtures";
import { alerts, buttonTexts, cardTitled, fieldErrors, refusals, statuses, testIdText } from "../support/places";
import { secondStep } from "../support/two-factor";

// Mixed case on purpose: the address is stored lower-cased.
/** What a deployment sets (wrangler.toml's vars and secrets), over the test bindings. */
const PRODUCTION = { ENVIRONMENT: "production", PASSWORD_HASH_COST: "standard", SITE_URL: "https://portal.example" };

const validRegistration = () =>
  registrationFields({ email: `New.Client+${crypto.randomUUID().slice(0, 8)}@Example.com` });

async function tableCounts() {
  return {
    users: await countRows("users"),
    profiles: await countRows("profiles"),
    outbox: await countRows("email_outbox"),
    sessions: await countRows("sessions"),
  };
}

describe("registration", () => {
  // Each case breaks one rule and every rule after it, so the message proves the product's order.
  const cases: Array<[string, Record<string, string>, string]> = [
    [
      "terms not accepted",
      {
        terms: "",
        confirmPassword: "other",
        password: "abc",
        firstName: "",
        phoneNumber: "",
        username: "",
        country: "",
      },
      MESSAGES.termsRequired,
    ],
    [
      "passwords differ",
      { confirmPassword: "other", password: "abc", firstName: "", phoneNumber: "", username: "", country: "" },
      MESSAGES.passwordsDoNotMatch,
    ],
    [
      "password too short",
      { password: "abc12", confirmPassword: "abc12", lastName: " ", phoneNumber: "", username: "", country: "" },
      MESSAGES.passwordTooShort,
    ],
    ["a blank name", { lastName: "   ", phoneNumber: "", username: "", country: "" }, MESSAGES.namesRequired],
    ["no phone", { phoneNumber: " ", username: "", country: "" }, MESSAGES.phoneRequired],
    ["a phone that is no number", { phoneNumber: "NaN", username: "", country: "" }, MESSAGES.phoneInvalid],
    ["no username", { username: "", country: "" }, MESSAGES.usernameRequired],
    ["no country", { country: "" }, MESSAGES.countryRequired],
    ["an unknown country", { country: "Atlantis" }, MESSAGES.countryRequired],
    ["an invalid email", { email: "not-an-email" }, MESSAGES.invalidEmail],
  ];

  it.each(cases)("refuses %s with the product's message and writes nothing", async (_name, broken, message) => {
    const before = await tableCounts();
    const response = await postForm("/register", { ...validRegistration(), ...broken });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(alerts(html)).toContain(message);
    expect(fieldErrors(html)).toEqual([message]);
    expect(await tableCounts()).toEqual(before);
  });

  it("creates the client, profile, confirmation mail and session in one go, then opens the dashboard", async () => {
    const form = validRegistration();
    const response = await postForm("/register", form);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    const cookie = cookieFrom(response);
    expect(cookie).toMatch(/^session=.+/);

    const email = form.email.toLowerCase();
    const user = await env.DB.prepare("SELECT * FROM users WHERE email = ?")
      .bind(email)
      .first<Record<string, unknown>>();
    expect(user).toMatchObject({ role: "user", email_confirmed_at: null });
    expect(user?.last_login_at).toBe(user?.created_at);
    const profile = await env.DB.prepare("SELECT * FROM profiles WHERE user_id = ?").bind(user?.id).first();
    expect(profile).toMatchObject({
      email,
      first_name: "Jamie",
      last_name: "Rivera",
      phone_number: "+44 20 7946 0000",
      username: "jrivera",
      country: "United Kingdom",
      referral_id: null,
      balance_cents: 0,
      status: "active",
      role: "user",
    });
    const mail = await env.DB.prepare("SELECT * FROM email_outbox WHERE to_address = ?").bind(email).first<{
      template: string;
      payload: string;
    }>();
    expect(mail?.template).toBe("welcome");
    expect(JSON.parse(mail?.payload ?? "{}").confirmUrl).toMatch(/^http:\/\/localhost\/confirm-email\?token=.{43}$/);

    const dashboard = await getPage("/dashboard", cookie);
    expect(dashboard.status).toBe(200);
    expect(testIdText(await dashboard.text(), "greeting")).toBe("Welcome, Jamie");
  });

  it("refuses an e-mail that already has an account, whatever its case", async () => {
    const existing = await createUser();
    const before = await tableCounts();
    const response = await postForm("/register", { ...validRegistration(), email: existing.email.toUpperCase() });
    expect(response.status).toBe(409);
    expect(alerts(await response.text())).toContain(MESSAGES.emailTaken);
    expect(await tableCounts()).toEqual(before);
  });

  it("refuses the 31st registration from one address within an hour", async () => {
    const ip = "198.51.100.231";
    for (let i = 0; i < 30; i++) expect((await postForm("/register", validRegistration(), { ip })).status).toBe(302);
    const before = await tableCounts();
    const refused = await postForm("/register", validRegistration(), { ip });
    expect(refused.status).toBe(429);
    expect(alerts(await refused.text())).toContain(MESSAGES.tooManyRegistrations);
    expect(await tableCounts()).toEqual(before);
    // Another address is not affected.
    expect((await postForm("/register", validRegistration(), { ip: "198.51.100.232" })).status).toBe(302);
  });

  it("always creates a client, whatever the form says about roles", async () => {
    const form = { ...validRegistration(), role: "admin" };
    await postForm("/register", form);
    const user = await env.DB.prepare("SELECT role FROM users WHERE email = ?").bind(form.email.toLowerCase()).first();
    expect(user).toEqual({ role: "user" });
  });
});

describe("sign-in", () => {
  const signIn = (email: string, password: string, extra: Record<string, string> = {}, ip?: string) =>
    postForm("/login", { email, password, redirectTo: "", ...extra }, { ip });

  it("sends a client to /dashboard and an admin to /admin, with a fresh session", async () => {
    const client = await createUser();
    const admin = await createUser({ role: "admin" });
    const asClient = await signIn(client.email, TEST_PASSWORD);
    expect(asClient.status).toBe(302);
    expect(asClient.headers.get("Location")).toBe("/dashboard");
    expect(cookieFrom(asClient)).toMatch(/^session=.+/);
    // An admin has two-factor sign-in on: the code comes second, then the back office, whatever was asked for.
    const asAdmin = await signIn(admin.email, TEST_PASSWORD, { redirectTo: "/account" });
    expect(asAdmin.headers.get("Location")).toBe("/login/two-factor");
    const withCode = await secondStep(asAdmin, totpCode(admin.totpSecret as Uint8Array));
    expect(withCode.headers.get("Location")).toBe("/admin");
    expect(cookieFrom(withCode)).toMatch(/^session=.+/);
  });

  it("returns a client to the page that sent them, but never off-site", async () => {
    const client = await createUser();
    expect((await signIn(client.email, TEST_PASSWORD, { redirectTo: "/account" })).headers.get("Location")).toBe(
      "/account",
    );
    for (const unsafe of ["//evil.example/x", "https://evil.example", "/\\evil.example"]) {
      expect((await signIn(client.email, TEST_PASSWORD, { redirectTo: unsafe })).headers.get("Location")).toBe(
        "/dashboard",
      );
    }
  });

  it("gives the same answer for an unknown e-mail and a wrong password", async () => {
    const client = await createUser();
    const unknown = await signIn("nobody@example.com", TEST_PASSWORD);
    const wrong = await signIn(client.email, "wrong password");
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(alerts(await unknown.text())).toContain(MESSAGES.invalidCredentials);
    expect(alerts(await wrong.text())).toContain(MESSAGES.invalidCredentials);
    expect(cookieFrom(wrong)).toBe("");
    expect(await countRows("sessions", "user_id = ?", client.id)).toBe(0);
  });

  it("never locks the owner out of an account that others keep failing on", async () => {
    // 10 failures in 15 minutes from anywhere put the account under the security check (Turnstile), which the
    // test keys always pass (tests/worker/turnstile.test.ts has the real-secret cases): the owner gets in.
    const client = await createUser();
    for (let i = 0; i < 12; i++)
      expect((await signIn(client.email, `wrong-${i}`, {}, `198.51.100.${i}`)).status).toBe(401);
    const owner = await signIn(client.email, TEST_PASSWORD, {}, "198.51.100.99");
    expect(owner.status).toBe(302);
    expect(await countRows("sessions", "user_id = ?", client.id)).toBe(1);
    // Signing in clears the account's failures.
    expect(await countRows("auth_failures", "scope = 'sign-in:email' AND key = ?", client.email)).toBe(0);
  });

  it("locks an address that tries many accounts", async () => {
    const victim = await createUser();
    const ip = "192.0.2.77";
    // 49 earlier failures from this address on other accounts, then one more through the page.
    await env.DB.batch(
      Array.from({ length: 49 }, (_, i) =>
        env.DB.prepare("INSERT INTO auth_failures (scope, key, created_at) VALUES ('sign-in:ip', ?, ?)").bind(
          ip,
          Date.now() - i,
        ),
      ),
    );
    expect((await signIn("guess@example.com", "password", {}, ip)).status).toBe(401);
    const response = await signIn(victim.email, TEST_PASSWORD, {}, ip);
    expect(response.status).toBe(429);
    expect((await signIn(victim.email, TEST_PASSWORD, {}, "192.0.2.78")).status).toBe(302);
  });

  it("asks for both fields", async () => {
    const response = await signIn("", "");
    expect(response.status).toBe(400);
    expect(alerts(await response.text())).toContain(MESSAGES.signInRequired);
  });

  it("records the login time, so the dashboard says 'Welcome back'", async () => {
    const client = await createUser({ firstName: "Morgan" });
    const response = await signIn(client.email, TEST_PASSWORD);
    const html = await (await getPage("/dashboard", cookieFrom(response))).text();
    expect(testIdText(html, "greeting")).toBe("Welcome back, Morgan");
  });

  it("gives a user without a profile a fresh one", async () => {
    const client = await createUser();
    await env.DB.prepare("DELETE FROM profiles WHERE user_id = ?").bind(client.id).run();
    expect((await signIn(client.email, TEST_PASSWORD)).status).toBe(302);
    expect(
      await env.DB.prepare("SELECT email, balance_cents, status FROM profiles WHERE user_id = ?")
        .bind(client.id)
        .first(),
    ).toEqual({
      email: client.email,
      balance_cents: 0,
      status: "active",
    });
  });
});

describe("sessions through the pages", () => {
  it("end on sign-out: the old cookie no longer opens anything", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    expect((await getPage("/account", cookie)).status).toBe(200);
    const out = await postForm("/logout", {}, { cookie });
    expect(out.headers.get("Location")).toBe("/");
    expect(await countRows("sessions", "user_id = ?", client.id)).toBe(0);
    const after = await getPage("/account", cookie);
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toBe("/login?redirectTo=%2Faccount");
  });

  it("send a signed-out visitor of the dashboard home, and an idle one too", async () => {
    expect((await getPage("/dashboard")).headers.get("Location")).toBe("/");
    const client = await createUser();
    const idle = await sessionCookieFor(client.id, Date.now() - 30 * 60 * 1000 - 1);
    expect((await getPage("/dashboard", idle)).headers.get("Location")).toBe("/");
  });

  it("use a secure __Host- cookie in production", async () => {
    const production = readAppEnv({ ...env, ...PRODUCTION });
    const header = await sessionCookie(production).serialize("token");
    expect(header).toMatch(/^__Host-session=/);
    expect(header).toMatch(/; Secure/);
    expect(header).toMatch(/; HttpOnly/);
    expect(header).toMatch(/; SameSite=Lax/);
    expect(header).toMatch(/; Path=\//);
  });

  it("set every cookie of theirs as __Host-, Secure, HttpOnly, SameSite=Lax, path / in production, the toast too", async () => {
    const production = readAppEnv({ ...env, ...PRODUCTION });
    const headers = {
      session: await sessionCookie(production).serialize("token"),
      toast: await createToastHeader(production, { description: "Saved." }),
      challenge: await challengeCookie(production).serialize("token"),
      device: await deviceCookie(production).serialize("device-id"),
      oauthState: await oauthCookie(production, "oauth-state", 600).serialize({ provider: "google", state: "x" }),
      bookmark: bookmarkSetCookie(production, "0000000a-00000001"),
    };
    for (const [name, header] of Object.entries(headers)) {
      const attributes = header
        .split(/;\s*/)
        .slice(1)
        .map((part) => part.toLowerCase());
      expect(header, name).toMatch(/^__Host-[\w-]+=/);
      for (const wanted of ["secure", "httponly", "samesite=lax", "path=/"]) expect(attributes, name).toContain(wanted);
      expect(
        attributes.some((part) => part.startsWith("domain=")),
        name,
      ).toBe(false);
    }
  });

  it("refuse a production without its own address: mail links and passkeys would follow the request's Host", () => {
    const { SITE_URL: _unset, ...withoutAddress } = PRODUCTION;
    expect(() => readAppEnv({ ...env, ...withoutAddress })).toThrow(/SITE_URL must be set in production/);
    expect(readAppEnv({ ...env, ...PRODUCTION }).SITE_URL).toBe(PRODUCTION.SITE_URL);
  });

  it("refuse the fast test hashing in production", () => {
    expect(() => readAppEnv({ ...env, ENVIRONMENT: "production", PASSWORD_HASH_COST: "fast" })).toThrow(
      /PASSWORD_HASH_COST/,
    );
  });
});

describe("guards", () => {
  it("send a client away from admin pages and an admin away from client pages", async () => {
    const client = await createUser();
    const admin = await createUser({ role: "admin" });
    const request = (cookie: string) => new Request("http://localhost/x", { headers: { Cookie: cookie } });
    const context = { db, env: appEnv };
    const clientTry = await requireAdmin(request(await sessionCookieFor(client.id)), context).catch((r) => r);
    expect((clientTry as Response).headers.get("Location")).toBe("/dashboard");
    const adminTry = await requireClient(request(await sessionCookieFor(admin.id)), context).catch((r) => r);
    expect((adminTry as Response).headers.get("Location")).toBe("/admin");
    expect((await getPage("/dashboard", await sessionCookieFor(admin.id))).headers.get("Location")).toBe("/admin");
  });
});

describe("password reset", () => {
  const latestResetLink = async (email: string) => {
    const row = await env.DB.prepare(
      "SELECT payload FROM email_outbox WHERE to_address = ? AND template = 'password_reset' ORDER BY id DESC",
    )
      .bind(email)
      .first<{ payload: string }>();
    return row ? new URL(JSON.parse(row.payload).resetUrl as string) : null;
  };

  it("looks the same for an unknown e-mail and sends nothing", async () => {
    const before = await countRows("email_outbox");
    const response = await postForm("/forgot-password", { email: "nobody-here@example.com" });
    expect(response.status).toBe(200);
    expect(statuses(await response.text())).toContain(MESSAGES.resetEmailSent);
    expect(await countRows("email_outbox")).toBe(before);
  });

  it("resets through the mailed link once, ends every session, and the new password works", async () => {
    const client = await createUser();
    const oldSession = await sessionCookieFor(client.id);
    const response = await postForm("/forgot-password", { email: client.email.toUpperCase() });
    expect(statuses(await response.text())).toContain(MESSAGES.resetEmailSent);
    const link = await latestResetLink(client.email);
    expect(link?.pathname).toBe("/reset-password");
    const token = link?.searchParams.get("token") ?? "";
    expect(await countRows("auth_tokens", "id = ?", token)).toBe(0); // stored hashed
    expect(await countRows("auth_tokens", "id = ?", await sha256Hex(token))).toBe(1);

    const resetPage = `/reset-password?token=${token}`;
    expect(buttonTexts(await (await getPage(resetPage)).text())).toContain("Update Password");
    // Posted where the page's form posts (its own address, token included), so the page shown is the form again.
    const mismatch = await postForm(resetPage, { token, password: "brand-new-1", confirmPassword: "brand-new-2" });
    const mismatchHtml = await mismatch.text();
    expect(alerts(mismatchHtml)).toContain(MESSAGES.passwordsDoNotMatch);
    expect(fieldErrors(mismatchHtml)).toEqual([MESSAGES.passwordsDoNotMatch]);
    const short = await postForm(resetPage, { token, password: "short", confirmPassword: "short" });
    expect(alerts(await short.text())).toContain(MESSAGES.passwordTooShort);

    const done = await postForm("/reset-password", { token, password: "brand-new-1", confirmPassword: "brand-new-1" });
    expect(done.status).toBe(200);
    expect(statuses(await done.text())).toContain(MESSAGES.passwordUpdatedRedirecting);
    expect(await countRows("sessions", "user_id = ?", client.id)).toBe(0);
    expect((await getPage("/account", oldSession)).status).toBe(302);

    const again = await postForm("/reset-password", {
      token,
      password: "another-pass",
      confirmPassword: "another-pass",
    });
    expect(again.status).toBe(410);
    expect(alerts(await again.text())).toContain(MESSAGES.resetLinkInvalid);
    expect(alerts(await (await getPage(`/reset-password?token=${token}`)).text())).toContain(MESSAGES.resetLinkInvalid);

    expect((await postForm("/login", { email: client.email, password: TEST_PASSWORD })).status).toBe(401);
    expect((await postForm("/login", { email: client.email, password: "brand-new-1" })).status).toBe(302);
  });

  it("refuses an expired link and a made-up one", async () => {
    const client = await createUser();
    await postForm("/forgot-password", { email: client.email });
    const token = (await latestResetLink(client.email))?.searchParams.get("token") ?? "";
    await env.DB.prepare("UPDATE auth_tokens SET expires_at = ? WHERE user_id = ?")
      .bind(Date.now() - 1, client.id)
      .run();
    for (const candidate of [token, "made-up-token"]) {
      const response = await postForm("/reset-password", {
        token: candidate,
        password: "brand-new-1",
        confirmPassword: "brand-new-1",
      });
      expect(response.status).toBe(410);
    }
    expect((await postForm("/login", { email: client.email, password: TEST_PASSWORD })).status).toBe(302);
  });

  it("sends at most 3 reset mails an hour for one address", async () => {
    const client = await createUser();
    for (let i = 0; i < 5; i++)
      await postForm("/forgot-password", { email: client.email }, { ip: `203.0.113.${50 + i}` });
    expect(await countRows("email_outbox", "to_address = ? AND template = 'password_reset'", client.email)).toBe(3);
  });
});

describe("e-mail confirmation", () => {
  it("confirms once through the link in the welcome mail", async () => {
    const form = validRegistration();
    await postForm("/register", form);
    const email = form.email.toLowerCase();
    const row = await env.DB.prepare("SELECT payload FROM email_outbox WHERE to_address = ?").bind(email).first<{
      payload: string;
    }>();
    const link = new URL(JSON.parse(row?.payload ?? "{}").confirmUrl);
    const first = await getPage(`${link.pathname}${link.search}`);
    expect(statuses(await first.text())).toContain("Thank you: your email address is confirmed.");
    const user = await env.DB.prepare("SELECT email_confirmed_at FROM users WHERE email = ?").bind(email).first<{
      email_confirmed_at: number | null;
    }>();
    expect(user?.email_confirmed_at).toBeGreaterThan(0);
    expect(alerts(await (await getPage(`${link.pathname}${link.search}`)).text())).toContain(
      "This confirmation link is invalid, has expired or was already used.",
    );
  });
});

describe("account settings", () => {
  it("shows the account and updates the profile", async () => {
    const client = await createUser({ firstName: "Robin" });
    const cookie = await sessionCookieFor(client.id);
    const page = await (await getPage("/account", cookie)).text();
    const information = cardTitled(page, "Account Information");
    expect(information).toContain(`Account ID ${client.id}`);
    expect(information).toContain(`Email Address ${client.email}`);
    expect(cardTitled(page, "Profile Settings")).toContain("Update Profile");
    expect(cardTitled(page, "Change Password")).toContain("Current Password");
    const response = await postForm(
      "/account",
      { intent: "profile", firstName: "Robin", lastName: "Quinn", phoneNumber: "+1 555 0199" },
      { cookie },
    );
    expect(statuses(await response.text())).toContain(MESSAGES.profileUpdated);
    expect(
      await env.DB.prepare("SELECT first_name, last_name, phone_number FROM profiles WHERE user_id = ?")
        .bind(client.id)
        .first(),
    ).toEqual({ first_name: "Robin", last_name: "Quinn", phone_number: "+1 555 0199" });

    const blank = await postForm(
      "/account",
      { intent: "profile", firstName: " ", lastName: "Q", phoneNumber: "" },
      { cookie },
    );
    expect(refusals(await blank.text())).toContain(MESSAGES.namesRequired);
  });

  it("keeps the phone by registration's rule: required, and a phone number, never cleared or replaced by any text", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const stored = () =>
      env.DB.prepare("SELECT phone_number FROM profiles WHERE user_id = ?").bind(client.id).first("phone_number");
    const update = (fields: Record<string, string>) =>
      postForm("/account", { intent: "profile", firstName: "Robin", lastName: "Quinn", ...fields }, { cookie });
    expect(statuses(await (await update({ phoneNumber: "+44 (20) 7946-0000" })).text())).toContain(
      MESSAGES.profileUpdated,
    );
    for (const [fields, message] of [
      [{}, MESSAGES.phoneRequired],
      [{ phoneNumber: "   " }, MESSAGES.phoneRequired],
      [{ phoneNumber: "NaN" }, MESSAGES.phoneInvalid],
      [{ phoneNumber: "-5" }, MESSAGES.phoneInvalid],
      [{ phoneNumber: "<b>555 0100</b>" }, MESSAGES.phoneInvalid],
      [{ phoneNumber: "12345" }, MESSAGES.phoneInvalid],
    ] as const) {
      const response = await update(fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(refusals(await response.text())).toContain(message);
      expect(await stored()).toBe("+44 (20) 7946-0000");
    }
  });

  it("changes the password only with the current one and matching new ones, ending other sessions", async () => {
    const client = await createUser();
    const current = await sessionCookieFor(client.id);
    const other = await sessionCookieFor(client.id);
    const change = (fields: Record<string, string>) =>
      postForm("/account", { intent: "password", ...fields }, { cookie: current });

    expect(
      refusals(
        await (
          await change({ currentPassword: TEST_PASSWORD, newPassword: "abcdef1", confirmPassword: "abcdef2" })
        ).text(),
      ),
    ).toContain(MESSAGES.newPasswordsDoNotMatch);
    expect(
      refusals(
        await (await change({ currentPassword: "nope", newPassword: "abcdef1", confirmPassword: "abcdef1" })).text(),
      ),
    ).toContain(MESSAGES.currentPasswordWrong);
    expect(await countRows("sessions", "user_id = ?", client.id)).toBe(2);

    const done = await change({ currentPassword: TEST_PASSWORD, newPassword: "abcdef1", confirmPassword: "abcdef1" });
    expect(statuses(await done.text())).toContain(MESSAGES.passwordUpdated);
    expect((await getPage("/account", current)).status).toBe(200);
    expect((await getPage("/account", other)).status).toBe(302);
    expect((await postForm("/login", { email: client.email, password: "abcdef1" })).status).toBe(302);
  });

  it("spends every unused reset link when the password is changed, so none can set it back", async () => {
    const client = await createUser();
    const current = await sessionCookieFor(client.id);
    await postForm("/forgot-password", { email: client.email });
    const row = await env.DB.prepare(
      "SELECT payload FROM email_outbox WHERE to_address = ? AND template = 'password_reset' ORDER BY id DESC",
    )
      .bind(client.email)
      .first<{ payload: string }>();
    const token = new URL(JSON.parse(row?.payload ?? "{}").resetUrl).searchParams.get("token") ?? "";
    const changed = await postForm(
      "/account",
      { intent: "password", currentPassword: TEST_PASSWORD, newPassword: "abcdef1", confirmPassword: "abcdef1" },
      { cookie: current },
    );
    expect(statuses(await changed.text())).toContain(MESSAGES.passwordUpdated);

    const stale = await postForm("/reset-password", { token, password: "taken-over", confirmPassword: "taken-over" });
    expect(stale.status).toBe(410);
    expect(alerts(await stale.text())).toContain(MESSAGES.resetLinkInvalid);
    expect((await postForm("/login", { email: client.email, password: "abcdef1" })).status).toBe(302);
  });
});
