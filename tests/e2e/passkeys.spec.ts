import type { Page } from "@playwright/test";
import { executeStatements, sqlValue } from "../../scripts/lib/local-d1";
import { e2eDatabase, whileBusy } from "./database";
import {
  CODE_PROMPT,
  DEMO_ADMIN,
  DEMO_SECOND_ADMIN,
  enterTotpCode,
  expect,
  registerClient,
  seriousAccessibilityProblems,
  signIn,
  test,
  watchForErrors,
} from "./support";
import { oneSignInAtATime } from "./totp";

import { LOCALHOST, virtualAuthenticator } from "./virtual-authenticator";

function passkeysCard(page: Page) {
  return page.getByRole("article").filter({ has: page.getByRole("heading", { name: "Passkeys" }) });
}

async function addPasskey(page: Page, name: string, proof: { password?: string }) {
  await page.goto("/account");
  const card = passkeysCard(page);
  await card.getByLabel("Name (optional)").fill(name);
  if (proof.password) await card.getByLabel("Current Password").fill(proof.password);
  await card.getByRole("button", { name: "Add a passkey" }).click();
  await expect(card.getByTestId("passkey-row").filter({ hasText: name })).toHaveCount(1);
}

/** Signs out through the header's button, from the menu at phone width. */
async function signOut(page: Page) {
  const menu = page.getByRole("button", { name: "Open menu" });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole("button", { name: "Sign Out" }).locator("visible=true").first().click();
  await expect(page).not.toHaveURL(/\/account|\/admin|\/dashboard/);
}

test.setTimeout(120_000);

test("a client adds a passkey at phone width, signs in with it, then loses it and comes back with a recovery code", async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({
    baseURL: LOCALHOST,
    viewport: { width: 390, height: 844 },
    bypassCSP: true,
  });
  const errors = watchForErrors(context);
  const page = await context.newPage();
  const authenticator = await virtualAuthenticator(context, page);
  await page.goto("/");
  const email = await registerClient(page, `Key${Date.now() % 100000}`);

  // Without the password nothing is asked of the browser: the server refuses first, in words.
  await page.goto("/account");
  const card = passkeysCard(page);
  await card.getByLabel("Current Password").fill("not-the-password");
  await card.getByRole("button", { name: "Add a passkey" }).click();
  await expect(card.getByRole("alert")).toContainText(/password/i);
  expect(await authenticator.credentials()).toHaveLength(0);

  await addPasskey(page, "My phone", { password: "client-pass-1" });
  expect(await authenticator.credentials()).toHaveLength(1);
  // The first passkey turned two-factor sign-in on: its recovery codes are shown, once.
  const codes = card.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  await expect(card).toContainText("when your passkey is not at hand");
  const recoveryCode = (await codes.first().innerText()).trim();
  await page.screenshot({ path: testInfo.outputPath("first-passkey-codes-390.png"), fullPage: true });
  await expect(card.getByTestId("passkey-row")).toContainText("never used");
  expect(await seriousAccessibilityProblems(page)).toEqual([]);

  await signOut(page);
  // The e-mail field offers the passkey (conditional mediation); Chromium's virtual authenticator takes the offer
  // at once, as a person picking it from the suggestions would: signed in, no password typed.
  await page.goto("/login");
  await expect(page).toHaveURL(/\/dashboard$/);

  // The session says how it began; the passkey, when it was used.
  await page.goto("/account");
  await expect(page.getByTestId("session-row").filter({ hasText: "This device" })).toContainText(
    "Signed in with a passkey",
  );
  await expect(passkeysCard(page).getByTestId("passkey-row")).toContainText("last used");
  expect(email).toContain("@example.com");

  // The phone is lost: the password, then a recovery code, sign in; no app's code is ever asked for.
  await authenticator.lose();
  await signOut(page);
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("client-pass-1");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/login\/two-factor$/);
  await expect(page.getByText("Confirm it is you with your passkey.")).toBeVisible();
  await expect(page.getByLabel(CODE_PROMPT)).toHaveCount(0);
  await page.getByRole("link", { name: "Use a recovery code instead" }).click();
  await page.getByLabel("Enter one of your recovery codes").fill(recoveryCode);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await context.close();
  expect(errors).toEqual([]);
});

