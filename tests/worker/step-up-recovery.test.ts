import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { STEP_UP_FIELD, STEP_UP_MESSAGES } from "~/lib/step-up";
import { totpCodeAt } from "~/server/auth/totp.server";
import {
  countRows,
  createUser,
  ensureDepositWallets,
  postForm,
  sessionCookieFor,
  TEST_PASSWORD,
} from "../support/fixtures";
import { addPasskey } from "../support/passkeys";
import { alerts } from "../support/places";
import {
  ACTIONS,
  codeOf,
  expectPrompt,
  fundedClient,
  MINUTE,
  type ProtectedAction,
  postAction,
} from "../support/step-up-actions";
import {
  enrolThroughPages,
  giveRecoveryCodes,
  nextIp,
  signInWithCode,
  signInWithRecoveryCode,
  steadyStep,
} from "../support/two-factor";

/**
 * A recovery code is a way back into an account, not a fresh proof of the authenticator: a session signed in with
 * one is asked for an authenticator's code at its first money act (and told why), and a recovery code typed into
 * the step-up field is a wrong code. Every step-up act, through the real sign-in pages.
 */

beforeAll(async () => {
  await ensureDepositWallets();
});

const sessionsOf = async (userId: string) =>
  (
    await env.DB.prepare(
      "SELECT second_factor_at AS at, second_factor_method AS method FROM sessions WHERE user_id = ? ORDER BY created_at",
    )
      .bind(userId)
      .all<{ at: number | null; method: string | null }>()
  ).results;

const emailOf = async (userId: string) =>
  (await env.DB.prepare("SELECT email FROM users WHERE id = ?").bind(userId).first<{ email: string }>())?.email ?? "";

const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .find((c) => c.startsWith("session="))
    ?.split(";")[0] ?? "";

const withdrawalFields = () => ({
  amount: "10.00",
  cryptoCurrency: "ETH",
  walletAddress: "0x1111111111111111111111111111111111111111",
  idempotencyKey: crypto.randomUUID(),
});

describe.each(Object.keys(ACTIONS))("after a sign-in with a recovery code, %s", (name) => {
  const prepare = ACTIONS[name] as () => Promise<ProtectedAction>;

  it("is refused without a code, with a wrong code and with a recovery code, and goes through with the authenticator's", async () => {
    await steadyStep();
    const action = await prepare();
    const [signInCode = "", typedCode = ""] = await giveRecoveryCodes(action.actor.id, 2);
    const cookie = await signInWithRecoveryCode(await emailOf(action.actor.id), signInCode, { ip: nextIp() });
    expect(await sessionsOf(action.actor.id)).toEqual([{ at: expect.any(Number), method: "recovery_code" }]);

    // No code: the prompt says why a code is asked right after signing in.
    await expectPrompt(await postAction(action, action.fields, { cookie }), STEP_UP_MESSAGES.afterRecoveryCode);
    expect(await action.written()).toBe(0);

    // A wrong authenticator code.
    const wrong = codeOf(action.actor, Date.now() + 10 * MINUTE);
    await expectPrompt(
      await postAction(action, { ...action.fields, [STEP_UP_FIELD]: wrong }, { cookie }),
      STEP_UP_MESSAGES.invalidCode,
    );
    expect(await action.written()).toBe(0);

    // Another unused recovery code: a wrong code here, and it stays unused.
    await expectPrompt(
      await postAction(action, { ...action.fields, [STEP_UP_FIELD]: typedCode }, { cookie }),
      STEP_UP_MESSAGES.invalidCode,
    );
    expect(await action.written()).toBe(0);
    expect(await countRows("recovery_codes", "user_id = ? AND used_at IS NULL", action.actor.id)).toBe(1);

    // The authenticator's code: the act goes through, and the session is fresh from now on.
    await action.succeeded(
      await postAction(action, { ...action.fields, [STEP_UP_FIELD]: codeOf(action.actor) }, { cookie }),
    );
    expect(await action.written()).toBe(1);
    expect((await sessionsOf(action.actor.id))[0]?.method).toBe("totp");
  });
});

