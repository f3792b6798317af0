import type { Locator } from "@playwright/test";
import {
  DEMO_SECOND_ADMIN,
  expect,
  registerClient,
  signIn,
  submitDepositRequest,
  test,
  watchForErrors,
} from "./support";
import { withUnusedCode } from "./totp";
import { sampleBillPdf, sampleIdCardPng } from "./verification-files";

/**
 * Identity verification from end to end, every step through the pages a person uses: a new client deposits (an
 * unverified client may, within the limit) but cannot withdraw, sends their details and documents, the second demo
 * admin approves the case and the deposit from the desk, and the client's withdrawal form then works. At desktop
 * and at phone width.
 */

// Registration, two sign-ins and a step-up code on a busy machine.
test.setTimeout(180_000);

/** Enters a fresh code where the form asks for one (a session's code may be older than 10 minutes). */
async function codeIfAsked(form: Locator, done: Locator) {
  const code = form.getByLabel("Enter the 6-digit code from your authenticator app");
  await expect.poll(async () => (await code.isVisible()) || (await done.isVisible()), { timeout: 15_000 }).toBe(true);
  if (!(await code.isVisible())) return;
  await withUnusedCode(DEMO_SECOND_ADMIN.totpSecret, async (value) => {
    await code.fill(value);
    await code.press("Enter");
    await expect(done).toBeVisible();
  });
}

for (const [label, viewport] of [
  ["desktop", { width: 1366, height: 900 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`a new client is verified by the second admin and can then withdraw (${label})`, async ({ browser }) => {
    const clientContext = await browser.newContext({ viewport });
    const adminContext = await browser.newContext({ viewport });
    const errors = [clientContext, adminContext].flatMap(watchForErrors);
    const client = await clientContext.newPage();
    const admin = await adminContext.newPage();
    const firstName = `Jour${Date.now() % 100000}`;
    await registerClient(client, firstName);

    // Unverified: a deposit within the limit is taken, a withdrawal is not offered.
    await submitDepositRequest(client, "300");
    await expect(client.getByText("Deposit request submitted successfully")).toBeVisible();
    await client.goto("/withdraw");
    await expect(client.getByText("Verify your identity before you withdraw.")).toBeVisible();
    await expect(client.getByRole("button", { name: "Submit Withdrawal" })).toHaveCount(0);

    // The client sends their details and a passport with a proof of address.
    await client.getByRole("link", { name: "Verify your identity" }).click();
    await expect(client.getByRole("heading", { name: "Identity verification", level: 1 })).toBeVisible();
    await client.getByLabel("Legal first name").fill(firstName);
    await client.getByLabel("Legal last name").fill("Lovelace");
    await client.getByLabel("Date of birth").fill("1988-03-14");
    await client.getByLabel("Country of residence").selectOption("United Kingdom");
    await client.getByLabel("Residential address").fill("4 Harbour Row, Leith, Edinburgh EH6 6LA");
    await client.getByLabel("Document type").selectOption("passport");
    await client.getByLabel("Document number").fill("533401372");
    await client
      .getByLabel(/^Choose identity document \(front\)/)
      .setInputFiles({ name: "passport.png", mimeType: "image/png", buffer: sampleIdCardPng() });
    await expect(client.getByTestId("slot-identity_front-file")).toContainText("passport.png");
    await client
      .getByLabel(/^Choose proof of address/)
      .setInputFiles({ name: "bill.pdf", mimeType: "application/pdf", buffer: sampleBillPdf() });
    await expect(client.getByTestId("slot-proof_of_address-file")).toContainText("bill.pdf");
    await client.getByRole("button", { name: "Send for review" }).click();
    await expect(client.getByTestId("verification-status-label")).toHaveText("Submitted, in review");

    // The second demo admin finds the case from the desk and approves it after a fresh code.
    await signIn(admin, DEMO_SECOND_ADMIN.email, DEMO_SECOND_ADMIN.password);
    await admin.getByRole("link", { name: "Verifications awaiting review" }).click();
    await admin.getByRole("link", { name: `${firstName} Lovelace` }).click();
    await expect(admin.getByText("4 Harbour Row, Leith, Edinburgh EH6 6LA")).toBeVisible();
    await expect(admin.getByRole("img", { name: "Identity document (front) as uploaded by the client" })).toBeVisible();
    await admin.getByRole("button", { name: "Approve verification" }).click();
    const decision = admin.getByTestId("verification-decision");
    await codeIfAsked(
      admin.locator("form").filter({ has: admin.getByRole("button", { name: "Approve verification" }) }),
      decision,
    );
    await expect(decision).toContainText(`Verified by ${DEMO_SECOND_ADMIN.email}`);

    // And the deposit, from the client's page (named as they registered), where the level now reads Verified.
    await admin
      .getByRole("link", { name: `${firstName} Tester`, exact: true })
      .last()
      .click();
    await expect(admin.getByTestId("verification-level").first()).toHaveText("Verified");
    await admin.getByRole("button", { name: "Approve deposit of $300.00" }).click();
    await expect(admin.locator("tr[data-status=approved]").filter({ hasText: "$300.00" })).toBeVisible();

    // The client reads Verified and withdraws.
    await client.goto("/dashboard");
    await expect(client.getByTestId("verification-status-label")).toHaveText("Verified");
    await client.goto("/withdraw");
    await expect(client.getByText("Account level: Verified")).toBeVisible();
    await client.getByLabel("Amount (USD)").fill("120");
    await client.getByLabel("Cryptocurrency").selectOption("ETH");
    await client.getByLabel("Wallet Address").fill("0x4444444444444444444444444444444444444444");
    await client.getByRole("button", { name: "Submit Withdrawal" }).click();
    await expect(client.getByText("Withdrawal request submitted successfully")).toBeVisible();
    expect(await client.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

    await clientContext.close();
    await adminContext.close();
    expect(errors).toEqual([]);
  });
}
