import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { STEP_UP_FIELD, STEP_UP_MESSAGES } from "~/lib/step-up";
import { STEP_UP_WINDOW_MS } from "~/server/auth/step-up.server";
import { BUDGETS, recordAttempt } from "~/server/rate-limit.server";
import { TWO_FACTOR_SETUP_PATH } from "~/server/session.server";
import {
  countRows,
  createUser,
  db,
  ensureDepositWallets,
  insertTransaction,
  moneyCounts,
  postForm,
  sessionCookieFor,
} from "../support/fixtures";
import { controlAttribute, fieldError, fieldLabel } from "../support/places";
import {
  ACTIONS,
  adminReplySays,
  codeOf,
  cookieOf,
  expectPrompt,
  fundedClient,
  MINUTE,
  newKey,
  type ProtectedAction,
  postAction,
  withdrawalFields,
} from "../support/step-up-actions";

beforeAll(async () => {
  await ensureDepositWallets();
});

/**
 * Step-up for money (docs/decisions/0019): each protected action is refused without a fresh second factor and
 * writes nothing, goes through with a code typed into the same form or within 10 minutes of one, and never
 * on a code that is wrong, replayed, another account's, or past the account's budget of wrong codes.
 */

const sessionsSecondFactorAt = async (userId: string) =>
  (
    await env.DB.prepare("SELECT second_factor_at AS at FROM sessions WHERE user_id = ? ORDER BY at DESC")
      .bind(userId)
      .all<{ at: number | null }>()
  ).results.map((row) => row.at);

describe.each(Object.keys(ACTIONS))("%s", (name) => {
  const prepare = ACTIONS[name] as () => Promise<ProtectedAction>;

  it("is refused without a fresh second factor, with the code prompt, writing nothing", async () => {
    const action = await prepare();
    const response = await postAction(action, action.fields, { cookie: await cookieOf(action.actor, "never") });
    await expectPrompt(response);
    expect(await action.written()).toBe(0);
  });

  it("goes through with a code typed into the same form, which makes the session fresh", async () => {
    const action = await prepare();
    const cookie = await cookieOf(action.actor, "never");
    const before = Date.now();
    const response = await postAction(action, { ...action.fields, [STEP_UP_FIELD]: codeOf(action.actor) }, { cookie });
    await action.succeeded(response);
    expect(await action.written()).toBe(1);
    const [stamped] = await sessionsSecondFactorAt(action.actor.id);
    expect(stamped).toBeGreaterThanOrEqual(before);
  });

  it("goes through without a code within 10 minutes of one", async () => {
    const action = await prepare();
    const response = await postAction(action, action.fields, { cookie: await cookieOf(action.actor, 9) });
    await action.succeeded(response);
    expect(await action.written()).toBe(1);
  });

  it("asks again once 10 minutes have passed", async () => {
    const action = await prepare();
    const response = await postAction(action, action.fields, { cookie: await cookieOf(action.actor, 11) });
    await expectPrompt(response);
    expect(await action.written()).toBe(0);
  });

  it("answers a wrong code with 'Invalid code', writing nothing but the failure", async () => {
    const action = await prepare();
    const wrong = codeOf(action.actor, Date.now() + 10 * MINUTE);
    const response = await postAction(
      action,
      { ...action.fields, [STEP_UP_FIELD]: wrong },
      { cookie: await cookieOf(action.actor, "never") },
    );
    await expectPrompt(response, STEP_UP_MESSAGES.invalidCode);
    expect(await action.written()).toBe(0);
    expect(await countRows("auth_failures", "scope = ? AND key = ?", "2fa:user", action.actor.id)).toBe(1);
  });
});

