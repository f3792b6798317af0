import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PASSKEY_MESSAGES } from "~/lib/passkeys";
import { countRows, createUser, postForm, sessionCookieFor, totpCode } from "../support/fixtures";
import {
  addedAnswer,
  addingOptions,
  addPasskey,
  finishAdding,
  personWithPasskey,
  postJson,
  refusedWith,
  requestOptions,
  toastOf,
  verifyWithPasskey,
} from "../support/passkeys";
import { SoftAuthenticator } from "../support/soft-authenticator";
import { steadyStep } from "../support/two-factor";

/**
 * What guards a passkey beyond its ceremony (docs/product.md, "Passkeys"): removing one asks for a second factor
 * proved in the last 10 minutes, so a stolen session with the password cannot swap the owner's passkey for its
 * own; the first passkey, like the authenticator app, ends every other session; malformed answers are refused.
 */

// The card's dialog confirms that removing a last passkey turns two-factor sign-in off.
const remove = (cookie: string, id: string) =>
  postForm("/account/passkeys", { intent: "remove", id, turnsOff: "confirmed" }, { cookie });
const passkeysOf = (userId: string) => countRows("passkeys", "user_id = ?", userId);
const liveSessionsOf = (userId: string) => countRows("sessions", "user_id = ?", userId);

describe("removing a passkey", () => {
  it("is refused to a session without a fresh second factor, and allowed once a passkey confirms it", async () => {
    const owner = await personWithPasskey();
    // The attacker's copy of a session of the owner's, signed in hours ago: its second factor is stale.
    const stale = await sessionCookieFor(owner.id, Date.now(), { freshSecondFactor: false });
    const refused = await remove(stale, owner.authenticator.credentialId);
    expect(await toastOf(refused)).toEqual({ type: "error", description: PASSKEY_MESSAGES.confirmFirst });
    expect(await passkeysOf(owner.id)).toBe(1);

    // With the passkey itself confirmed (step-up), the same session may remove it.
    expect((await verifyWithPasskey(owner.authenticator, stale)).status).toBe(200);
    const removed = await remove(stale, owner.authenticator.credentialId);
    expect(await toastOf(removed)).toEqual({ type: "success", description: PASSKEY_MESSAGES.removedLast });
    expect(await passkeysOf(owner.id)).toBe(0);
  });

  it("is allowed after the authenticator's code confirms it on the card; a wrong code confirms nothing", async () => {
    const owner = await createUser({ twoFactor: true });
    const fresh = await sessionCookieFor(owner.id);
    const authenticator = await addPasskey(fresh, { proof: {} });
    const stale = await sessionCookieFor(owner.id, Date.now(), { freshSecondFactor: false });
    const confirm = (code: string) => postForm("/account/passkeys", { intent: "confirm", code }, { cookie: stale });

    await steadyStep();
    const wrong = await confirm(totpCode(owner.totpSecret as Uint8Array, Date.now() + 10 * 60_000));
    expect((await toastOf(wrong))?.type).toBe("error");
    expect((await toastOf(await remove(stale, authenticator.credentialId)))?.description).toBe(
      PASSKEY_MESSAGES.confirmFirst,
    );
    const right = await confirm(totpCode(owner.totpSecret as Uint8Array));
    expect(await toastOf(right)).toEqual({ type: "success", description: PASSKEY_MESSAGES.confirmed });
    expect((await toastOf(await remove(stale, authenticator.credentialId)))?.description).toBe(
      PASSKEY_MESSAGES.removed,
    );
  });
});

describe("the first passkey", () => {
  it("ends the account's other sessions, as turning the authenticator app on does; a second one does not", async () => {
    const client = await createUser();
    const mine = await sessionCookieFor(client.id);
    await sessionCookieFor(client.id);
    await sessionCookieFor(client.id);
    expect(await liveSessionsOf(client.id)).toBe(3);
    await addPasskey(mine);
    expect(await liveSessionsOf(client.id)).toBe(1);

    await sessionCookieFor(client.id);
    await addPasskey(mine);
    expect(await liveSessionsOf(client.id)).toBe(2);
  });
});

describe("malformed answers", () => {
  it("a user handle that is not a string is refused with words, not a 500", async () => {
    const client = await personWithPasskey();
    const options = await requestOptions("/passkeys/sign-in");
    const answer = await client.authenticator.assert(options);
    const response = await postJson("/passkeys/sign-in", {
      intent: "verify",
      response: { ...answer, response: { ...answer.response, userHandle: ["x"] } },
    });
    expect(await refusedWith(response, 400)).toBe(PASSKEY_MESSAGES.notRecognised);
  });

  it("only the transports WebAuthn knows are kept, and an oversized body is refused unread", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const authenticator = await SoftAuthenticator.create();
    const answer = await authenticator.register(await addingOptions(cookie));
    const lying = { ...answer, response: { ...answer.response, transports: ["usb", "usb", "teleport", { a: 1 }, 5] } };
    await addedAnswer(await finishAdding(cookie, lying));
    const stored = await env.DB.prepare("SELECT transports FROM passkeys WHERE id = ?")
      .bind(authenticator.credentialId)
      .first<{ transports: string }>();
    expect(JSON.parse(stored?.transports ?? "null")).toEqual(["usb"]);

    const huge = await postJson("/passkeys/sign-in", { intent: "options", padding: "x".repeat(100_000) });
    expect(huge.status).toBe(400);
  });
});

describe("budgets and deactivated admins", () => {
  it("the current password's budget holds against wrong tries sent at once", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const tries = await Promise.all(
      Array.from({ length: 16 }, (_, n) =>
        postJson("/account/passkeys", { intent: "options", currentPassword: `wrong-${n}` }, { cookie }),
      ),
    );
    const statuses = tries.map((response) => response.status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
    expect(await countRows("auth_failures", "scope = 'current-password:user' AND key = ?", client.id)).toBe(10);
  });

  it("a deactivated admin's passkey signs in nothing and is not even marked used", async () => {
    const admin = await personWithPasskey({ role: "admin" });
    await env.DB.prepare("UPDATE users SET deactivated_at = ? WHERE id = ?").bind(Date.now(), admin.id).run();
    const before = await env.DB.prepare("SELECT counter, last_used_at AS lastUsedAt FROM passkeys WHERE id = ?")
      .bind(admin.authenticator.credentialId)
      .first();
    const options = await requestOptions("/passkeys/sign-in");
    const response = await postJson("/passkeys/sign-in", {
      intent: "verify",
      response: await admin.authenticator.assert(options),
    });
    expect(await refusedWith(response, 400)).toBe(PASSKEY_MESSAGES.notRecognised);
    const after = await env.DB.prepare("SELECT counter, last_used_at AS lastUsedAt FROM passkeys WHERE id = ?")
      .bind(admin.authenticator.credentialId)
      .first();
    expect(after).toEqual(before);
  });
});
