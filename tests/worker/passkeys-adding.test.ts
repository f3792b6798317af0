import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_PASSKEYS, PASSKEY_MESSAGES } from "~/lib/passkeys";
import { MESSAGES } from "~/lib/schemas/auth";
import { TWO_FACTOR_MESSAGES } from "~/lib/schemas/two-factor";
import { countRows, createUser, getPage, sessionCookieFor, totpCode } from "../support/fixtures";
import {
  addedAnswer,
  addingOptions,
  addPasskey,
  auditsOf,
  expireChallenge,
  finishAdding,
  noticesOf,
  personWithPasskey,
  postJson,
  refusedWith,
  toastOf,
  verifyWithPasskey,
} from "../support/passkeys";
import { cardTitled, statuses } from "../support/places";
import { SoftAuthenticator } from "../support/soft-authenticator";
import { giveRecoveryCodes, nextIp, signInWithRecoveryCode, steadyStep } from "../support/two-factor";

/**
 * Adding a passkey on /account (docs/product.md, "Passkeys"): the proof first (the current password, or with
 * two-factor on the authenticator's code), then the authenticator's answer to the challenge this session was
 * given. What is stored is audited and mailed; every refusal says why and stores nothing.
 */

const passkeysOf = (userId: string) => countRows("passkeys", "user_id = ?", userId);
const namesOf = async (userId: string) =>
  (
    await env.DB.prepare("SELECT name FROM passkeys WHERE user_id = ? ORDER BY created_at")
      .bind(userId)
      .all<{ name: string }>()
  ).results.map((row) => row.name);

/** A signed-in client without two-factor sign-in, and a passkey of theirs that has not been added yet. */
async function clientWithoutTwoFactor() {
  const client = await createUser();
  return { ...client, cookie: await sessionCookieFor(client.id), authenticator: await SoftAuthenticator.create() };
}

describe("adding a passkey: the proof", () => {
  it("asks a client without two-factor for the current password: a wrong one is refused, and nothing is stored", async () => {
    const client = await clientWithoutTwoFactor();
    const wrong = await postJson(
      "/account/passkeys",
      { intent: "options", currentPassword: "not my password" },
      { cookie: client.cookie },
    );
    expect(await refusedWith(wrong, 400)).toBe(MESSAGES.currentPasswordWrong);
    expect(await countRows("webauthn_challenges", "user_id = ?", client.id)).toBe(0);

    const answer = await client.authenticator.register(await addingOptions(client.cookie));
    await addedAnswer(await finishAdding(client.cookie, answer));
    expect(await passkeysOf(client.id)).toBe(1);
  });

  it("asks a client with two-factor on (not fresh) for the authenticator's code: missing, wrong, then right", async () => {
    await steadyStep();
    const client = await createUser({ twoFactor: true });
    const cookie = await sessionCookieFor(client.id, Date.now(), { freshSecondFactor: false });
    const secret = client.totpSecret as Uint8Array;

    const missing = await postJson("/account/passkeys", { intent: "options" }, { cookie });
    expect(await refusedWith(missing, 401)).toBe(TWO_FACTOR_MESSAGES.codePrompt);
    const wrongCode = totpCode(secret, Date.now() + 10 * 60_000);
    const wrong = await postJson("/account/passkeys", { intent: "options", code: wrongCode }, { cookie });
    expect(await refusedWith(wrong, 401)).toBe(TWO_FACTOR_MESSAGES.invalidCode);
    expect(await countRows("webauthn_challenges", "user_id = ?", client.id)).toBe(0);

    await addPasskey(cookie, { proof: { code: totpCode(secret) } });
    expect(await passkeysOf(client.id)).toBe(1);
  });

  it("lets an account whose second factor is a passkey prove it with that passkey, then add another", async () => {
    const client = await personWithPasskey();
    const cookie = await sessionCookieFor(client.id, Date.now(), { freshSecondFactor: false });
    const asked = await postJson("/account/passkeys", { intent: "options" }, { cookie });
    // Told to confirm with the passkey it holds, not to type a code from an app it may not have.
    expect(await refusedWith(asked, 401)).toBe(PASSKEY_MESSAGES.confirmToAdd);

    expect((await verifyWithPasskey(client.authenticator, cookie)).status).toBe(200);
    await addPasskey(cookie);
    expect(await passkeysOf(client.id)).toBe(2);
  });
});

