import { describe, expect, it } from "vitest";
import { MESSAGES } from "~/lib/schemas/auth";
import { BUDGETS } from "~/server/rate-limit.server";
import { countRows, createUser, postForm, sessionCookieFor, TEST_PASSWORD } from "../support/fixtures";
import { refusals, statuses } from "../support/places";

/** A signed-in client: what someone holding the session, and not the password, has. */
async function heldSession() {
  const user = await createUser();
  return { ...user, cookie: await sessionCookieFor(user.id) };
}

const changePassword = (cookie: string, currentPassword: string) =>
  postForm(
    "/account",
    { intent: "password", currentPassword, newPassword: "a-new-password-1", confirmPassword: "a-new-password-1" },
    { cookie },
  );

describe("the current password asked again by a signed-in account", () => {
  it("cannot be guessed without limit: after 10 wrong ones, even the right one is refused for 15 minutes", async () => {
    const held = await heldSession();
    for (let i = 0; i < BUDGETS.currentPasswordPerAccount.limit; i++) {
      const wrong = await changePassword(held.cookie, `guess-${i}`);
      expect(refusals(await wrong.text())).toContain(MESSAGES.currentPasswordWrong);
    }
    const right = await changePassword(held.cookie, TEST_PASSWORD);
    expect(right.status).toBe(429);
    expect(refusals(await right.text())).toContain(MESSAGES.tooManyWrongPasswords);
    // Nothing changed: the password still signs in, and no notice went out.
    expect(await countRows("email_outbox", "to_address = ? AND template = 'security_notice'", held.email)).toBe(0);
    const signIn = await postForm("/login", { email: held.email, password: TEST_PASSWORD, redirectTo: "" });
    expect(signIn.status).toBe(302);
  });

  it("counts the two-factor forms' wrong passwords in the same budget", async () => {
    const held = await heldSession();
    await postForm("/account/two-factor", { intent: "start" }, { cookie: held.cookie });
    for (let i = 0; i < BUDGETS.currentPasswordPerAccount.limit; i++) {
      await postForm(
        "/account/two-factor",
        { intent: "confirm", currentPassword: `guess-${i}`, code: "123456" },
        { cookie: held.cookie },
      );
    }
    const right = await changePassword(held.cookie, TEST_PASSWORD);
    expect(refusals(await right.text())).toContain(MESSAGES.tooManyWrongPasswords);
  });

  it("lets the owner's right password through while under the budget", async () => {
    const held = await heldSession();
    for (let i = 0; i < 3; i++) await changePassword(held.cookie, `typo-${i}`);
    const right = await changePassword(held.cookie, TEST_PASSWORD);
    expect(right.status).toBe(200);
    expect(statuses(await right.text())).toContain(MESSAGES.passwordUpdated);
  });
});
