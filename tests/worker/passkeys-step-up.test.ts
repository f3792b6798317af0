import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { PASSKEY_MESSAGES } from "~/lib/passkeys";
import { STEP_UP_FIELD, STEP_UP_MESSAGES } from "~/lib/step-up";
import { cookieFrom, countRows, ensureDepositWallets, postForm, sessionCookieFor } from "../support/fixtures";
import {
  addPasskey,
  personWithPasskey,
  postJson,
  refusedWith,
  requestOptions,
  signInWithPasskey,
  verifyWithPasskey,
} from "../support/passkeys";
import { controlAttribute, refusals, statuses } from "../support/places";
import { cookieOf, expectPrompt, fundedClient, withdrawalFields } from "../support/step-up-actions";
import {
  giveRecoveryCodes,
  nextIp,
  passwordStep,
  signInWithCode,
  signInWithRecoveryCode,
  steadyStep,
} from "../support/two-factor";

/**
 * A passkey for step-up (docs/product.md, "Step-up for money" and "Passkeys"): used through /passkeys/verify in a
 * signed-in session, it makes the session fresh as an authenticator's code does; a session signed in with a
 * passkey is fresh from the start; a recovery code never is.
 */

beforeAll(async () => {
  await ensureDepositWallets();
});

const withdrawalsOf = (userId: string) =>
  countRows("transactions", "user_id = ? AND transaction_type = 'withdraw'", userId);
const withdraw = (cookie: string) => postForm("/withdraw", withdrawalFields(), { cookie });

/** A verified client with $100, an authenticator app and a passkey. */
async function clientWithBoth() {
  const client = await fundedClient();
  return { ...client, authenticator: await addPasskey(await sessionCookieFor(client.id)) };
}

describe("a passkey-only account's step-up", () => {
  it("is asked for its passkey, never for an app's code, and told why after a recovery code", async () => {
    const client = await fundedClient({ twoFactor: false });
    const authenticator = await addPasskey(await sessionCookieFor(client.id));
    const stale = await cookieOf(client, "never");
    const asked = await withdraw(stale);
    await expectPrompt(asked, STEP_UP_MESSAGES.passkeyPrompt);
    const viaRecovery = await sessionCookieFor(client.id, Date.now(), { secondFactorMethod: "recovery_code" });
    const told = await withdraw(viaRecovery);
    expect(told.status).toBe(401);
    const text = await told.text();
    expect(statuses(text)).toContain(STEP_UP_MESSAGES.afterRecoveryCodePasskey);
    // No code field to fill, and nothing the form says names an app.
    expect(controlAttribute(text, STEP_UP_FIELD, "name")).toBeNull();
    for (const said of [...statuses(text), ...refusals(text)]) expect(said).not.toContain("authenticator app");
    expect(await withdrawalsOf(client.id)).toBe(0);
    // The passkey answers, and the same withdrawal then goes through.
    expect((await verifyWithPasskey(authenticator, viaRecovery)).status).toBe(200);
    expect((await withdraw(viaRecovery)).status).toBe(302);
  });
});