describe("the code", () => {
  it("is spent: the same code in another session of the account is refused", async () => {
    const client = await fundedClient();
    const code = codeOf(client);
    const first = await postForm(
      "/withdraw",
      { ...withdrawalFields(), [STEP_UP_FIELD]: code },
      { cookie: await cookieOf(client, "never") },
    );
    expect(first.status).toBe(302);
    const before = await moneyCounts(client.id);
    const replay = await postForm(
      "/withdraw",
      { ...withdrawalFields(), [STEP_UP_FIELD]: code },
      { cookie: await cookieOf(client, "never") },
    );
    await expectPrompt(replay, STEP_UP_MESSAGES.invalidCode);
    expect(await moneyCounts(client.id)).toEqual(before);
  });

  it("of one account does nothing for another account's session, and stays unspent for its owner", async () => {
    const owner = await fundedClient();
    const other = await fundedClient();
    const code = codeOf(owner);
    const before = await moneyCounts(other.id);
    const stolen = await postForm(
      "/withdraw",
      { ...withdrawalFields(), [STEP_UP_FIELD]: code },
      { cookie: await cookieOf(other, "never") },
    );
    await expectPrompt(stolen, STEP_UP_MESSAGES.invalidCode);
    expect(await moneyCounts(other.id)).toEqual(before);
    expect(await sessionsSecondFactorAt(other.id)).toEqual([null]);

    const own = await postForm(
      "/withdraw",
      { ...withdrawalFields(), [STEP_UP_FIELD]: code },
      { cookie: await cookieOf(owner, "never") },
    );
    expect(own.status).toBe(302);
  });

  it("makes only its own session fresh: another session of the account is still asked", async () => {
    const client = await fundedClient();
    const other = await cookieOf(client, "never");
    const used = await postForm(
      "/withdraw",
      { ...withdrawalFields(), [STEP_UP_FIELD]: codeOf(client) },
      { cookie: await cookieOf(client, "never") },
    );
    expect(used.status).toBe(302);
    await expectPrompt(await postForm("/withdraw", withdrawalFields(), { cookie: other }));
  });

  it("typed with the space authenticator apps show is accepted", async () => {
    const client = await fundedClient();
    const code = codeOf(client);
    const response = await postForm(
      "/withdraw",
      { ...withdrawalFields(), [STEP_UP_FIELD]: `${code.slice(0, 3)} ${code.slice(3)}` },
      { cookie: await cookieOf(client, "never") },
    );
    expect(response.status).toBe(302);
  });

  it("is shown for in the withdrawal form, which keeps its other fields", async () => {
    const client = await fundedClient();
    const html = await (
      await postForm("/withdraw", withdrawalFields(), { cookie: await cookieOf(client, "never") })
    ).text();
    expect(controlAttribute(html, "stepUpCode", "name")).toBe("stepUpCode");
    const input = /<input[^>]*name="stepUpCode"[^>]*>/.exec(html)?.[0] ?? "";
    // As React writes them on the server; the browser reads attribute names in any case.
    expect(input).toContain('inputMode="numeric"');
    expect(input).toContain('autoComplete="one-time-code"');
    expect(fieldLabel(html, "stepUpCode")).toBe(STEP_UP_MESSAGES.prompt);
    expect(controlAttribute(html, "walletAddress", "name")).toBe("walletAddress");
  });
});

describe("the budget of wrong codes", () => {
  it("locks code entry after 5 wrong codes, a right one included, with a clear message", async () => {
    const client = await fundedClient();
    const cookie = await cookieOf(client, "never");
    const wrong = codeOf(client, Date.now() + 10 * MINUTE);
    for (let i = 0; i < BUDGETS.secondFactorPerAccount.limit; i++) {
      await expectPrompt(
        await postForm("/withdraw", { ...withdrawalFields(), [STEP_UP_FIELD]: wrong }, { cookie }),
        STEP_UP_MESSAGES.invalidCode,
      );
    }
    const before = await moneyCounts(client.id);
    const locked = await postForm("/withdraw", { ...withdrawalFields(), [STEP_UP_FIELD]: codeOf(client) }, { cookie });
    await expectPrompt(locked, STEP_UP_MESSAGES.locked, 429);
    expect(await moneyCounts(client.id)).toEqual(before);
    // A knock on a locked door is not counted: the lock lifts 15 minutes after the fifth wrong code.
    expect(await countRows("auth_failures", "scope = ? AND key = ?", "2fa:user", client.id)).toBe(5);
  });

  it("is shared with the sign-in's second step", async () => {
    const admin = await createUser({ role: "admin" });
    const client = await createUser();
    for (let i = 0; i < BUDGETS.secondFactorPerAccount.limit; i++) {
      await recordAttempt(db, BUDGETS.secondFactorPerAccount, admin.id);
    }
    const response = await postForm(
      `/user/${client.id}`,
      { intent: "entry", type: "deposit", amount: "10", idempotencyKey: newKey(), [STEP_UP_FIELD]: codeOf(admin) },
      { cookie: await cookieOf(admin, "never") },
    );
    await expectPrompt(response, STEP_UP_MESSAGES.locked, 429);
    expect(await countRows("transactions", "user_id = ?", client.id)).toBe(0);
  });

  it("holds against guesses sent all at once: no more than 5 are checked", async () => {
    const client = await fundedClient();
    const cookie = await cookieOf(client, "never");
    const valid = [-1, 0, 1].map((step) => codeOf(client, Date.now() + step * 30_000));
    const guesses = Array.from({ length: 13 }, (_, i) => String(100_000 + i))
      .filter((guess) => !valid.includes(guess))
      .slice(0, 12);
    const responses = await Promise.all(
      guesses.map((guess) =>
        postForm("/withdraw", { ...withdrawalFields(), [STEP_UP_FIELD]: guess }, { cookie }).then(async (r) => ({
          status: r.status,
          text: await r.text(),
        })),
      ),
    );
    const checked = responses.filter((r) => fieldError(r.text, STEP_UP_FIELD) === STEP_UP_MESSAGES.invalidCode);
    expect(checked.length).toBe(5);
    const locked = responses.filter((r) => r.status === 429).map((r) => fieldError(r.text, STEP_UP_FIELD));
    expect(locked).toEqual(Array(guesses.length - checked.length).fill(STEP_UP_MESSAGES.locked));
    expect(await countRows("auth_failures", "scope = ? AND key = ?", "2fa:user", client.id)).toBe(checked.length);
    expect((await moneyCounts(client.id)).transactions).toBe(1);
  });
});