describe("adding a passkey: what is stored", () => {
  it("names it after the browser it was made in, audits it and mails one notice", async () => {
    const client = await clientWithoutTwoFactor();
    const answer = await client.authenticator.register(await addingOptions(client.cookie));
    const response = await finishAdding(client.cookie, answer);

    expect(await toastOf(response)).toEqual({ type: "success", description: PASSKEY_MESSAGES.added });
    expect(await addedAnswer(response)).toHaveLength(10);
    expect(await namesOf(client.id)).toEqual(["Chrome on macOS"]);
    expect(await auditsOf(client.id, "passkey.add")).toBe(1);
    expect(await noticesOf(client.email, "passkey_added")).toBe(1);
  });

  it("keeps the name the person typed", async () => {
    const client = await clientWithoutTwoFactor();
    await addPasskey(client.cookie, { name: "  Work laptop  " });
    expect(await namesOf(client.id)).toEqual(["Work laptop"]);
  });

  it(`holds at most ${MAX_PASSKEYS}: the next is refused before and after the ceremony`, async () => {
    const client = await clientWithoutTwoFactor();
    for (let added = 0; added < MAX_PASSKEYS - 1; added += 1) await addPasskey(client.cookie);
    // Two ceremonies begun at nine: the first to finish is the tenth, the other would be the eleventh.
    const [first, second] = [await addingOptions(client.cookie), await addingOptions(client.cookie)];
    await addedAnswer(await finishAdding(client.cookie, await client.authenticator.register(first)));
    const late = await finishAdding(client.cookie, await (await SoftAuthenticator.create()).register(second));
    expect(await refusedWith(late, 409)).toBe(PASSKEY_MESSAGES.tooMany);

    const more = await postJson("/account/passkeys", { intent: "options" }, { cookie: client.cookie });
    expect(await refusedWith(more, 409)).toBe(PASSKEY_MESSAGES.tooMany);
    expect(await passkeysOf(client.id)).toBe(MAX_PASSKEYS);
    expect(await auditsOf(client.id, "passkey.add")).toBe(MAX_PASSKEYS);
    expect(await noticesOf(client.email, "passkey_added")).toBe(MAX_PASSKEYS);
  });

  it("refuses the same credential twice, on this account or another", async () => {
    const client = await clientWithoutTwoFactor();
    const answer = await client.authenticator.register(await addingOptions(client.cookie));
    await addedAnswer(await finishAdding(client.cookie, answer));

    const again = await client.authenticator.register(await addingOptions(client.cookie));
    expect(await refusedWith(await finishAdding(client.cookie, again), 409)).toBe(PASSKEY_MESSAGES.alreadyRegistered);
    const other = await clientWithoutTwoFactor();
    const stolen = await client.authenticator.register(await addingOptions(other.cookie));
    expect(await refusedWith(await finishAdding(other.cookie, stolen), 409)).toBe(PASSKEY_MESSAGES.alreadyRegistered);

    expect([await passkeysOf(client.id), await passkeysOf(other.id)]).toEqual([1, 0]);
    expect(await auditsOf(client.id, "passkey.add")).toBe(1);
    expect(await noticesOf(client.email, "passkey_added")).toBe(1);
  });
});

