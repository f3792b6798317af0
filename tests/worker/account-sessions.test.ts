import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SESSION_MESSAGES } from "~/lib/schemas/sessions";
import { describeBrowser } from "~/lib/user-agent";
import {
  endOtherSessions,
  endSession,
  SIGN_IN_EVENTS_KEPT_MS,
  SIGN_INS_SHOWN,
} from "~/server/auth/account-sessions.server";
import { sha256Hex } from "~/server/crypto.server";
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "~/server/session.server";
import worker from "../../workers/app";
import {
  appEnv,
  countRows,
  createUser,
  db,
  formRequest,
  ORIGIN,
  registrationFields,
  sessionCookieFor,
  TEST_PASSWORD,
  totpCode,
} from "../support/fixtures";
import { shownToast } from "../support/places";
import { giveRecoveryCodes, steadyStep } from "../support/two-factor";

const AGENTS = {
  chromeMac:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  safariIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  firefoxWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0",
  chromeAndroid:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
};

/**
 * A browser with its own cookie jar (session, device, toast), User-Agent and Cloudflare location, talking to
 * the Worker through its real routes.
 */
class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(
    readonly userAgent: string,
    readonly place: { country?: string; city?: string } = {},
  ) {}

  cookie(name: string) {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string) {
    this.cookies.set(name, value);
  }

  private async send(path: string, form?: Record<string, string>): Promise<Response> {
    const headers = new Headers(form ? formRequest(path, form, { ip: "203.0.113.20" }).headers : {});
    headers.set("User-Agent", this.userAgent);
    const jar = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    if (jar) headers.set("Cookie", jar);
    const response = await exports.default.fetch(`${ORIGIN}${path}`, {
      method: form ? "POST" : "GET",
      headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
      redirect: "manual",
      cf: this.place,
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";");
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      if (!value || attributes.some((a) => /^\s*max-age=0$/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  post(path: string, fields: Record<string, string>) {
    return this.send(path, fields);
  }

  get(path: string) {
    return this.send(path);
  }

  /** The stored id of this browser's session: the hash of the token its cookie holds. */
  sessionId() {
    const value = decodeURIComponent(this.cookies.get("session") ?? "");
    return sha256Hex(JSON.parse(atob(value)) as string);
  }

  signIn(email: string, password = TEST_PASSWORD) {
    return this.post("/login", { email, password, redirectTo: "" });
  }

  /** /account as this browser sees it: its session rows and sign-in rows; null when it is signed out. */
  async account() {
    const response = await this.get("/account");
    if (response.status !== 200) return null;
    const html = await response.text();
    return { html, sessions: rowsOf(html, "session-row"), signIns: rowsOf(html, "sign-in-row") };
  }
}

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim();

/**
 * The rows of one table of the page: their attributes, and their text as a phone shows it, each cell's value after
 * its column's heading (the page names each cell by its column; an empty cell is left out).
 */
function rowsOf(html: string, testId: string) {
  const table = [...html.matchAll(/<table[\s\S]*?<\/table>/g)].find(([t]) =>
    t.includes(`data-testid="${testId}"`),
  )?.[0];
  const headings = [...(table ?? "").matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)].map(([, heading = ""]) => textOf(heading));
  const rows = html.matchAll(new RegExp(`<tr([^>]*data-testid="${testId}"[^>]*)>([\\s\\S]*?)</tr>`, "g"));
  return [...rows].map(([, attributes = "", body = ""]) => ({
    current: attributes.includes("data-current"),
    result: /data-result="([^"]+)"/.exec(attributes)?.[1] ?? null,
    id: /name="sessionId" value="([0-9a-f]{64})"/.exec(body)?.[1] ?? null,
    text: [...body.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)]
      .map(([, cell = ""], index) => (textOf(cell) ? `${headings[index]} ${textOf(cell)}` : ""))
      .filter(Boolean)
      .join(" "),
  }));
}

