import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createToastHeader } from "~/server/toast.server";
import { appEnv, createUser, ORIGIN, sessionCookieFor } from "../support/fixtures";
import {
  buttonTexts,
  elementsWith,
  elementTexts,
  heading,
  labelledTexts,
  linkHref,
  linkTexts,
  scripts,
  shownToast,
} from "../support/places";

function hrefsIn(html: string, landmark: "Main" | "Footer"): string[] {
  const start = html.indexOf(`aria-label="${landmark}"`);
  const end = html.indexOf("</nav>", start);
  return [...html.slice(start, end).matchAll(/href="([^"]+)"/g)].map((m) => m[1] ?? "");
}

/** The markup of the navigation landmark named `landmark`; empty when the page has none. */
const nav = (html: string, landmark: "Main" | "Footer") => elementsWith(html, "aria-label", landmark)[0] ?? "";

async function page(path: string, cookie?: string) {
  const response = await exports.default.fetch(`${ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
  return { response, html: await response.text() };
}

describe("app shell", () => {
  it("shows a visitor the signed-out links, the footer and the copyright year", async () => {
    const { response, html } = await page("/");
    expect(response.status).toBe(200);
    expect(hrefsIn(html, "Main")).toEqual(["/", "/", "/about-us", "/login", "/register"]);
    expect(buttonTexts(nav(html, "Main"))).not.toContain("Sign Out");
    expect(hrefsIn(html, "Footer")).toEqual([
      "/",
      "/about-us",
      "/contact-us",
      "/privacy",
      "/terms-of-service",
      `mailto:${appEnv.SUPPORT_EMAIL}`,
    ]);
    expect(elementTexts(html, "footer")[0]).toContain(
      `© ${new Date().getUTCFullYear()} ${appEnv.BRAND_NAME}. All rights reserved.`,
    );
    expect(linkHref(html, "Start Trading")).toBe("/deposit");
  });

  it("shows a signed-in client the client links and Sign Out", async () => {
    const client = await createUser({ role: "user" });
    const { html } = await page("/", await sessionCookieFor(client.id));
    expect(hrefsIn(html, "Main")).toEqual([
      "/",
      "/dashboard",
      "/portfolio",
      "/transactions",
      "/deposit",
      "/withdraw",
      "/trading-room",
      "/stocks",
      "/account",
      "/notifications",
    ]);
    expect(buttonTexts(nav(html, "Main"))).toContain("Sign Out");
  });

  it("shows an admin the Admin Panel and Account only, an owner Alerts and Team too, compliance Alerts", async () => {
    const admin = await createUser({ role: "admin", roles: ["operator"] });
    const { html } = await page("/", await sessionCookieFor(admin.id));
    expect(hrefsIn(html, "Main")).toEqual(["/", "/admin", "/account"]);
    expect(linkTexts(nav(html, "Main"))).toContain("Admin Panel");
    const owner = await createUser({ role: "admin", roles: ["owner"] });
    const owners = await page("/", await sessionCookieFor(owner.id));
    expect(hrefsIn(owners.html, "Main")).toEqual(["/", "/admin", "/admin/alerts", "/admin/team", "/account"]);
    const officer = await createUser({ role: "admin", roles: ["compliance"] });
    const officers = await page("/", await sessionCookieFor(officer.id));
    expect(hrefsIn(officers.html, "Main")).toEqual(["/", "/admin", "/admin/alerts", "/account"]);
  });

  it("shows an admin who must still set up two-factor sign-in only Sign Out: every other page sends them back", async () => {
    const admin = await createUser({ role: "admin", twoFactor: false });
    const { html } = await page("/account/two-factor", await sessionCookieFor(admin.id));
    expect(hrefsIn(html, "Main")).toEqual(["/"]);
    expect(buttonTexts(nav(html, "Main"))).toContain("Sign Out");
    expect(linkTexts(nav(html, "Main"))).not.toContain("Admin Panel");
  });

  it("treats an idle-expired session as signed out", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id, Date.now() - 31 * 60 * 1000);
    const { html } = await page("/", cookie);
    expect(hrefsIn(html, "Main")).toContain("/login");
  });

  it("answers unknown paths with a 404 page inside the shell", async () => {
    const { response, html } = await page("/no-such-page");
    expect(response.status).toBe(404);
    expect(heading(html)).toBe("Page not found");
    expect(labelledTexts(html, "Main")).toHaveLength(1);
    expect(labelledTexts(html, "Footer")).toHaveLength(1);
  });

  it("shows a flash toast once and clears it", async () => {
    const flash = await createToastHeader(appEnv, {
      type: "success",
      description: "Deposit request submitted successfully",
    });
    const { response, html } = await page("/", flash.split(";")[0]);
    expect(await shownToast(html)).toEqual({ type: "success", text: "Deposit request submitted successfully" });
    expect(response.headers.get("Set-Cookie")).toMatch(/^toast=;.*Max-Age=0/);
  });
});

describe("security headers", () => {
  it("send a CSP whose nonce is the one on the page's scripts", async () => {
    const { response, html } = await page("/");
    const csp = response.headers.get("Content-Security-Policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    const nonces = scripts(html).map((script) => script.nonce);
    expect(nonces.length).toBeGreaterThan(0);
    expect(new Set(nonces)).toEqual(new Set([nonce]));
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    // HSTS only in production: local development runs on plain http.
    expect(response.headers.get("Strict-Transport-Security")).toBeNull();
  });

  it("use a fresh nonce for every response", async () => {
    const first = (await page("/")).response.headers.get("Content-Security-Policy");
    const second = (await page("/")).response.headers.get("Content-Security-Policy");
    expect(first).not.toEqual(second);
  });
});