describe("a passkey for step-up", () => {
  it("makes a session that is not fresh fresh: the withdrawal asked for a code then goes through without one", async () => {
    const client = await clientWithBoth();
    const cookie = await cookieOf(client, "never");
    await expectPrompt(await withdraw(cookie));
    expect(await withdrawalsOf(client.id)).toBe(0);

    const verified = await verifyWithPasskey(client.authenticator, cookie);
    expect(verified.status).toBe(200);
    expect(await verified.json()).toEqual({ verified: true });
    expect((await withdraw(cookie)).status).toBe(302);
    expect(await withdrawalsOf(client.id)).toBe(1);
  });

  it("makes only its own session fresh", async () => {
    const client = await clientWithBoth();
    const [used, other] = [await cookieOf(client, "never"), await cookieOf(client, "never")];
    expect((await verifyWithPasskey(client.authenticator, used)).status).toBe(200);
    await expectPrompt(await withdraw(other));
  });

  it("is not answered for another session's challenge, or by another account's passkey", async () => {
    const client = await clientWithBoth();
    const cookie = await cookieOf(client, "never");
    const elsewhere = await cookieOf(client, "never");
    const answer = await client.authenticator.assert(await requestOptions("/passkeys/verify", { cookie: elsewhere }));
    const crossed = await postJson("/passkeys/verify", { intent: "verify", response: answer }, { cookie });
    expect(await refusedWith(crossed, 400)).toBe(PASSKEY_MESSAGES.expired);

    const other = await personWithPasskey();
    const stolen = await other.authenticator.assert(await requestOptions("/passkeys/verify", { cookie }));
    const refused = await postJson("/passkeys/verify", { intent: "verify", response: stolen }, { cookie });
    expect(await refusedWith(refused, 400)).toBe(PASSKEY_MESSAGES.notRecognised);

    await expectPrompt(await withdraw(cookie));
    expect(await withdrawalsOf(client.id)).toBe(0);
  });

  it("is refused to an account without one, which is told so", async () => {
    const client = await fundedClient();
    const response = await postJson(
      "/passkeys/verify",
      { intent: "options" },
      { cookie: await cookieOf(client, "never") },
    );
    expect(await refusedWith(response, 409)).toBe(PASSKEY_MESSAGES.noPasskey);
  });

  it("makes a session signed in with a recovery code fresh", async () => {
    await steadyStep();
    const client = await clientWithBoth();
    const [code = ""] = await giveRecoveryCodes(client.id, 1);
    const cookie = await signInWithRecoveryCode(client.email, code, { ip: nextIp() });
    await expectPrompt(await withdraw(cookie), STEP_UP_MESSAGES.afterRecoveryCode);

    expect((await verifyWithPasskey(client.authenticator, cookie)).status).toBe(200);
    expect((await withdraw(cookie)).status).toBe(302);
    expect(await withdrawalsOf(client.id)).toBe(1);
  });
});

/** Each way into an account with an authenticator app, a passkey and recovery codes: the signed-in cookie. */
const WAYS_IN: Record<string, (client: Awaited<ReturnType<typeof clientWithBoth>>) => Promise<string>> = {
  "a password and the authenticator's code": async (client) =>
    cookieFrom(await signInWithCode(client.email, client.totpSecret as Uint8Array)),
  "a password and a recovery code": async (client) => {
    const [code = ""] = await giveRecoveryCodes(client.id, 1);
    return signInWithRecoveryCode(client.email, code, { ip: nextIp() });
  },
  "a password and the passkey": async (client) => {
    const challenge = cookieFrom(await passwordStep(client.email, undefined, { ip: nextIp() }), "sign-in-challenge");
    return cookieFrom(await verifyWithPasskey(client.authenticator, challenge));
  },
  "the passkey alone": async (client) => cookieFrom(await signInWithPasskey(client.authenticator, { ip: nextIp() })),
};

describe.each(Object.entries(WAYS_IN))("a withdrawal right after signing in with %s", (way, signIn) => {
  const fresh = way !== "a password and a recovery code";

  it(fresh ? "goes through without a code" : "asks for the authenticator's code first", async () => {
    await steadyStep();
    const client = await clientWithBoth();
    const cookie = await signIn(client);
    expect(cookie).toMatch(/^session=./);

    const response = await withdraw(cookie);
    if (fresh) expect(response.status).toBe(302);
    else await expectPrompt(response, STEP_UP_MESSAGES.afterRecoveryCode);
    expect(await withdrawalsOf(client.id)).toBe(fresh ? 1 : 0);
    const method = await env.DB.prepare(
      "SELECT second_factor_method AS m FROM sessions WHERE user_id = ? ORDER BY created_at DESC",
    )
      .bind(client.id)
      .first<{ m: string }>();
    expect(method?.m).toBe(way.includes("passkey") ? "passkey" : way.includes("recovery") ? "recovery_code" : "totp");
  });
});
