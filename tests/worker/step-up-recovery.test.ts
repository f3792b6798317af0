import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { STEP_UP_FIELD, STEP_UP_MESSAGES } from "~/lib/step-up";
import { countRows, ensureDepositWallets, postForm, TEST_PASSWORD } from "../support/fixtures";
import { ACTIONS, codeOf, expectPrompt, fundedClient, MINUTE, type ProtectedAction } from "../support/step-up-actions";
import { giveRecoveryCodes, signInWithCode, signInWithRecoveryCode, steadyStep } from "../support/two-factor";

/**
 * A recovery code is a way back into an account, not a fresh proof of the authenticator: a session signed in with
 * one is asked for an authenticator's code at its first money act (and told why), and a recovery code typed into
 * the step-up field is a wrong code. Every step-up act, through the real sign-in pages.
 */

beforeAll(async () => {
  await ensureDepositWallets();
});

let addresses = 0;
/** Each sign-in from its own address of the documentation range, clear of the per-address sign-in budget. */
const nextIp = () => `198.51.100.${(addresses++ % 250) + 1}`;

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
    await expectPrompt(await postForm(action.path, action.fields, { cookie }), STEP_UP_MESSAGES.afterRecoveryCode);
    expect(await action.written()).toBe(0);

    // A wrong authenticator code.
    const wrong = codeOf(action.actor, Date.now() + 10 * MINUTE);
    await expectPrompt(
      await postForm(action.path, { ...action.fields, [STEP_UP_FIELD]: wrong }, { cookie }),
      STEP_UP_MESSAGES.invalidCode,
    );
    expect(await action.written()).toBe(0);

    // Another unused recovery code: a wrong code here, and it stays unused.
    await expectPrompt(
      await postForm(action.path, { ...action.fields, [STEP_UP_FIELD]: typedCode }, { cookie }),
      STEP_UP_MESSAGES.invalidCode,
    );
    expect(await action.written()).toBe(0);
    expect(await countRows("recovery_codes", "user_id = ? AND used_at IS NULL", action.actor.id)).toBe(1);

    // The authenticator's code: the act goes through, and the session is fresh from now on.
    await action.succeeded(
      await postForm(action.path, { ...action.fields, [STEP_UP_FIELD]: codeOf(action.actor) }, { cookie }),
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