describe("how a session proved its second factor", () => {
  it("is recorded at sign-in: the authenticator's code counts for step-up at once, a recovery code does not", async () => {
    await steadyStep();
    const client = await fundedClient();
    const [code = ""] = await giveRecoveryCodes(client.id, 1);
    const email = await emailOf(client.id);
    const withCode = await signInWithCode(email, client.totpSecret as Uint8Array);
    expect(withCode.status).toBe(302);
    const withRecovery = await signInWithRecoveryCode(email, code, { ip: nextIp() });
    expect((await sessionsOf(client.id)).map((s) => s.method)).toEqual(["totp", "recovery_code"]);

    const byCode = await postForm("/withdraw", withdrawalFields(), { cookie: cookieOf(withCode) });
    expect(byCode.status).toBe(302);
    const byRecovery = await postForm("/withdraw", withdrawalFields(), { cookie: withRecovery });
    await expectPrompt(byRecovery, STEP_UP_MESSAGES.afterRecoveryCode);
  });

  it("a session whose method was never recorded (signed in before it was) is not fresh", async () => {
    const client = await fundedClient();
    await steadyStep();
    const signedIn = await signInWithCode(await emailOf(client.id), client.totpSecret as Uint8Array);
    await env.DB.prepare("UPDATE sessions SET second_factor_method = NULL WHERE user_id = ?").bind(client.id).run();
    const response = await postForm("/withdraw", withdrawalFields(), { cookie: cookieOf(signedIn) });
    await expectPrompt(response, STEP_UP_MESSAGES.prompt);
  });

  it("new recovery codes got with a recovery code do not make the session fresh; with the authenticator's code they do", async () => {
    await steadyStep();
    const client = await fundedClient();
    const [signInCode = "", proofCode = ""] = await giveRecoveryCodes(client.id, 2);
    const email = await emailOf(client.id);
    const cookie = await signInWithRecoveryCode(email, signInCode, { ip: nextIp() });
    const before = (await sessionsOf(client.id))[0];

    const renewed = await postForm(
      "/account/two-factor",
      { intent: "regenerate", currentPassword: TEST_PASSWORD, code: proofCode },
      { cookie },
    );
    expect(renewed.status).toBe(200);
    expect(await sessionsOf(client.id)).toEqual([before]);

    const byCode = await postForm(
      "/account/two-factor",
      { intent: "regenerate", currentPassword: TEST_PASSWORD, code: codeOf(client) },
      { cookie },
    );
    expect(byCode.status).toBe(200);
    expect((await sessionsOf(client.id))[0]?.method).toBe("totp");
  });
});