describe("adding a passkey: answers that are refused and store nothing", () => {
  /** Refused with `message`, and the account holds no passkey, no audit row and no notice for it. */
  async function expectNothingStored(
    client: { id: string; email: string },
    response: Response,
    message: string,
  ): Promise<void> {
    expect(await refusedWith(response, 400)).toBe(message);
    expect(await passkeysOf(client.id)).toBe(0);
    expect(await auditsOf(client.id, "passkey.add")).toBe(0);
    expect(await noticesOf(client.email, "passkey_added")).toBe(0);
  }

  it("an answer to another session's challenge", async () => {
    const client = await clientWithoutTwoFactor();
    const otherSession = await sessionCookieFor(client.id);
    const answer = await client.authenticator.register(await addingOptions(otherSession));
    await expectNothingStored(client, await finishAdding(client.cookie, answer), PASSKEY_MESSAGES.expired);
  });

  it("an answer to another account's challenge", async () => {
    const client = await clientWithoutTwoFactor();
    const other = await clientWithoutTwoFactor();
    const answer = await client.authenticator.register(await addingOptions(other.cookie));
    await expectNothingStored(client, await finishAdding(client.cookie, answer), PASSKEY_MESSAGES.expired);
  });

  it("an answer after the challenge expired", async () => {
    const client = await clientWithoutTwoFactor();
    const options = await addingOptions(client.cookie);
    await expireChallenge(options.challenge);
    const answer = await client.authenticator.register(options);
    await expectNothingStored(client, await finishAdding(client.cookie, answer), PASSKEY_MESSAGES.expired);
  });

  it("the same answer sent again after it was refused", async () => {
    const client = await clientWithoutTwoFactor();
    const answer = await client.authenticator.register(await addingOptions(client.cookie), { userVerified: false });
    await expectNothingStored(client, await finishAdding(client.cookie, answer), PASSKEY_MESSAGES.failed);
    await expectNothingStored(client, await finishAdding(client.cookie, answer), PASSKEY_MESSAGES.expired);
  });

  it("a registration replayed after it was stored", async () => {
    const client = await clientWithoutTwoFactor();
    const answer = await client.authenticator.register(await addingOptions(client.cookie));
    await addedAnswer(await finishAdding(client.cookie, answer));
    expect(await refusedWith(await finishAdding(client.cookie, answer), 400)).toBe(PASSKEY_MESSAGES.expired);
    expect(await passkeysOf(client.id)).toBe(1);
    expect(await auditsOf(client.id, "passkey.add")).toBe(1);
  });

  it.each([
    ["another origin", { origin: "https://northwind-markets.example" }],
    ["another relying party", { rpId: "example.com" }],
    ["no user verification", { userVerified: false }],
    ["a challenge the server never gave", { challenge: "bm90LWEtY2hhbGxlbmdlLWZyb20tdXM" }],
  ])("an answer made for %s", async (_, lie) => {
    const client = await clientWithoutTwoFactor();
    const answer = await client.authenticator.register(await addingOptions(client.cookie), lie);
    const message = "challenge" in lie ? PASSKEY_MESSAGES.expired : PASSKEY_MESSAGES.failed;
    await expectNothingStored(client, await finishAdding(client.cookie, answer), message);
  });

  it("a name too long, before the challenge is spent", async () => {
    const client = await clientWithoutTwoFactor();
    const answer = await client.authenticator.register(await addingOptions(client.cookie));
    const long = await finishAdding(client.cookie, answer, { name: "x".repeat(65) });
    await expectNothingStored(client, long, PASSKEY_MESSAGES.nameTooLong);
    await addedAnswer(await finishAdding(client.cookie, answer, { name: "Phone" }));
  });

  it("a signed-out visitor", async () => {
    const response = await postJson("/account/passkeys", { intent: "options" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/login/);
  });
});

describe("an admin without two-factor sign-in", () => {
  it("may meet the rule with a passkey: before it only the set-up opens, after it the back office", async () => {
    const admin = await createUser({ role: "admin", twoFactor: false });
    const cookie = await sessionCookieFor(admin.id);
    const before = await getPage("/admin", cookie);
    expect(before.status).toBe(302);
    expect(before.headers.get("Location")).toBe("/account/two-factor");
    expect(cardTitled(await (await getPage("/account/two-factor", cookie)).text(), "Or use a passkey")).not.toBeNull();

    await addPasskey(cookie);
    expect((await getPage("/admin", cookie)).status).toBe(200);
    expect(statuses(await (await getPage("/account/two-factor", cookie)).text())).toContain(
      "Two-factor sign-in is on with your passkey. Continue to the Admin Panel",
    );
  });
});

describe("the first passkey's recovery codes", () => {
  const unusedCodesOf = (userId: string) => countRows("recovery_codes", "user_id = ? AND used_at IS NULL", userId);

  it("come with an account's first second factor, shown once, and sign in when the passkey is lost", async () => {
    const client = await clientWithoutTwoFactor();
    const answer = await client.authenticator.register(await addingOptions(client.cookie));
    const codes = await addedAnswer(await finishAdding(client.cookie, answer));
    expect(codes).toHaveLength(10);
    expect(await unusedCodesOf(client.id)).toBe(10);
    // A second passkey brings none, and the first ones keep working.
    expect(await addedAnswer(await finishAdding(client.cookie, await addingAnother(client.cookie)))).toBeNull();
    expect(await unusedCodesOf(client.id)).toBe(10);
    expect(await signInWithRecoveryCode(client.email, codes?.[0] ?? "", { ip: nextIp() })).toMatch(/^session=/);
    expect(await unusedCodesOf(client.id)).toBe(9);
  });

  it("are not made again for an account whose authenticator app came first", async () => {
    await steadyStep();
    const client = await createUser({ twoFactor: true });
    const earlier = await giveRecoveryCodes(client.id, 3);
    const cookie = await sessionCookieFor(client.id);
    const answer = await (await SoftAuthenticator.create()).register(await addingOptions(cookie));
    expect(await addedAnswer(await finishAdding(cookie, answer))).toBeNull();
    expect(await unusedCodesOf(client.id)).toBe(3);
    expect(await signInWithRecoveryCode(client.email, earlier[0] ?? "", { ip: nextIp() })).toMatch(/^session=/);
  });

  it("are one set when two first passkeys are added at once: the codes shown are the codes that work", async () => {
    const client = await clientWithoutTwoFactor();
    const [first, second] = [await addingOptions(client.cookie), await addingOptions(client.cookie)];
    const answers = [
      await client.authenticator.register(first),
      await (await SoftAuthenticator.create()).register(second),
    ];
    const shown = await Promise.all(
      answers.map(async (answer) => addedAnswer(await finishAdding(client.cookie, answer))),
    );
    const sets = shown.filter((codes): codes is string[] => codes !== null);
    expect(sets).toHaveLength(1);
    expect(await unusedCodesOf(client.id)).toBe(10);
    expect(await signInWithRecoveryCode(client.email, sets[0]?.[9] ?? "", { ip: nextIp() })).toMatch(/^session=/);
  });
});

/** The options and a new authenticator's answer for one more passkey on an account that holds one. */
async function addingAnother(cookie: string) {
  return (await SoftAuthenticator.create()).register(await addingOptions(cookie));
}
