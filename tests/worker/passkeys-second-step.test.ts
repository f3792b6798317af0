import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PASSKEY_MESSAGES } from "~/lib/passkeys";
import { TWO_FACTOR_MESSAGES } from "~/lib/schemas/two-factor";
import { completeSecondStepWith } from "~/server/auth/second-step.server";
import { openChallenge } from "~/server/auth/sign-in.server";
import { appEnv, cookieFrom, countRows, db, getPage } from "../support/fixtures";
import {
  personWithPasskey,
  postJson,
  refusedWith,
  requestOptions,
  sessionsOf,
  verifyWithPasskey,
} from "../support/passkeys";
import { buttonTexts, elementsWith, elementTexts, fieldLabel, linkTexts, readText } from "../support/places";
import { challengeCookieFrom, nextIp, passwordStep } from "../support/two-factor";

/**
 * A passkey as the sign-in's second step (docs/product.md, "Passkeys"): holding one turns two-factor sign-in on,
 * so a password is followed by the second step, which the account's own passkey completes.
 */

/** The password step of an account that holds a passkey: the browser's open second step. */
async function passwordDone(email: string) {
  const response = await passwordStep(email, undefined, { ip: nextIp() });
  expect(response.status).toBe(302);
  expect(response.headers.get("Location")).toMatch(/^\/login\/two-factor/);
  expect(cookieFrom(response, "session")).toBe("");
  return challengeCookieFrom(response);
}

describe("a passkey as the sign-in's second step", () => {
  it("is asked for after the password, and completes the sign-in", async () => {
    const client = await personWithPasskey();
    const challenge = await passwordDone(client.email);
    const response = await verifyWithPasskey(client.authenticator, challenge);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ redirectTo: "/dashboard" });
    const cookie = cookieFrom(response);
    expect((await getPage("/dashboard", cookie)).status).toBe(200);
    expect((await sessionsOf(client.id)).at(-1)).toEqual({ signIn: "password", secondFactor: "passkey" });
    // The second step is over: its cookie is cleared, and it cannot be answered again.
    expect(cookieFrom(response, "sign-in-challenge")).toBe("sign-in-challenge=");
    expect(await countRows("sign_in_challenges", "user_id = ?", client.id)).toBe(0);
  });

  it("speaks to a passkey-only account as one: its passkey first, its recovery codes on request, never an app's code", async () => {
    const client = await personWithPasskey();
    const challenge = await passwordDone(client.email);
    const html = await (await getPage("/login/two-factor", challenge)).text();
    expect(elementTexts(html, "p")).toContain("Confirm it is you with your passkey.");
    expect(buttonTexts(html)).toContain("Use a passkey");
    expect(fieldLabel(html, "code")).toBeNull();
    expect(readText(elementsWith(html, "id", "main")[0] ?? "")).not.toMatch(/authenticator/i);
    // The first passkey brought recovery codes: they are offered, and their field is there on request.
    expect(linkTexts(html)).toContain("Use a recovery code instead");
    const recovery = await (await getPage("/login/two-factor?method=recovery", challenge)).text();
    expect(fieldLabel(recovery, "code")).toBe(TWO_FACTOR_MESSAGES.recoveryPrompt);
    expect(linkTexts(recovery)).not.toContain("Use your authenticator app instead");
    // With every code used, none is offered, and the way to support is.
    await env.DB.prepare("UPDATE recovery_codes SET used_at = 1 WHERE user_id = ?").bind(client.id).run();
    const spent = await (await getPage("/login/two-factor?method=recovery", challenge)).text();
    expect(linkTexts(spent)).not.toContain("Use a recovery code instead");
    expect(fieldLabel(spent, "code")).not.toBe(TWO_FACTOR_MESSAGES.recoveryPrompt);
    expect(elementTexts(spent, "p")).toContainEqual(expect.stringMatching(/^Lost your passkey\?/));
  });

  it("takes an admin with an authenticator app and a passkey to the back office", async () => {
    const admin = await personWithPasskey({ role: "admin" });
    const response = await verifyWithPasskey(admin.authenticator, await passwordDone(admin.email));
    expect(await response.json()).toEqual({ redirectTo: "/admin" });
  });

  it("cannot be answered by another account's passkey, which leaves the step open for the right one", async () => {
    const client = await personWithPasskey();
    const other = await personWithPasskey();
    const challenge = await passwordDone(client.email);
    const before = await sessionsOf(client.id);

    // The options list only the account's own passkeys; an answer from another one is still refused.
    const options = await requestOptions("/passkeys/verify", { cookie: challenge });
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([client.authenticator.credentialId]);
    const stolen = await other.authenticator.assert(options, { userHandle: null });
    const refused = await postJson("/passkeys/verify", { intent: "verify", response: stolen }, { cookie: challenge });
    expect(await refusedWith(refused, 400)).toBe(PASSKEY_MESSAGES.notRecognised);
    expect(refused.headers.getSetCookie().some((c) => c.startsWith("session="))).toBe(false);
    expect(await sessionsOf(client.id)).toEqual(before);

    expect((await verifyWithPasskey(client.authenticator, challenge)).status).toBe(200);
  });

  it("is refused without an open second step", async () => {
    const client = await personWithPasskey();
    const response = await postJson("/passkeys/verify", { intent: "options" });
    expect(await refusedWith(response, 401)).toBe(PASSKEY_MESSAGES.expired);
    const answer = await client.authenticator.assert(await requestOptions("/passkeys/sign-in"));
    const verify = await postJson("/passkeys/verify", { intent: "verify", response: answer });
    expect(await refusedWith(verify, 401)).toBe(PASSKEY_MESSAGES.expired);
  });

  it("does not take an answer to a passkey sign-in's challenge", async () => {
    const client = await personWithPasskey();
    const challenge = await passwordDone(client.email);
    const answer = await client.authenticator.assert(await requestOptions("/passkeys/sign-in"));
    const response = await postJson("/passkeys/verify", { intent: "verify", response: answer }, { cookie: challenge });
    expect(await refusedWith(response, 400)).toBe(PASSKEY_MESSAGES.expired);
  });
});

describe("one second step, two proofs at once", () => {
  it("a passkey and a code completing it at the same moment make one session, not two", async () => {
    const person = await personWithPasskey({ twoFactor: true });
    const challengeCookie = await passwordDone(person.email);
    const request = new Request("http://localhost/login/two-factor", { headers: { Cookie: challengeCookie } });
    const context = { db, env: appEnv, bindings: env, ctx: createExecutionContext(), cf: null };
    const challenge = await openChallenge(context, request);
    if (!challenge) throw new Error("the second step is not open");
    const before = (await sessionsOf(person.id)).length;

    // Both proofs were right; each request goes on to complete the sign-in with the challenge it read.
    const outcomes = await Promise.all([
      completeSecondStepWith(context, request, challenge, "passkey", Date.now()),
      completeSecondStepWith(context, request, challenge, "totp", Date.now()),
    ]);
    expect(outcomes.filter((outcome) => outcome !== null)).toHaveLength(1);
    expect((await sessionsOf(person.id)).length).toBe(before + 1);
  });
});