async function signedIn(email: string, userAgent: string, place: { country?: string; city?: string } = {}) {
  const browser = new Browser(userAgent, place);
  const response = await browser.signIn(email);
  expect(response.status).toBe(302);
  return browser;
}

const noticesTo = (email: string, event: string) =>
  countRows(
    "email_outbox",
    "to_address = ? AND template = 'security_notice' AND payload ->> 'event' = ?",
    email,
    event,
  );

describe("the sessions list on /account", () => {
  it("shows only my live sessions, with browser and place, this device first and marked", async () => {
    const me = await createUser();
    const laptop = await signedIn(me.email, AGENTS.chromeMac, { country: "DE", city: "Berlin" });
    const phone = await signedIn(me.email, AGENTS.safariIphone, { country: "FR", city: "Paris" });
    // Not mine, past the absolute limit, idle too long: none of them is listed.
    await signedIn((await createUser()).email, AGENTS.firefoxWindows);
    await sessionCookieFor(me.id, Date.now() - SESSION_ABSOLUTE_MS - 1000);
    await sessionCookieFor(me.id, Date.now() - SESSION_IDLE_MS - 1000);

    const fromLaptop = await laptop.account();
    expect(fromLaptop?.sessions.map(({ current, text }) => ({ current, text }))).toEqual([
      {
        current: true,
        text: expect.stringMatching(/^Browser Chrome on macOS This device Location Berlin, DE Started/),
      },
      { current: false, text: expect.stringMatching(/^Browser Safari on iOS Location Paris, FR Started/) },
    ]);
    // This device has no End button (it ends by signing out); the other one has.
    expect(fromLaptop?.sessions.map((row) => row.id === null)).toEqual([true, false]);

    const fromPhone = await phone.account();
    expect(fromPhone?.sessions.map(({ current, text }) => [current, text.split(" Location")[0]])).toEqual([
      [true, "Browser Safari on iOS This device"],
      [false, "Browser Chrome on macOS"],
    ]);
  });

  it("reads 'Unknown' where the browser or the place is not known", async () => {
    const me = await createUser();
    await sessionCookieFor(me.id);
    const laptop = await signedIn(me.email, AGENTS.firefoxWindows);
    const rows = (await laptop.account())?.sessions ?? [];
    expect(rows[0]?.text).toMatch(/^Browser Firefox on Windows This device Location Unknown location/);
    expect(rows[1]?.text).toMatch(/^Browser Unknown browser Location Unknown location/);
  });

  it("records no place for a sign-in in development, where the runtime makes one up for every request", async () => {
    const me = await createUser();
    const ctx = createExecutionContext();
    const request = new Request(formRequest("/login", { email: me.email, password: TEST_PASSWORD, redirectTo: "" }), {
      cf: { country: "US", city: "Austin" },
    });
    const response = await worker.fetch(request, { ...env, ENVIRONMENT: "development" } as typeof env, ctx);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(302);
    const places = await env.DB.prepare(
      "SELECT country, city FROM sessions WHERE user_id = ?1 UNION ALL SELECT country, city FROM sign_in_events WHERE user_id = ?1",
    )
      .bind(me.id)
      .all();
    expect(places.results).toEqual([
      { country: null, city: null },
      { country: null, city: null },
    ]);
  });
});

