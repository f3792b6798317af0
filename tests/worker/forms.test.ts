import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "~/lib/schemas/auth";
import { HTTP_MESSAGES } from "~/server/http.server";
import { createUser, ensureDepositWallets, ORIGIN, postForm, sessionCookieFor } from "../support/fixtures";
import {
  alerts,
  controlAttribute,
  elementsWith,
  errorShown,
  fieldError,
  fieldErrors,
  labelledTexts,
  REFUSED,
  readText,
  refusals,
} from "../support/places";
import { markVerified } from "../support/verification-state";

/** Every table a form's action could write to: a refused body must leave each count as it was. */
const TABLES = [
  "users",
  "profiles",
  "sessions",
  "auth_tokens",
  "auth_failures",
  "transactions",
  "withdrawal_wallets",
  "deposit_wallets",
  "audit_log",
  "email_outbox",
] as const;

async function rowCounts() {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
    counts[table] = row?.n ?? 0;
  }
  return counts;
}

/** A POST as a same-site page (or a script) would send it, with whatever body and type it likes. */
function post(path: string, body: BodyInit | null, contentType: string | null, cookie?: string) {
  const headers: Record<string, string> = {
    "Sec-Fetch-Site": "same-origin",
    Origin: ORIGIN,
    Host: new URL(ORIGIN).host,
  };
  if (contentType) headers["Content-Type"] = contentType;
  if (cookie) headers.Cookie = cookie;
  return exports.default.fetch(`${ORIGIN}${path}`, { method: "POST", redirect: "manual", headers, body });
}

const BOUNDARY = "----formBoundary7MA4YWxkTrZu0gW";

/** Bodies that are not form data, each with the status it must get. */
const BODIES: Array<[name: string, body: string | null, contentType: string | null, status: number, message: string]> =
  [
    [
      "a JSON body",
      JSON.stringify({ email: "someone@example.com", password: "secret1" }),
      "application/json",
      415,
      HTTP_MESSAGES.unsupportedMediaType,
    ],
    [
      "a text/plain body",
      "email=someone@example.com\r\npassword=secret1",
      "text/plain",
      415,
      HTTP_MESSAGES.unsupportedMediaType,
    ],
    [
      "an XML body",
      "<form><email>someone@example.com</email></form>",
      "application/xml",
      415,
      HTTP_MESSAGES.unsupportedMediaType,
    ],
    ["a body without a type", "email=someone@example.com", null, 415, HTTP_MESSAGES.unsupportedMediaType],
    ["an empty body", null, null, 400, HTTP_MESSAGES.noFormData],
    [
      "a truncated multipart body",
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="email"\r\n\r\nsomeone@exam`,
      `multipart/form-data; boundary=${BOUNDARY}`,
      400,
      HTTP_MESSAGES.unreadableForm,
    ],
    [
      "a multipart body without its boundary",
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="email"\r\n\r\nsomeone@example.com\r\n--${BOUNDARY}--\r\n`,
      "multipart/form-data",
      400,
      HTTP_MESSAGES.unreadableForm,
    ],
  ];

interface Target {
  path: string;
  /** Who sends it: nobody, a signed-in client, or an admin. */
  as: "visitor" | "client" | "admin";
}

/** Every form action: each reads its body through readForm. */
const TARGETS: Target[] = [
  { path: "/login", as: "visitor" },
  { path: "/register", as: "visitor" },
  { path: "/forgot-password", as: "visitor" },
  { path: "/reset-password", as: "visitor" },
  { path: "/account", as: "client" },
  { path: "/withdraw", as: "client" },
  { path: "/deposit", as: "client" },
  { path: "/stocks/AAPL/deposit", as: "client" },
  { path: "/user/{client}", as: "admin" },
  { path: "/admin", as: "admin" },
  { path: "/admin/mail", as: "admin" },
];

let cookies: Record<Target["as"], string | undefined>;
let clientId: string;

beforeAll(async () => {
  await ensureDepositWallets();
  const client = await createUser();
  // Verified, so that /withdraw reads the form (an unverified client is refused before it).
  await markVerified(client.id);
  const admin = await createUser({ role: "admin" });
  clientId = client.id;
  cookies = { visitor: undefined, client: await sessionCookieFor(client.id), admin: await sessionCookieFor(admin.id) };
});

function cases(targets: Target[]) {
  return targets.flatMap((target) => BODIES.map((body) => [target.path, ...body, target] as const));
}

describe("a form POST whose body is not form data", () => {
  it.each(cases(TARGETS))(
    "%s: %s answers %i with a clear message and writes nothing",
    async (_path, _name, body, contentType, status, message, target) => {
      const before = await rowCounts();
      const path = target.path.replace("{client}", clientId);
      const response = await post(path, body, contentType, cookies[target.as]);
      expect(response.status).toBe(status);
      const html = await response.text();
      // Rendered by the page's error boundary, inside the site's shell.
      expect(errorShown(html)).toEqual({ title: REFUSED, text: message });
      expect(labelledTexts(html, "Main")).toHaveLength(1);
      expect(await rowCounts()).toEqual(before);
    },
  );

  it("is refused the same way when the page's script sends it (a data request)", async () => {
    const before = await rowCounts();
    const response = await post("/login.data", JSON.stringify({ email: "a@b.co" }), "application/json");
    expect(response.status).toBe(415);
    expect(await rowCounts()).toEqual(before);
  });

  it("still gets the form's own message when it is form data with nothing in it", async () => {
    const before = await rowCounts();
    const response = await post("/login", "", "application/x-www-form-urlencoded");
    expect(response.status).toBe(400);
    expect(refusals(await response.text())).toContain(MESSAGES.signInRequired);
    expect(await rowCounts()).toEqual(before);
  });
});

describe("a refused form field", () => {
  it("is marked invalid and described by its message, which the banner shows too", async () => {
    const response = await postForm("/register", {
      email: `field-${crypto.randomUUID().slice(0, 8)}@example.com`,
      password: "secret1",
      confirmPassword: "secret2",
      firstName: "Jamie",
      lastName: "Rivera",
      phoneNumber: "+44 20 7946 0000",
      username: "jrivera",
      country: "United Kingdom",
      terms: "on",
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(alerts(html)).toContain(MESSAGES.passwordsDoNotMatch);
    const input = /<input[^>]*name="confirmPassword"[^>]*>/.exec(html)?.[0] ?? "";
    expect(input).toContain('aria-invalid="true"');
    const describedBy = /aria-describedby="([^"]+)"/.exec(input)?.[1] ?? "";
    expect(describedBy).not.toBe("");
    expect(fieldError(html, "confirmPassword")).toBe(MESSAGES.passwordsDoNotMatch);
    expect(readText(elementsWith(html, "id", describedBy)[0] ?? "")).toBe(MESSAGES.passwordsDoNotMatch);
    // Only the field the message is about.
    const password = /<input[^>]*name="password"[^>]*>/.exec(html)?.[0] ?? "";
    expect(password).not.toContain("aria-invalid");
  });

  it("keeps the banner alone for a message about the whole form", async () => {
    const { email } = await createUser();
    const response = await postForm("/login", { email, password: "not the password" });
    expect(response.status).toBe(401);
    const html = await response.text();
    expect(alerts(html)).toContain(MESSAGES.invalidCredentials);
    expect(fieldErrors(html)).toEqual([]);
    for (const name of ["email", "password"]) expect(controlAttribute(html, name, "aria-invalid"), name).toBeNull();
  });
});
