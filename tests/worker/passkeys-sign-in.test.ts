import { env } from "cloudflare:workers";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { describe, expect, it } from "vitest";
import { PASSKEY_MESSAGES } from "~/lib/passkeys";
import { OPEN_CHALLENGES_PER_REQUESTER } from "~/server/auth/passkey-ceremony.server";
import { cookieFrom, countRows, getPage } from "../support/fixtures";
import {
  auditsOf,
  expireChallenge,
  noticesOf,
  personWithPasskey,
  postJson,
  refusedWith,
  requestOptions,
  sessionsOf,
  signInWithPasskey,
} from "../support/passkeys";
import { SoftAuthenticator } from "../support/soft-authenticator";

/**
 * Signing in with a passkey on /login (docs/product.md, "Passkeys"): both factors at once, so no code follows, for
 * an admin either. Every answer that is not the passkey's own, fresh and for this site is refused, and no session
 * is made.
 */

const sessionCount = (userId: string) => countRows("sessions", "user_id = ?", userId);

/** The way in of each sign-in record on /account, newest first, as the Method column reads. */
async function waysInShown(cookie: string) {
  const html = await (await getPage("/account", cookie)).text();
  const rows = [...html.matchAll(/<tr[^>]*data-testid="sign-in-row"[^>]*>([\s\S]*?)<\/tr>/g)];
  return rows.map(([, row = ""]) => [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)][2]?.[1]?.replace(/<[^>]+>/g, ""));
}

describe("signing in with a passkey", () => {
  it("goes to the dashboard with a session that opens it, recorded as a passkey sign-in", async () => {
    const client = await personWithPasskey();
    const response = await signInWithPasskey(client.authenticator);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ redirectTo: "/dashboard" });
    const cookie = cookieFrom(response);
    expect(cookie).not.toBe("");
    expect((await getPage("/dashboard", cookie)).status).toBe(200);
    expect((await sessionsOf(client.id)).at(-1)).toEqual({ signIn: "passkey", secondFactor: "passkey" });
    expect(await waysInShown(cookie)).toEqual(["Passkey"]);
  });

  it("goes where the visitor was going, on this site only", async () => {
    const client = await personWithPasskey();
    const toHistory = await signInWithPasskey(client.authenticator, { redirectTo: "/history" });
    expect(await toHistory.json()).toEqual({ redirectTo: "/history" });
    const away = await signInWithPasskey(client.authenticator, { redirectTo: "https://evil.example/" });
    expect(await away.json()).toEqual({ redirectTo: "/dashboard" });
  });

  it("takes an admin with a passkey and an authenticator app to the back office without a code", async () => {
    const admin = await personWithPasskey({ role: "admin" });
    const response = await signInWithPasskey(admin.authenticator, { redirectTo: "/dashboard" });

    expect(await response.json()).toEqual({ redirectTo: "/admin" });
    expect((await getPage("/admin", cookieFrom(response))).status).toBe(200);
  });

  it("moves the stored counter forward and records when it was used", async () => {
    const client = await personWithPasskey();
    expect((await signInWithPasskey(client.authenticator)).status).toBe(200);
    const row = await env.DB.prepare("SELECT counter, last_used_at AS usedAt FROM passkeys WHERE user_id = ?")
      .bind(client.id)
      .first<{ counter: number; usedAt: number | null }>();
    expect(row).toEqual({ counter: 1, usedAt: expect.any(Number) });
  });
});