describe("who is asked", () => {
  it("not a client without two-factor sign-in", async () => {
    const client = await fundedClient({ twoFactor: false });
    const response = await postForm("/withdraw", withdrawalFields(), { cookie: await cookieOf(client, "never") });
    expect(response.status).toBe(302);
    expect((await moneyCounts(client.id)).transactions).toBe(2);
  });

  it("an admin without two-factor sign-in is sent to set it up by every money action, code or not", async () => {
    const admin = await createUser({ role: "admin", twoFactor: false });
    const client = await fundedClient({ twoFactor: false });
    const withdrawal = await insertTransaction(client.id, { transactionType: "withdraw", amountCents: 1_000 });
    const cookie = await sessionCookieFor(admin.id);
    const before = { tx: await countRows("transactions"), audit: await countRows("audit_log") };
    const attempts: Array<[string, Record<string, string>]> = [
      [`/user/${client.id}`, { intent: "entry", type: "deposit", amount: "10", idempotencyKey: newKey() }],
      [`/user/${client.id}`, { intent: "approve", transactionId: String(withdrawal) }],
      ["/admin", { intent: "delete", userId: client.id }],
      ["/admin", { intent: "wallets", "wallet-1": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" }],
    ];
    for (const [path, fields] of attempts) {
      const response = await postForm(path, { ...fields, [STEP_UP_FIELD]: "123456" }, { cookie });
      // The guard sends such an admin to the set-up page before any action runs.
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(TWO_FACTOR_SETUP_PATH);
    }
    expect({ tx: await countRows("transactions"), audit: await countRows("audit_log") }).toEqual(before);
  });

  it("not an admin rejecting a request, or suspending and activating a client", async () => {
    const admin = await createUser({ role: "admin" });
    const client = await fundedClient({ twoFactor: false });
    const deposit = await insertTransaction(client.id, { amountCents: 1_000 });
    const withdrawal = await insertTransaction(client.id, { transactionType: "withdraw", amountCents: 1_000 });
    const cookie = await cookieOf(admin, "never");
    const path = `/user/${client.id}`;
    await adminReplySays("Transaction rejected")(
      await postForm(path, { intent: "reject", transactionId: String(deposit) }, { cookie }),
    );
    await adminReplySays("Transaction rejected")(
      await postForm(path, { intent: "reject", transactionId: String(withdrawal) }, { cookie }),
    );
    await adminReplySays("User suspended")(await postForm(path, { intent: "suspend" }, { cookie }));
    await adminReplySays("User activated")(await postForm(path, { intent: "activate" }, { cookie }));
  });

  it("counts 10 minutes from the code, not from the sign-in", async () => {
    const client = await fundedClient();
    const cookie = await sessionCookieFor(client.id, Date.now() - 20 * MINUTE, { freshSecondFactor: false });
    await env.DB.prepare("UPDATE sessions SET second_factor_at = ?, second_factor_method = 'totp' WHERE user_id = ?")
      .bind(Date.now() - STEP_UP_WINDOW_MS + MINUTE, client.id)
      .run();
    expect((await postForm("/withdraw", withdrawalFields(), { cookie })).status).toBe(302);
  });
});