describe("ending sessions", () => {
  it("End ends exactly that session: that browser is signed out, the others stay", async () => {
    const me = await createUser();
    const laptop = await signedIn(me.email, AGENTS.chromeMac);
    const phone = await signedIn(me.email, AGENTS.safariIphone);
    const tablet = await signedIn(me.email, AGENTS.chromeAndroid);
    const phoneRow = (await laptop.account())?.sessions.find((row) => row.text.includes("Safari on iOS"));

    const ended = await laptop.post("/account/sessions", { intent: "end", sessionId: phoneRow?.id ?? "" });
    expect(ended.status).toBe(302);
    expect(ended.headers.get("Location")).toBe("/account");
    expect(await shownToast((await laptop.account())?.html ?? "")).toEqual({
      type: "success",
      text: SESSION_MESSAGES.ended,
    });

    expect(await phone.account()).toBeNull();
    expect((await phone.get("/account")).headers.get("Location")).toBe("/login?redirectTo=%2Faccount");
    expect(await tablet.account()).not.toBeNull();
    expect((await laptop.account())?.sessions).toHaveLength(2);
  });

  it("another user's session id, or an unknown one, changes nothing", async () => {
    const me = await createUser();
    const laptop = await signedIn(me.email, AGENTS.chromeMac);
    const someone = await signedIn((await createUser()).email, AGENTS.firefoxWindows);
    const before = await countRows("sessions");

    for (const sessionId of [await someone.sessionId(), "0".repeat(64), "not-an-id", ""]) {
      const response = await laptop.post("/account/sessions", { intent: "end", sessionId });
      expect(response.headers.get("Location")).toBe("/account");
      expect(await shownToast((await laptop.account())?.html ?? "")).toEqual({
        type: "error",
        text: SESSION_MESSAGES.alreadyEnded,
      });
    }
    expect(await countRows("sessions")).toBe(before);
    expect(await someone.account()).not.toBeNull();
  });

  it("End all others keeps only this device", async () => {
    const me = await createUser();
    const laptop = await signedIn(me.email, AGENTS.chromeMac);
    const phone = await signedIn(me.email, AGENTS.safariIphone);
    const tablet = await signedIn(me.email, AGENTS.chromeAndroid);
    const someone = await signedIn((await createUser()).email, AGENTS.firefoxWindows);

    const response = await laptop.post("/account/sessions", { intent: "end-others" });
    expect(response.headers.get("Location")).toBe("/account");
    const page = await laptop.account();
    expect(await shownToast(page?.html ?? "")).toEqual({ type: "success", text: SESSION_MESSAGES.othersEnded(2) });
    expect(page?.sessions.map((row) => row.current)).toEqual([true]);
    expect(await phone.account()).toBeNull();
    expect(await tablet.account()).toBeNull();
    expect(await someone.account()).not.toBeNull();

    await laptop.post("/account/sessions", { intent: "end-others" });
    expect(await shownToast((await laptop.account())?.html ?? "")).toEqual({
      type: "success",
      text: SESSION_MESSAGES.noOthers,
    });
  });

  it("this device's own session is not ended by End: signing out does that", async () => {
    const me = await createUser();
    const laptop = await signedIn(me.email, AGENTS.chromeMac);
    await laptop.post("/account/sessions", { intent: "end", sessionId: await laptop.sessionId() });
    expect(await shownToast((await laptop.account())?.html ?? "")).toEqual({
      type: "error",
      text: SESSION_MESSAGES.thisDevice,
    });
    expect(await laptop.account()).not.toBeNull();
  });

  it("an ended session cannot end others", async () => {
    const me = await createUser();
    const laptop = await signedIn(me.email, AGENTS.chromeMac);
    const phone = await signedIn(me.email, AGENTS.safariIphone);
    const laptopId = (await phone.account())?.sessions.find((row) => !row.current)?.id ?? "";
    const phoneId = (await laptop.account())?.sessions.find((row) => !row.current)?.id ?? "";
    await laptop.post("/account/sessions", { intent: "end", sessionId: phoneId });

    // The phone still holds its cookie and replays both forms.
    const endOne = await phone.post("/account/sessions", { intent: "end", sessionId: laptopId });
    const endOthers = await phone.post("/account/sessions", { intent: "end-others" });
    for (const response of [endOne, endOthers]) {
      expect(response.headers.get("Location")).toBe("/login?redirectTo=%2Faccount%2Fsessions");
    }
    expect(await laptop.account()).not.toBeNull();
  });

  it("a request whose session ends while it runs writes nothing (two browsers ending each other at once)", async () => {
    const me = await createUser();
    const laptop = await signedIn(me.email, AGENTS.chromeMac);
    const phone = await signedIn(me.email, AGENTS.safariIphone);
    const laptopViewer = { id: me.id, sessionId: await laptop.sessionId() };
    const phoneViewer = { id: me.id, sessionId: await phone.sessionId() };
    // Both requests passed their session check; the laptop's write runs first.
    const context = { db, env: appEnv, bindings: env, ctx: createExecutionContext() };
    expect(await endOtherSessions(context, laptopViewer)).toEqual({ count: 1 });
    expect(await endOtherSessions(context, phoneViewer)).toEqual({ count: 0 });
    expect(await endSession(context, phoneViewer, laptopViewer.sessionId)).toEqual({
      ok: false,
      error: SESSION_MESSAGES.alreadyEnded,
    });
    await waitOnExecutionContext(context.ctx);
    expect(await laptop.account()).not.toBeNull();
  });

  it("refuses a form it does not know and answers a GET with the account page", async () => {
    const me = await createUser();
    const laptop = await signedIn(me.email, AGENTS.chromeMac);
    await signedIn(me.email, AGENTS.safariIphone);
    const response = await laptop.post("/account/sessions", { intent: "end-everything" });
    expect(response.headers.get("Location")).toBe("/account");
    expect(await shownToast((await laptop.account())?.html ?? "")).toEqual({
      type: "error",
      text: SESSION_MESSAGES.unknownRequest,
    });
    expect(await countRows("sessions", "user_id = ?", me.id)).toBe(2);
    expect((await laptop.get("/account/sessions")).headers.get("Location")).toBe("/account");
  });

  it("closes the ended sessions' open sockets at once, and only theirs", async () => {
    const me = await createUser();
    const laptop = await signedIn(me.email, AGENTS.chromeMac);
    const phone = await signedIn(me.email, AGENTS.safariIphone);
    const tablet = await signedIn(me.email, AGENTS.chromeAndroid);
    const listen = async (browser: Browser) => {
      const response = await exports.default.fetch(`${ORIGIN}/ws/clients/${me.id}`, {
        headers: { Upgrade: "websocket", Origin: ORIGIN, Cookie: `session=${browser.cookie("session")}` },
      });
      const socket = response.webSocket;
      if (!socket) throw new Error(`no websocket: ${response.status}`);
      socket.accept();
      let code: number | null = null;
      const closed = new Promise<number>((resolve) =>
        socket.addEventListener("close", (event) => {
          code = event.code;
          resolve(event.code);
        }),
      );
      return { closed, code: () => code };
    };
    const [laptopSocket, phoneSocket, tabletSocket] = await Promise.all([laptop, phone, tablet].map(listen));

    const phoneId = (await laptop.account())?.sessions.find((row) => row.text.includes("Safari"))?.id ?? "";
    await laptop.post("/account/sessions", { intent: "end", sessionId: phoneId });
    // Nothing is published: the close comes from ending the session itself.
    expect(await phoneSocket?.closed).toBe(4001);
    await laptop.post("/account/sessions", { intent: "end-others" });
    expect(await tabletSocket?.closed).toBe(4001);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(laptopSocket?.code()).toBeNull();
  });
});

