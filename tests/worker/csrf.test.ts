import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser, ORIGIN, sessionCookieFor } from "../support/fixtures";

const post = (headers: Record<string, string>) =>
  exports.default.fetch(`${ORIGIN}/logout`, { method: "POST", headers, redirect: "manual" });

async function sessionCount(userId: string) {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?")
    .bind(userId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe("CSRF protection", () => {
  it("refuses a cross-site POST with 403 and leaves the session alone", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const response = await post({ Cookie: cookie, "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect(await sessionCount(client.id)).toBe(1);
  });

  it("refuses a POST whose Origin is another site when Sec-Fetch-Site is absent", async () => {
    const response = await post({ Origin: "https://evil.example" });
    expect(response.status).toBe(403);
  });

  it("refuses a same-site but cross-origin POST (a sibling subdomain)", async () => {
    const response = await post({ "Sec-Fetch-Site": "same-site", Origin: "https://other.localhost" });
    expect(response.status).toBe(403);
  });

  it("lets a same-origin POST through: Sign Out ends the session and goes home", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const response = await post({ Cookie: cookie, "Sec-Fetch-Site": "same-origin", Origin: ORIGIN });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(response.headers.get("Set-Cookie")).toMatch(/^session=;.*Max-Age=0/);
    expect(await sessionCount(client.id)).toBe(0);
  });

  it("lets GET requests through whatever their origin", async () => {
    const response = await exports.default.fetch(`${ORIGIN}/`, { headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(response.status).toBe(200);
  });
});
