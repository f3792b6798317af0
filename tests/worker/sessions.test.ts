import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "~/server/crypto.server";
import { readAppEnv } from "~/server/env.server";
import { hashPassword, PRODUCTION_SCRYPT_COST, verifyPassword } from "~/server/password.server";
import { createSession, getSessionUser, SESSION_ABSOLUTE_MS } from "~/server/session.server";
import { appEnv, createUser, db, TEST_SCRYPT_COST } from "../support/fixtures";

describe("password hashing", () => {
  it("verifies the right password only, with the cost stored in the hash", async () => {
    const hash = await hashPassword("s3cret-pass", TEST_SCRYPT_COST);
    expect(hash).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword("s3cret-pass", hash)).toBe(true);
    expect(await verifyPassword("s3cret-pasS", hash)).toBe(false);
    expect(await verifyPassword("s3cret-pass", "not-a-hash")).toBe(false);
  });

  it("uses the production password cost by default (docs/product.md, Accounts and sessions)", async () => {
    expect(PRODUCTION_SCRYPT_COST).toEqual({ N: 2 ** 15, r: 8, p: 3 });
    const hash = await hashPassword("production-cost");
    expect(hash.startsWith("scrypt$32768$8$3$")).toBe(true);
    expect(await verifyPassword("production-cost", hash)).toBe(true);
  });
});

describe("sessions", () => {
  const requestWith = (setCookie: string) =>
    new Request("http://localhost/", { headers: { Cookie: setCookie.split(";")[0] ?? "" } });

  it("store only the token's hash and set an HttpOnly, SameSite=Lax session cookie", async () => {
    const user = await createUser();
    const { token, setCookie } = await createSession(db, appEnv, user.id);
    expect(token.length).toBeGreaterThanOrEqual(43); // 32 random bytes, base64url
    const rows = await env.DB.prepare("SELECT id FROM sessions WHERE user_id = ?").bind(user.id).all<{ id: string }>();
    expect(rows.results).toEqual([{ id: await sha256Hex(token) }]);
    expect(JSON.stringify(rows.results)).not.toContain(token);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).not.toMatch(/Max-Age|Expires/);
  });

  it("end after 12 hours even when the user stays active", async () => {
    const user = await createUser();
    const start = Date.now() - SESSION_ABSOLUTE_MS - 1_000;
    const { setCookie } = await createSession(db, appEnv, user.id, start);
    await env.DB.prepare("UPDATE sessions SET last_seen_at = ? WHERE user_id = ?").bind(Date.now(), user.id).run();
    expect(await getSessionUser(requestWith(setCookie), { db, env: appEnv })).toBeNull();
  });

  it("slide the idle window forward when the user is active", async () => {
    const user = await createUser({ firstName: "Robin" });
    const twentyMinutesAgo = Date.now() - 20 * 60 * 1000;
    const { setCookie } = await createSession(db, appEnv, user.id, twentyMinutesAgo);
    const found = await getSessionUser(requestWith(setCookie), { db, env: appEnv });
    expect(found).toMatchObject({ id: user.id, role: "user", firstName: "Robin" });
    const row = await env.DB.prepare("SELECT last_seen_at FROM sessions WHERE user_id = ?").bind(user.id).first<{
      last_seen_at: number;
    }>();
    expect(row?.last_seen_at).toBeGreaterThan(twentyMinutesAgo + 19 * 60 * 1000);
  });

  it("ignore a forged token", async () => {
    const request = new Request("http://localhost/", { headers: { Cookie: "session=forged-token-value" } });
    expect(await getSessionUser(request, { db, env: appEnv })).toBeNull();
  });
});

describe("configuration", () => {
  it("refuses to run with a missing or weak secret, naming it", () => {
    expect(() => readAppEnv({ ...env, SESSION_SECRET: "short" })).toThrow(/SESSION_SECRET must be at least 32/);
    const { MAIL_API_TOKEN: _dropped, ...withoutToken } = env;
    expect(() => readAppEnv(withoutToken as typeof env)).toThrow(/MAIL_API_TOKEN/);
  });
});
