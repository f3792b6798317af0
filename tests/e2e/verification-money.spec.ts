import { markVerifiedInDatabase } from "./database";
import {
  DEMO_SECOND_ADMIN,
  expect,
  registerClient,
  seriousAccessibilityProblems,
  signIn,
  submitDepositRequest,
  test,
} from "./support";

/**
 * Money by verification level in the browser (docs/product.md, "Identity verification"): a new client sees what
 * their level allows before filling a form in: the deposit page their limit, the withdrawal page the way to verify
 * instead of a form. Once verified (set straight in the database; the review desk is tested on its own), the
 * withdrawal form is there with the rolling limits.
 */

test.use({ bypassCSP: true });
// The wrangler CLI call that marks the client verified starts its own runtime: seconds, more on a busy machine.
test.setTimeout(120_000);

for (const viewport of [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`a new client's money pages follow their level (${viewport.width} px wide)`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const email = await registerClient(page, "Valeria");

    await page.goto("/withdraw");
    const refusal = page.getByTestId("verification-level");
    await expect(refusal).toContainText("Account level: Unverified");
    await expect(refusal).toContainText("Verify your identity before you withdraw.");
    await expect(refusal.getByRole("link", { name: "Verify your identity" })).toHaveAttribute(
      "href",
      "/account/verification",
    );
    await expect(page.getByRole("button", { name: "Submit Withdrawal" })).toHaveCount(0);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await page.goto("/deposit");
    await expect(page.getByTestId("verification-level")).toContainText("You can still deposit $2,000.00.");
    await expect(page.getByTestId("verification-level")).toContainText(/1[34] days left to verify your identity/);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    // Over the limit: refused with what is left, and nothing is stored.
    await page.getByLabel("Amount (USD)").fill("2500");
    await page.getByLabel("Payment Wallet").selectOption("USDT (TRC20)");
    await page.getByRole("button", { name: "Submit Deposit" }).click();
    await expect(page.getByRole("alert").first()).toContainText(
      "Until your identity is verified, your deposits may total at most $2,000.00: you can still deposit $2,000.00.",
    );
    await submitDepositRequest(page, "500");
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/deposit");
    await expect(page.getByTestId("verification-level")).toContainText("You can still deposit $1,500.00.");

    await markVerifiedInDatabase(email);
    await page.goto("/withdraw");
    const limits = page.getByTestId("verification-level");
    await expect(limits).toContainText("Account level: Verified");
    await expect(limits).toContainText("$25,000.00 of $25,000.00 left per 24 hours");
    await expect(limits).toContainText("$100,000.00 of $100,000.00 left per 30 days");
    await expect(page.getByRole("button", { name: "Submit Withdrawal" })).toBeVisible();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.goto("/deposit");
    await expect(page.getByTestId("verification-level")).toHaveCount(0);
  });
}

test("the desk is told an unverified client's deposit limit, and warned before an entry passes it", async ({
  page,
  browser,
}) => {
  await registerClient(page, `Lim${Date.now() % 100000}`);
  const accountId = (await page.getByText(/^[0-9a-f-]{36}$/).textContent()) ?? "";
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_SECOND_ADMIN.email, DEMO_SECOND_ADMIN.password);
  await admin.goto(`/user/${accountId}`);
  await admin.getByRole("button", { name: "Deposit", exact: true }).click();
  await expect(admin.getByRole("status").filter({ hasText: "identity is not verified" })).toContainText(
    "may total $2,000.00 until it is, and $2,000.00 is left.",
  );
  await admin.getByLabel("Deposit amount").fill("2500");
  await expect(admin.getByRole("alert").filter({ hasText: "past that limit" })).toContainText(
    "This entry takes them $500.00 past that limit: confirm only if that is intended.",
  );
  await admin.getByLabel("Deposit amount").fill("1500");
  await expect(admin.getByRole("alert").filter({ hasText: "past that limit" })).toHaveCount(0);
  await adminContext.close();
});