describe("the hold after two-factor sign-in is turned off with a recovery code", () => {
  /** Signs in with a recovery code and turns two-factor off with another: what someone with the sheet can do. */
  async function resetWithRecoveryCodes(person: { id: string }) {
    const [signInCode = "", offCode = ""] = await giveRecoveryCodes(person.id, 2);
    const cookie = await signInWithRecoveryCode(await emailOf(person.id), signInCode, { ip: nextIp() });
    const off = await postForm(
      "/account/two-factor",
      { intent: "disable", currentPassword: TEST_PASSWORD, code: offCode },
      { cookie },
    );
    expect(off.status).toBe(200);
    return cookie;
  }

  it("keeps a client's money in place for 24 hours, two-factor on or off, then lets it move", async () => {
    const client = await fundedClient();
    const cookie = await resetWithRecoveryCodes(client);
    // The owner's two-factor-off notice says so.
    expect(
      await countRows(
        "email_outbox",
        "to_address = (SELECT email FROM users WHERE id = ?) AND payload ->> 'event' = 'two_factor_off' AND payload ->> 'holdUntil' IS NOT NULL",
        client.id,
      ),
    ).toBe(1);
    const before = await countRows("transactions", "user_id = ?", client.id);
    const held = await postForm("/withdraw", withdrawalFields(), { cookie });
    expect(held.status).toBe(403);
    expect(alerts(await held.text())).toContainEqual(expect.stringContaining("Two-factor sign-in was reset recently"));
    expect(await countRows("transactions", "user_id = ?", client.id)).toBe(before);

    await env.DB.prepare("UPDATE users SET second_factor_reset_at = ? WHERE id = ?")
      .bind(Date.now() - 24 * 60 * MINUTE - MINUTE, client.id)
      .run();
    expect((await postForm("/withdraw", withdrawalFields(), { cookie })).status).toBe(302);
  });

  it("holds an admin who set up a new authenticator in that session, even with its right code", async () => {
    await steadyStep();
    const admin = await createUser({ role: "admin" });
    const cookie = await resetWithRecoveryCodes(admin);
    // A new authenticator, set up in the same session: the session counts as fresh, and the code is right.
    const { secret } = await enrolThroughPages(cookie);
    const client = await createUser();
    const entry = await postForm(
      `/user/${client.id}`,
      {
        intent: "entry",
        type: "deposit",
        amount: "10",
        idempotencyKey: crypto.randomUUID(),
        [STEP_UP_FIELD]: totpCodeAt(secret, Date.now() + 30_000),
      },
      { cookie },
    );
    expect(entry.status).toBe(403);
    expect(alerts(await entry.text())).toContainEqual(expect.stringContaining("Two-factor sign-in was reset recently"));
    expect(await countRows("transactions", "user_id = ?", client.id)).toBe(0);
  });

  it("holds a passkey-only client who sets up an authenticator app from a session signed in with a recovery code", async () => {
    await steadyStep();
    const client = await fundedClient({ twoFactor: false });
    const person = await sessionCookieFor(client.id);
    await addPasskey(person);
    // Only the password and the printed codes in hand: the sign-in's second step takes a recovery code.
    const [code = ""] = await giveRecoveryCodes(client.id, 1);
    const cookie = await signInWithRecoveryCode(client.email, code, { ip: nextIp() });
    // An app of the attacker's own, set up in that session: its code is right, and the session counts as fresh.
    const { secret } = await enrolThroughPages(cookie);
    const before = await countRows("transactions", "user_id = ?", client.id);
    const held = await postForm(
      "/withdraw",
      { ...withdrawalFields(), [STEP_UP_FIELD]: totpCodeAt(secret, Date.now() + 30_000) },
      { cookie },
    );
    expect(held.status).toBe(403);
    expect(alerts(await held.text())).toContainEqual(expect.stringContaining("Two-factor sign-in was reset recently"));
    expect(await countRows("transactions", "user_id = ?", client.id)).toBe(before);
  });

  it("does not hold a passkey-only client whose session confirmed the passkey before setting up the app", async () => {
    await steadyStep();
    const client = await fundedClient({ twoFactor: false });
    const cookie = await sessionCookieFor(client.id);
    await addPasskey(cookie);
    const { secret } = await enrolThroughPages(cookie);
    const fields = { ...withdrawalFields(), [STEP_UP_FIELD]: totpCodeAt(secret, Date.now() + 30_000) };
    expect((await postForm("/withdraw", fields, { cookie })).status).toBe(302);
  });

  it("does not start when two-factor sign-in is turned off with the authenticator's code", async () => {
    await steadyStep();
    const client = await fundedClient();
    const signedIn = await signInWithCode(await emailOf(client.id), client.totpSecret as Uint8Array);
    const cookie = cookieOf(signedIn);
    const off = await postForm(
      "/account/two-factor",
      { intent: "disable", currentPassword: TEST_PASSWORD, code: codeOf(client, Date.now() + 30_000) },
      { cookie },
    );
    expect(off.status).toBe(200);
    expect((await postForm("/withdraw", withdrawalFields(), { cookie })).status).toBe(302);
  });
});
