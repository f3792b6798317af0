import { markVerifiedInDatabase } from "./database";
import { expect, registerClient, seriousAccessibilityProblems, submitDepositRequest, test } from "./support";

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
    await page.getByLabel("Payment Wallet").selectOption("ETH");
    await page.getByRole("button", { name: "Submit Deposit" }).click();
    await expect(page.getByRole("alert").first()).toContainText(
      "Until your identity is verified, your deposits may total at most $2,000.00: you can still deposit $2,000.00.",
    );
    await submitDepositRequest(page, "500", "ETH");
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