test("an admin signs in with a passkey and approves a proposal with it; once it is removed, the code is asked again", async ({
  browser,
}) => {
  const proposerContext = await browser.newContext({ baseURL: LOCALHOST });
  const approverContext = await browser.newContext({ baseURL: LOCALHOST });
  const errors = [proposerContext, approverContext].flatMap(watchForErrors);
  const proposer = await proposerContext.newPage();
  const approver = await approverContext.newPage();
  const authenticator = await virtualAuthenticator(approverContext, approver);

  // A client of this test's own and a $20,000 entry for them, which waits for a second admin.
  const clientContext = await browser.newContext({ baseURL: LOCALHOST });
  const client = await clientContext.newPage();
  const firstName = `Pk${Date.now() % 100000}`;
  await registerClient(client, firstName);
  const accountId = (await client.getByText(/^[0-9a-f-]{36}$/).textContent()) ?? "";
  await clientContext.close();
  await signIn(proposer, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await proposer.goto(`/user/${accountId}`);
  await proposer.getByRole("button", { name: "Deposit", exact: true }).click();
  await proposer.getByLabel("Deposit amount").fill("20000");
  await proposer.getByRole("textbox", { name: "Reason" }).fill("Wire received, passkey test");
  await proposer.getByRole("button", { name: "Confirm" }).click();
  await expect(proposer.getByRole("status").filter({ hasText: "Awaiting second approval" }).first()).toBeVisible();

  // The second admin adds a passkey (their code was just entered: the session is fresh, no code is asked again).
  await signIn(approver, DEMO_SECOND_ADMIN.email, DEMO_SECOND_ADMIN.password);
  const name = `Approver key ${Date.now() % 100000}`;
  await addPasskey(approver, name, {});
  await signOut(approver);

  // Signing in with the button asks for no password and no code. (Chromium's virtual authenticator may take the
  // e-mail field's passkey offer first, before the press lands: either way no password or code is typed.)
  await approver.goto("/login");
  await approver
    .getByRole("button", { name: "Sign in with a passkey" })
    .click({ noWaitAfter: true, timeout: 5_000 })
    .catch(() => undefined);
  await expect(approver).toHaveURL(/\/admin$/);

  // Ten minutes later (moved back in the database), approving asks again: the passkey answers instead of a code.
  await whileBusy(() =>
    executeStatements(
      [
        `UPDATE sessions SET second_factor_at = second_factor_at - 660000
         WHERE user_id = (SELECT id FROM users WHERE email = ${sqlValue(DEMO_SECOND_ADMIN.email)})
           AND sign_in_method = 'passkey'`,
      ],
      e2eDatabase,
    ),
  );
  await approver.goto(`/user/${accountId}`);
  const waiting = approver.getByTestId("proposal").filter({ hasText: `Deposit of $20,000.00 for ${firstName}` });
  await waiting.getByRole("button", { name: /Approve/ }).click();
  const dialog = approver.getByRole("dialog");
  await expect(dialog.getByLabel(CODE_PROMPT)).toBeVisible();
  await dialog.getByRole("button", { name: "Use a passkey" }).click();
  await expect(waiting).toHaveCount(0);
  await expect(approver.locator("tr[data-status=approved]").filter({ hasText: "$20,000.00" })).toHaveCount(1);

  // Removed: the next sign-in's second step is the code again, with no passkey offered.
  await approver.goto("/account");
  await passkeysCard(approver)
    .getByRole("button", { name: `Remove passkey ${name}` })
    .click();
  await expect(passkeysCard(approver).getByTestId("passkey-row").filter({ hasText: name })).toHaveCount(0);
  await signOut(approver);
  await oneSignInAtATime(DEMO_SECOND_ADMIN.totpSecret, async () => {
    await approver.goto("/login");
    await approver.getByLabel("Email").fill(DEMO_SECOND_ADMIN.email);
    await approver.getByLabel("Password").fill(DEMO_SECOND_ADMIN.password);
    await approver.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(approver).toHaveURL(/\/login\/two-factor$/);
    await expect(approver.getByRole("button", { name: "Use a passkey" })).toHaveCount(0);
    await enterTotpCode(approver, DEMO_SECOND_ADMIN.totpSecret);
  });
  await expect(approver).toHaveURL(/\/admin$/);
  expect((await authenticator.credentials()).length).toBeGreaterThan(0);

  for (const context of [proposerContext, approverContext]) await context.close();
  expect(errors).toEqual([]);
});
