import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MESSAGES } from "~/lib/schemas/auth";
import { renderStoredEmail } from "~/server/mail/templates.server";
import { BUDGETS } from "~/server/rate-limit.server";
import {
  appEnv,
  cookieFrom,
  countRows,
  createUser,
  getPage,
  ORIGIN,
  postForm,
  registrationFields,
  sessionCookieFor,
  signedInAdmin,
} from "../support/fixtures";
import { alerts, buttonTexts, shownToast, statuses } from "../support/places";

/**
 * 'Send the link again': a signed-in client whose e-mail address is not confirmed asks for a new confirmation
 * link from the dashboard or Account Settings. Only the newest link works; the budget limits how many are sent.
 */
const BUTTON = "Send the link again";
const LINK_INVALID = "This confirmation link is invalid, has expired or was already used.";
const CONFIRMED = "Thank you: your email address is confirmed.";

/** A client who registered through the form (not confirmed yet): their session and the welcome mail's link. */
async function registered() {
  const fields = registrationFields();
  const response = await postForm("/register", fields);
  expect(response.headers.get("Location")).toBe("/dashboard");
  const email = fields.email.toLowerCase();
  return { email, cookie: cookieFrom(response), welcomeLink: (await linksTo(email))[0] ?? "" };
}

/** Every confirmation link mailed to this address, oldest first (the welcome mail's, then each new one). */
async function linksTo(email: string) {
  const { results } = await env.DB.prepare(
    `SELECT payload FROM email_outbox WHERE to_address = ? AND template IN ('welcome', 'email_confirmation')
     ORDER BY id`,
  )
    .bind(email)
    .all<{ payload: string }>();
  return results.map((row) => {
    const url = new URL(JSON.parse(row.payload).confirmUrl as string);
    return `${url.pathname}${url.search}`;
  });
}

/** 'Send the link again' from a page, as the button posts it; the page it comes back to, with its toast. */
async function sendAgain(cookie: string, from = "/dashboard") {
  const response = await postForm("/account/confirmation", { redirectTo: from }, { cookie });
  expect(response.status).toBe(302);
  const location = response.headers.get("Location") ?? "";
  const page = await getPage(location, `${cookie}; ${cookieFrom(response, "toast")}`);
  return { location, html: await page.text() };
}

/** What the link's page says, in its banner: the confirmation (a status) or the refusal (an alert). */
const openLink = async (link: string) => {
  const html = await (await getPage(link)).text();
  return [...statuses(html), ...alerts(html)];
};