describe("signing in with a passkey: refused, and no session made", () => {
  /** Refused with `message` and `status`, and the account has no session beyond the one it had. */
  async function expectRefused(userId: string, response: Response, message: string, status = 400) {
    const before = await sessionCount(userId);
    expect(await refusedWith(response, status)).toBe(message);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("session="))).toBe(false);
    expect(await sessionCount(userId)).toBe(before);
  }

  it("the same answer sent twice", async () => {
    const client = await personWithPasskey();
    const options = await requestOptions("/passkeys/sign-in");
    const answer = await client.authenticator.assert(options);
    const verify = () => postJson("/passkeys/sign-in", { intent: "verify", response: answer });
    expect((await verify()).status).toBe(200);
    await expectRefused(client.id, await verify(), PASSKEY_MESSAGES.expired);
  });

  it("an answer after its challenge expired", async () => {
    const client = await personWithPasskey();
    const options = await requestOptions("/passkeys/sign-in");
    await expireChallenge(options.challenge);
    const answer = await client.authenticator.assert(options);
    const response = await postJson("/passkeys/sign-in", { intent: "verify", response: answer });
    await expectRefused(client.id, response, PASSKEY_MESSAGES.expired);
  });

  it.each([
    ["another origin", { origin: "https://northwind-markets.example" }],
    ["another relying party", { rpId: "example.com" }],
    ["no user verification", { userVerified: false }],
  ])("an answer made for %s", async (_, lie) => {
    const client = await personWithPasskey();
    await expectRefused(client.id, await signInWithPasskey(client.authenticator, { lie }), PASSKEY_MESSAGES.failed);
  });

  it("an answer whose user handle names another account", async () => {
    const client = await personWithPasskey();
    const other = await personWithPasskey();
    const userHandle = encodeBase64urlNoPadding(new TextEncoder().encode(other.id));
    const response = await signInWithPasskey(client.authenticator, { lie: { userHandle } });
    await expectRefused(client.id, response, PASSKEY_MESSAGES.notRecognised);
    expect(await sessionCount(other.id)).toBe(1);
  });

  it("a passkey no account holds, or another key signing for a stored one", async () => {
    const client = await personWithPasskey();
    const stranger = await SoftAuthenticator.create();
    await expectRefused(client.id, await signInWithPasskey(stranger), PASSKEY_MESSAGES.notRecognised);
    const impostor = await signInWithPasskey(stranger, {
      lie: { credentialId: client.authenticator.credentialId, userHandle: client.authenticator.userHandle },
    });
    await expectRefused(client.id, impostor, PASSKEY_MESSAGES.failed);
  });

  it("a deactivated admin's passkey", async () => {
    const admin = await personWithPasskey({ role: "admin" });
    await env.DB.prepare("UPDATE users SET deactivated_at = ? WHERE id = ?").bind(Date.now(), admin.id).run();
    const response = await signInWithPasskey(admin.authenticator);
    await expectRefused(admin.id, response, PASSKEY_MESSAGES.notRecognised);
  });

  it("a counter that went backwards: refused as a possible copy, audited, and its owner told once", async () => {
    const client = await personWithPasskey();
    await env.DB.prepare("UPDATE passkeys SET counter = 5 WHERE user_id = ?").bind(client.id).run();
    const response = await signInWithPasskey(client.authenticator);
    await expectRefused(client.id, response, PASSKEY_MESSAGES.counterWentBack, 403);
    expect(await auditsOf(client.id, "passkey.counter_went_back")).toBe(1);
    expect(await noticesOf(client.email, "passkey_copied")).toBe(1);
    const stored = await env.DB.prepare("SELECT counter FROM passkeys WHERE user_id = ?")
      .bind(client.id)
      .first<{ counter: number }>();
    expect(stored?.counter).toBe(5);

    // The copy tries again: audited again, but the owner already knows about this passkey at this count.
    await expectRefused(
      client.id,
      await signInWithPasskey(client.authenticator),
      PASSKEY_MESSAGES.counterWentBack,
      403,
    );
    expect(await auditsOf(client.id, "passkey.counter_went_back")).toBe(2);
    expect(await noticesOf(client.email, "passkey_copied")).toBe(1);
    const bell = await env.DB.prepare(
      "SELECT count(*) AS n FROM notifications WHERE user_id = ? AND subject = 'security:passkey_copied'",
    )
      .bind(client.id)
      .first<{ n: number }>();
    expect(bell?.n).toBe(1);
  });

  it("a forged answer with a low counter raises no alarm", async () => {
    const client = await personWithPasskey();
    await env.DB.prepare("UPDATE passkeys SET counter = 5 WHERE user_id = ?").bind(client.id).run();
    const forger = await SoftAuthenticator.create();
    const response = await signInWithPasskey(forger, {
      lie: { credentialId: client.authenticator.credentialId, userHandle: client.authenticator.userHandle },
    });
    await expectRefused(client.id, response, PASSKEY_MESSAGES.failed);
    expect(await auditsOf(client.id, "passkey.counter_went_back")).toBe(0);
  });
});

describe("signing in with a passkey: what one address and one copy can do", () => {
  it("signs in once when a copied passkey sends two answers with one counter at the same time", async () => {
    const client = await personWithPasskey();
    const [first, second] = [await requestOptions("/passkeys/sign-in"), await requestOptions("/passkeys/sign-in")];
    const answers = await Promise.all([
      client.authenticator.assert(first, { counter: 1 }),
      client.authenticator.assert(second, { counter: 1 }),
    ]);
    const responses = await Promise.all(
      answers.map((response) => postJson("/passkeys/sign-in", { intent: "verify", response })),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 403]);
    expect(await sessionCount(client.id)).toBe(2);
  });

  it(`holds at most ${OPEN_CHALLENGES_PER_REQUESTER} open sign-ins per address, and says so`, async () => {
    const ip = "192.0.2.77";
    for (let open = 0; open < OPEN_CHALLENGES_PER_REQUESTER; open += 1)
      await requestOptions("/passkeys/sign-in", { ip });
    const response = await postJson("/passkeys/sign-in", { intent: "options" }, { ip });
    expect(await refusedWith(response, 429)).toBe(PASSKEY_MESSAGES.tooManyOpen);
    expect((await postJson("/passkeys/sign-in", { intent: "options" }, { ip: "192.0.2.78" })).status).toBe(200);
  });

  it("takes no post from another site", async () => {
    const client = await personWithPasskey();
    const answer = await client.authenticator.assert(await requestOptions("/passkeys/sign-in"));
    const response = await postJson(
      "/passkeys/sign-in",
      { intent: "verify", response: answer },
      { origin: "https://evil.example" },
    );
    expect(response.status).toBe(403);
    expect(await sessionCount(client.id)).toBe(1);
  });
});