describe("sign-in activity on /account", () => {
  it("shows a wrong password and then a success, newest first, with browser and place", async () => {
    const me = await createUser();
    const laptop = new Browser(AGENTS.firefoxWindows, { country: "GB", city: "London" });
    expect((await laptop.signIn(me.email, "not my password")).status).toBe(401);
    expect((await laptop.signIn(me.email)).status).toBe(302);

    const rows = (await laptop.account())?.signIns ?? [];
    expect(rows.map(({ result, text }) => ({ result, text: text.replace(/^Time .*? UTC /, "") }))).toEqual([
      { result: "success", text: "Result Success Method Password Browser Firefox on Windows Location London, GB" },
      {
        result: "wrong_password",
        text: "Result Wrong password Method Password Browser Firefox on Windows Location London, GB",
      },
    ]);
  });

  it("names each result and shows only the latest 20 of this account", async () => {
    const me = await createUser();
    const other = await createUser();
    const start = Date.now() - 60 * 60 * 1000;
    const results = ["wrong_code", "locked", "wrong_password", "success"];
    const insert = env.DB.prepare(
      "INSERT INTO sign_in_events (user_id, result, method, user_agent, created_at) VALUES (?, ?, 'password', ?, ?)",
    );
    await env.DB.batch([
      ...Array.from({ length: 25 }, (_, i) => insert.bind(me.id, results[i % 4], AGENTS.chromeAndroid, start + i)),
      insert.bind(other.id, "success", AGENTS.safariIphone, start + 100),
    ]);
    const laptop = await signedIn(me.email, AGENTS.chromeMac);

    const rows = (await laptop.account())?.signIns ?? [];
    expect(rows).toHaveLength(SIGN_INS_SHOWN);
    // The sign-in just made, then the inserted ones from the newest (i = 24) down.
    expect(rows[0]?.text).toContain("Chrome on macOS");
    expect(rows.slice(1, 5).map((row) => row.text.match(/Result (.+?) Method/)?.[1])).toEqual([
      "Wrong code",
      "Success",
      "Wrong password",
      "Locked",
    ]);
    expect(rows.some((row) => row.text.includes("Safari on iOS"))).toBe(false);
  });
});