describe("Send the link again", () => {
  it("is offered on the dashboard and Account Settings only while the client's address is not confirmed", async () => {
    const client = await registered();
    for (const page of ["/dashboard", "/account"]) {
      expect(buttonTexts(await (await getPage(page, client.cookie)).text()), page).toContain(BUTTON);
    }
    expect(await openLink(client.welcomeLink)).toContain(CONFIRMED);
    for (const page of ["/dashboard", "/account"]) {
      expect(buttonTexts(await (await getPage(page, client.cookie)).text()), page).not.toContain(BUTTON);
    }
    // An admin (whose address nobody confirms) is never offered it.
    const admin = await signedInAdmin();
    expect(buttonTexts(await (await getPage("/account", admin.cookie)).text())).not.toContain(BUTTON);
  });

  it("mails a new link that works, and the old one is refused from then on", async () => {
    const client = await registered();
    const { location, html } = await sendAgain(client.cookie, "/account");
    expect(location).toBe("/account");
    expect(await shownToast(html)).toEqual({ type: "success", text: MESSAGES.confirmationSent });

    const links = await linksTo(client.email);
    expect(links).toHaveLength(2);
    const [oldLink = "", newLink = ""] = links;
    const { results } = await env.DB.prepare(
      "SELECT payload FROM email_outbox WHERE to_address = ? AND template = 'email_confirmation'",
    )
      .bind(client.email)
      .all<{ payload: string }>();
    const mail = renderStoredEmail("email_confirmation", JSON.parse(results[0]?.payload ?? "null"), appEnv);
    expect(mail.subject).toBe(`Confirm your e-mail address for ${appEnv.BRAND_NAME}`);
    expect(mail.text).toContain("Hello Jamie,");
    expect(mail.text).toContain(`Confirm my e-mail address: ${ORIGIN}${newLink}`);

    expect(await openLink(oldLink)).toContain(LINK_INVALID);
    expect(await countRows("users", "email = ? AND email_confirmed_at IS NULL", client.email)).toBe(1);
    expect(await openLink(newLink)).toContain(CONFIRMED);
    expect(await countRows("users", "email = ? AND email_confirmed_at IS NOT NULL", client.email)).toBe(1);
  });

  it("sends at most the budget's links an hour, then refuses clearly and changes nothing", async () => {
    const client = await registered();
    const { limit } = BUDGETS.confirmResendPerAccount;
    for (let sent = 0; sent < limit; sent++) {
      expect(await shownToast((await sendAgain(client.cookie)).html)).toEqual({
        type: "success",
        text: MESSAGES.confirmationSent,
      });
    }
    const refused = await sendAgain(client.cookie);
    expect(refused.location).toBe("/dashboard");
    expect(await shownToast(refused.html)).toEqual({ type: "error", text: MESSAGES.tooManyConfirmations });

    const links = await linksTo(client.email);
    expect(links).toHaveLength(1 + limit);
    expect(
      await countRows(
        "auth_tokens",
        "purpose = 'confirm' AND user_id = (SELECT id FROM users WHERE email = ?)",
        client.email,
      ),
    ).toBe(1 + limit);
    // The refusal spent nothing: the latest link still works.
    expect(await openLink(links.at(-1) ?? "")).toContain(CONFIRMED);
  });

  it("refuses an address that is already confirmed, and mails nothing", async () => {
    const client = await registered();
    expect(await openLink(client.welcomeLink)).toContain(CONFIRMED);
    const { html } = await sendAgain(client.cookie, "/account");
    expect(await shownToast(html)).toEqual({ type: "error", text: MESSAGES.alreadyConfirmed });
    expect(await linksTo(client.email)).toHaveLength(1);
    // Nor does the refusal use up the budget.
    expect(
      await countRows(
        "auth_failures",
        "scope = ? AND key = (SELECT id FROM users WHERE email = ?)",
        BUDGETS.confirmResendPerAccount.scope,
        client.email,
      ),
    ).toBe(0);
  });

  it("stores the new link with its mail or not at all: an outbox that refuses the mail leaves the old link working", async () => {
    const client = await registered();
    await env.DB.exec(
      "CREATE TRIGGER refuse_confirmation_mail BEFORE INSERT ON email_outbox WHEN NEW.template = 'email_confirmation' BEGIN SELECT RAISE(ABORT, 'outbox refused'); END",
    );
    try {
      const response = await postForm("/account/confirmation", { redirectTo: "/dashboard" }, { cookie: client.cookie });
      expect(response.status).toBe(500);
    } finally {
      await env.DB.exec("DROP TRIGGER refuse_confirmation_mail");
    }
    expect(await linksTo(client.email)).toHaveLength(1);
    expect(await openLink(client.welcomeLink)).toContain(CONFIRMED);
  });

  it("is a client's: signed out goes to sign in, an admin to the desk, and a GET to Account Settings", async () => {
    const signedOut = await postForm("/account/confirmation", { redirectTo: "/dashboard" });
    expect(signedOut.headers.get("Location")).toMatch(/^\/login/);
    const admin = await signedInAdmin();
    const asAdmin = await postForm("/account/confirmation", {}, { cookie: admin.cookie });
    expect(asAdmin.headers.get("Location")).toBe("/admin");
    const client = await createUser();
    const get = await getPage("/account/confirmation", await sessionCookieFor(client.id));
    expect(get.headers.get("Location")).toBe("/account");
    expect(await countRows("email_outbox", "template = 'email_confirmation' AND to_address = ?", admin.email)).toBe(0);
  });
});
