import type { Page } from "@playwright/test";
import { DEMO_CLIENT, expect, signIn, test } from "./support";

async function signInAsDemoClient(page: Page) {
  await signIn(page, DEMO_CLIENT.email, DEMO_CLIENT.password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

test("the demo client deposits with the QR code and copy button and sees the pending deposit", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signInAsDemoClient(page);
  await page.getByRole("link", { name: "Fund Account" }).click();
  await expect(page.getByRole("heading", { name: "Make a Deposit" })).toBeVisible();

  const submit = page.getByRole("button", { name: "Submit Deposit" });
  await expect(submit).toBeDisabled();
  await page.getByLabel("Amount (USD)").fill("321.09");
  await page.getByLabel("Payment Wallet").selectOption("USDT (TRC20)");
  // The claim wallet's address (the wallets spec may be moving it meanwhile: any Tron address it holds).
  const address = page.getByLabel("Wallet Address");
  await expect(address).toHaveValue(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  const shown = await address.inputValue();
  await expect(submit).toBeEnabled();

  await page.getByRole("button", { name: "Copy", exact: true }).click();
  await expect(page.getByRole("button", { name: "Copied!", exact: true })).toBeVisible();
  await expect(page.getByText("Wallet address copied to clipboard").first()).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
  await expect(page.getByRole("button", { name: "Copy", exact: true })).toBeVisible({ timeout: 4_000 });

  await page.getByRole("button", { name: "Show QR Code" }).click();
  const dialog = page.getByRole("dialog", { name: "USDT (TRC20) deposit address" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("img", { name: "QR code of the USDT (TRC20) address" })).toHaveAttribute(
    "width",
    "200",
  );
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();

  await submit.click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Deposit request submitted successfully")).toBeVisible();
  const pendingPanel = page
    .getByRole("article")
    .filter({ has: page.getByRole("heading", { name: "Pending & Declined Transactions" }) });
  await expect(pendingPanel.getByText("+$321.09")).toBeVisible();
});

test("a withdrawal above the available balance is refused, a valid one goes through", async ({ page }) => {
  await signInAsDemoClient(page);
  await page.goto("/withdraw");
  const availableText = (await page.getByTestId("available-balance").textContent()) ?? "";
  const available = Number(availableText.replace(/[$,]/g, ""));
  expect(available).toBeGreaterThan(20);

  await page.getByLabel("Amount (USD)").fill((available + 0.01).toFixed(2));
  await page.getByLabel("Cryptocurrency").selectOption("ETH");
  await page.getByLabel("Wallet Address").fill("0x1111111111111111111111111111111111111111");
  await page.getByRole("button", { name: "Submit Withdrawal" }).click();
  await expect(page.getByRole("alert")).toHaveText("Withdrawal amount exceeds account balance");
  await expect(page.getByTestId("available-balance")).toHaveText(availableText);

  await page.getByLabel("Amount (USD)").fill("12.34");
  await page.getByRole("button", { name: "Submit Withdrawal" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Withdrawal request submitted successfully")).toBeVisible();
  await page.goto("/withdraw");
  await expect(page.getByTestId("available-balance")).toHaveText(
    `$${(available - 12.34).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
  );
});

test("a trading plan's Get Started prefills the deposit amount", async ({ page }) => {
  await signInAsDemoClient(page);
  await page.goto("/trading-plan");
  await expect(page.getByRole("heading", { name: "Select Your Trading Plan" })).toBeVisible();
  await page.getByRole("link", { name: "Get Started with the Master Plan" }).click();
  await expect(page).toHaveURL(/\/deposit\?amount=11000$/);
  await expect(page.getByLabel("Amount (USD)")).toHaveValue("11000.00");
});