describe("the way in, named in sign-in activity", () => {
  const wayIn = (text: string) => text.match(/Method (.+?) Browser/)?.[1];

  it("names the password alone, a registration, and a wrong password", async () => {
    const browser = new Browser(AGENTS.chromeMac);
    const fields = registrationFields();
    expect((await browser.post("/register", fields)).headers.get("Location")).toBe("/dashboard");
    await browser.post("/logout", {});
    expect((await browser.signIn(fields.email, "not my password")).status).toBe(401);
    expect((await browser.signIn(fields.email, fields.password)).status).toBe(302);

    const rows = (await browser.account())?.signIns ?? [];
    expect(rows.map(({ result, text }) => [result, wayIn(text)])).toEqual([
      ["success", "Password"],
      ["wrong_password", "Password"],
      ["success", "Registration"],
    ]);
  });

  it("names the second step: the authenticator's code or a recovery code, and the kind of a wrong code", {
    timeout: 30_000,
  }, async () => {
    const me = await createUser({ twoFactor: true });
    const secret = me.totpSecret ?? new Uint8Array();
    const [recoveryCode = ""] = await giveRecoveryCodes(me.id, 1);
    await steadyStep();
    const right = totpCode(secret);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, "0");

    const laptop = new Browser(AGENTS.chromeMac);
    expect((await laptop.signIn(me.email)).headers.get("Location")).toBe("/login/two-factor");
    expect((await laptop.post("/login/two-factor", { code: wrong, method: "totp" })).status).toBe(400);
    expect((await laptop.post("/login/two-factor", { code: right, method: "totp" })).status).toBe(302);

    const phone = new Browser(AGENTS.safariIphone);
    expect((await phone.signIn(me.email)).headers.get("Location")).toBe("/login/two-factor");
    expect((await phone.post("/login/two-factor", { code: "aaaaa-aaaaa", method: "recovery" })).status).toBe(400);
    expect((await phone.post("/login/two-factor", { code: recoveryCode, method: "recovery" })).status).toBe(302);

    const rows = (await laptop.account())?.signIns ?? [];
    expect(rows.map(({ result, text }) => [result, wayIn(text)])).toEqual([
      ["success", "Password + recovery code"],
      ["wrong_code", "Password + recovery code"],
      ["success", "Password + authenticator code"],
      ["wrong_code", "Password + authenticator code"],
    ]);
    // The password step that opened each second step records nothing of its own: the way in is one row.
    expect(await countRows("sign_in_events", "user_id = ?", me.id)).toBe(4);
  });
});

