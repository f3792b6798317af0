import type { Page } from "@playwright/test";
import { executeStatements, sqlValue } from "../../scripts/lib/local-d1";
import { complianceOfficer } from "./back-office-people";
import { e2eDatabase, markVerifiedInDatabase, whileBusy } from "./database";
import {
  DEMO_ADMIN,
  expect,
  registerClient,
  seriousAccessibilityProblems,
  signIn,
  test,
  watchForErrors,
} from "./support";
import { sampleIdCardPng } from "./verification-files";

import { LOCALHOST, virtualAuthenticator } from "./virtual-authenticator";

async function passwordStep(page: Page, email: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("client-pass-1");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

/** The admin's decision on the request's page, as the status line says it is then. */
async function approve(page: Page, clientName: string, button: string, after: string) {
  await page.goto("/admin/verifications");
  const queue = page.getByTestId("access-recovery-queue");
  await queue.getByRole("link", { name: new RegExp(clientName) }).click();
  await expect(page.getByRole("heading", { name: "New photos" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Documents on file" })).toBeVisible();
  await page.getByRole("button", { name: button, exact: true }).click();
  await expect(page.getByTestId("access-recovery-status")).toHaveText(after);
}

test.setTimeout(180_000);

test("a passkey-only client loses it, asks with a photo and a selfie, two admins approve, and the password alone signs in, held 24 hours from money", async ({
  browser,
}, testInfo) => {
  // Everyone the test needs, made in the database first: a write from outside while pages load can stall the server.
  const officer = await complianceOfficer();
  const clientContext = await browser.newContext({
    baseURL: LOCALHOST,
    viewport: { width: 390, height: 844 },
    bypassCSP: true,
  });
  const errors = watchForErrors(clientContext);
  const client = await clientContext.newPage();
  const authenticator = await virtualAuthenticator(clientContext, client);
  await client.goto("/");
  const firstName = `Lost${Date.now() % 100000}`;
  const email = await registerClient(client, firstName);
  await markVerifiedInDatabase(email);
  // Money to withdraw, as an approved deposit leaves it.
  await whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, created_at)
         SELECT id, 'deposit', 50000, 'approved', ${Date.now()} FROM users WHERE email = ${sqlValue(email)}`,
        `UPDATE profiles SET balance_cents = 50000 WHERE email = ${sqlValue(email)}`,
      ],
      e2eDatabase,
    ),
  );

  // A passkey is the only second factor; then the phone, and the recovery codes with it, are lost.
  await client.goto("/account");
  const card = client.getByRole("article").filter({ has: client.getByRole("heading", { name: "Passkeys" }) });
  await card.getByLabel("Current Password").fill("client-pass-1");
  await card.getByRole("button", { name: "Add a passkey" }).click();
  await expect(card.getByTestId("passkey-row")).toHaveCount(1);
  await authenticator.lose();
  await clientContext.clearCookies();

  await passwordStep(client, email);
  await expect(client).toHaveURL(/\/login\/two-factor$/);
  await client.getByRole("link", { name: "Restore access with your identity document" }).click();
  await expect(client).toHaveURL(/\/login\/recovery$/);
  await client.getByRole("button", { name: "Start a request" }).click();
  for (const [label, name] of [
    ["Choose photo of your identity document", "passport-today.png"],
    ["Choose selfie holding the document", "selfie.png"],
  ] as const) {
    await client.getByLabel(label).setInputFiles({ name, mimeType: "image/png", buffer: sampleIdCardPng() });
    await expect(client.getByText(name)).toBeVisible();
  }
  await client.screenshot({ path: testInfo.outputPath("recovery-photos-390.png"), fullPage: true });
  expect(await seriousAccessibilityProblems(client)).toEqual([]);
  await client.getByRole("button", { name: "Send the request" }).click();
  await expect(client.getByTestId("recovery-status")).toContainText("Waiting for a first approval");
  // The second approval waits a day from sending, the client's time to cancel: that day passes here, before
  // any admin opens it (a write from outside while the desk's feed is open can stall the local server).
  await whileBusy(() =>
    executeStatements(
      [
        `UPDATE access_recovery_requests SET submitted_at = submitted_at - 90000000
         WHERE user_id = (SELECT id FROM users WHERE email = ${sqlValue(email)}) AND status = 'submitted'`,
      ],
      e2eDatabase,
    ),
  );

  // Two admins: the owner's first approval, then a compliance officer's, each in their own browser.
  const ownerContext = await browser.newContext({ baseURL: LOCALHOST });
  const owner = await ownerContext.newPage();
  await signIn(owner, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await approve(owner, firstName, "Approve", "Waiting for a second approval");
  await expect(owner.getByText("You gave the first approval")).toBeVisible();
  const officerContext = await browser.newContext({ baseURL: LOCALHOST });
  const second = await officerContext.newPage();
  await signIn(second, officer.email, officer.password, { totpSecret: officer.totpSecret });
  await approve(second, firstName, "Approve and restore access", "Approved: access restored");
  await second.screenshot({ path: testInfo.outputPath("recovery-approved-1366.png"), fullPage: true });

  // The client's page says so; the password alone signs in, and no money moves for 24 hours.
  await client.goto("/login/recovery");
  await expect(client.getByTestId("recovery-status")).toContainText("Approved: access restored");
  await passwordStep(client, email);
  await expect(client).toHaveURL(/\/dashboard$/);
  await client.goto("/withdraw");
  await client.getByLabel("Amount (USD)").fill("25");
  await client.getByLabel("Cryptocurrency").selectOption("ETH");
  await client.getByLabel("Wallet Address").fill("0x3333333333333333333333333333333333333333");
  await client.getByRole("button", { name: "Submit Withdrawal" }).click();
  await expect(client.getByRole("alert")).toContainText("Two-factor sign-in was reset recently");

  for (const context of [clientContext, ownerContext, officerContext]) await context.close();
  expect(errors).toEqual([]);
});