describe("security notices", () => {
  it("a sign-in from a browser new to the account sends one notice; the same browser again sends none", async () => {
    const me = await createUser();
    const laptop = await signedIn(me.email, AGENTS.chromeMac, { country: "DE", city: "Berlin" });
    expect(await noticesTo(me.email, "new_browser")).toBe(1);
    const payload = await env.DB.prepare(
      "SELECT payload FROM email_outbox WHERE to_address = ? AND payload ->> 'event' = 'new_browser'",
    )
      .bind(me.email)
      .first<{ payload: string }>();
    expect(JSON.parse(payload?.payload ?? "{}")).toMatchObject({ browser: "Chrome on macOS", location: "Berlin, DE" });

    // The same browser (its device cookie) again, after signing out: known.
    await laptop.post("/logout", {});
    expect((await laptop.signIn(me.email)).status).toBe(302);
    expect(await noticesTo(me.email, "new_browser")).toBe(1);

    // A wrong password from a new browser is no sign-in: nothing to report.
    const stranger = new Browser(AGENTS.firefoxWindows);
    expect((await stranger.signIn(me.email, "guess")).status).toBe(401);
    expect(await noticesTo(me.email, "new_browser")).toBe(1);

    // A browser without the cookie, and one with another device's cookie, are new.
    await signedIn(me.email, AGENTS.firefoxWindows);
    expect(await noticesTo(me.email, "new_browser")).toBe(2);
    const otherDevice = new Browser(AGENTS.chromeMac);
    otherDevice.setCookie("device", encodeURIComponent(btoa(JSON.stringify("a".repeat(43)))));
    expect((await otherDevice.signIn(me.email)).status).toBe(302);
    expect(await noticesTo(me.email, "new_browser")).toBe(3);
    // That one is known from now on.
    expect((await otherDevice.signIn(me.email)).status).toBe(302);
    expect(await noticesTo(me.email, "new_browser")).toBe(3);
  });

  it("sends none for signing in again in the browser the account was registered in", async () => {
    const browser = new Browser(AGENTS.safariIphone);
    const fields = registrationFields();
    expect((await browser.post("/register", fields)).headers.get("Location")).toBe("/dashboard");
    expect(browser.cookie("device")).toBeTruthy();
    await browser.post("/logout", {});
    expect((await browser.signIn(fields.email, fields.password)).status).toBe(302);
    expect(await noticesTo(fields.email, "new_browser")).toBe(0);
  });

  it("a password change sends one notice, ends the other sessions and keeps this one", async () => {
    const me = await createUser();
    const laptop = await signedIn(me.email, AGENTS.firefoxWindows, { country: "NL", city: "Amsterdam" });
    const phone = await signedIn(me.email, AGENTS.safariIphone);
    const change = (currentPassword: string) =>
      laptop.post("/account", {
        intent: "password",
        currentPassword,
        newPassword: "a-new-password",
        confirmPassword: "a-new-password",
      });

    expect((await change("wrong current password")).status).toBe(400);
    expect(await noticesTo(me.email, "password_changed")).toBe(0);

    expect((await change(TEST_PASSWORD)).status).toBe(200);
    expect(await noticesTo(me.email, "password_changed")).toBe(1);
    const row = await env.DB.prepare(
      "SELECT payload FROM email_outbox WHERE to_address = ? AND payload ->> 'event' = 'password_changed'",
    )
      .bind(me.email)
      .first<{ payload: string }>();
    expect(JSON.parse(row?.payload ?? "{}")).toMatchObject({
      browser: "Firefox on Windows",
      location: "Amsterdam, NL",
    });
    expect(await laptop.account()).not.toBeNull();
    expect(await phone.account()).toBeNull();
  });

  it("a password reset sends one notice, even when the link is submitted twice at once", async () => {
    const me = await createUser();
    const phone = await signedIn(me.email, AGENTS.safariIphone);
    const browser = new Browser(AGENTS.chromeAndroid, { country: "ES", city: "Madrid" });
    await browser.post("/forgot-password", { email: me.email });
    const mail = await env.DB.prepare(
      "SELECT payload FROM email_outbox WHERE to_address = ? AND template = 'password_reset'",
    )
      .bind(me.email)
      .first<{ payload: string }>();
    const token = new URL(JSON.parse(mail?.payload ?? "{}").resetUrl).searchParams.get("token") ?? "";
    const reset = { token, password: "reset-password-1", confirmPassword: "reset-password-1" };

    const answers = await Promise.all([browser.post("/reset-password", reset), browser.post("/reset-password", reset)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410]);
    expect(await noticesTo(me.email, "password_changed")).toBe(1);
    const row = await env.DB.prepare(
      "SELECT payload FROM email_outbox WHERE to_address = ? AND payload ->> 'event' = 'password_changed'",
    )
      .bind(me.email)
      .first<{ payload: string }>();
    expect(JSON.parse(row?.payload ?? "{}")).toMatchObject({ browser: "Chrome on Android", location: "Madrid, ES" });
    expect(await phone.account()).toBeNull();

    // The spent link again: no change, no notice.
    expect((await browser.post("/reset-password", reset)).status).toBe(410);
    expect(await noticesTo(me.email, "password_changed")).toBe(1);
  });
});

describe("what is kept, and for how long", () => {
  it("the cron deletes sign-in records past their keeping time and sessions no longer alive", async () => {
    const me = await createUser();
    const now = Date.now();
    const insert = env.DB.prepare(
      "INSERT INTO sign_in_events (user_id, result, method, created_at) VALUES (?, 'success', 'password', ?)",
    );
    await env.DB.batch([
      insert.bind(me.id, now - SIGN_IN_EVENTS_KEPT_MS - 60_000),
      insert.bind(me.id, now - SIGN_IN_EVENTS_KEPT_MS + 60 * 60_000),
    ]);
    await sessionCookieFor(me.id, now - SESSION_ABSOLUTE_MS - 1000);
    await sessionCookieFor(me.id, now - SESSION_IDLE_MS - 1000);
    const alive = await signedIn(me.email, AGENTS.chromeMac);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);

    expect(await countRows("sign_in_events", "user_id = ?", me.id)).toBe(2);
    expect(
      await countRows("sign_in_events", "user_id = ? AND created_at < ?", me.id, now - SIGN_IN_EVENTS_KEPT_MS),
    ).toBe(0);
    expect(await countRows("sessions", "user_id = ?", me.id)).toBe(1);
    expect(await alive.account()).not.toBeNull();
  });
});

describe("browser names", () => {
  it.each([
    [AGENTS.chromeMac, "Chrome on macOS"],
    [AGENTS.safariIphone, "Safari on iOS"],
    [AGENTS.firefoxWindows, "Firefox on Windows"],
    [AGENTS.chromeAndroid, "Chrome on Android"],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
      "Edge on Windows",
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 YaBrowser/24.6.0.0 Safari/537.36",
      "Yandex Browser on Windows",
    ],
    [
      "Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
      "Samsung Internet on Android",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/470.0.0.0]",
      "Facebook app on iOS",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.0.0 Mobile Safari/537.36 Instagram 337.0.0.0.77 Android",
      "Instagram app on Android",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile DuckDuckGo/5 Safari/537.36",
      "DuckDuckGo on Android",
    ],
    ["Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko", "Internet Explorer on Windows"],
    [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36",
      "Chrome on Linux",
    ],
    [
      "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
      "Chrome on ChromeOS",
    ],
    ["curl/8.5.0", "Unknown browser"],
  ])("%s reads %s", (userAgent, name) => {
    expect(describeBrowser(userAgent)).toBe(name);
  });
});
