import type { Page } from "@playwright/test";
import { markVerifiedInDatabase } from "./database";
import { DEMO_SECOND_ADMIN, expect, registerClient, signIn, test, watchForErrors } from "./support";

/**
 * A client cancels a pending withdrawal from the dashboard. The client is new to this test (the demo client's
 * figures move with the other tests); its $500 to withdraw is an admin's deposit entry, below the second-approval
 * threshold so it is posted at once. The second demo admin makes it: the first signs in for most other specs.
 */
const pendingPanel = (page: Page) =>
  page.getByRole("article").filter({ has: page.getByRole("heading", { name: "Pending & Declined Transactions" }) });

// An admin signs in with an authenticator; a code step may have to be waited for.
test.setTimeout(120_000);

test("a client cancels a pending withdrawal from the dashboard and the amount is available again at once", async ({
  page,
  browser,
}) => {
  const email = await registerClient(page, "Carla");
  // Only a verified client withdraws (docs/product.md, "Identity verification").
  await markVerifiedInDatabase(email);
  const accountId = (await page.getByText(/^[0-9a-f-]{36}$/).textContent()) ?? "";
  expect(accountId).toMatch(/^[0-9a-f-]{36}$/);

  const adminContext = await browser.newContext();
  const errors = watchForErrors(adminContext);
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_SECOND_ADMIN.email, DEMO_SECOND_ADMIN.password);
  await expect(admin).toHaveURL(/\/admin$/);
  await admin.goto(`/user/${accountId}`);
  await admin.getByRole("button", { name: "Deposit", exact: true }).click();
  await admin.getByLabel("Deposit amount").fill("500");
  await admin.getByRole("button", { name: "Confirm" }).click();
  await expect(admin.getByText("Deposit of $500.00 recorded").first()).toBeVisible();

  await page.goto("/withdraw");
  await expect(page.getByTestId("available-balance")).toHaveText("$500.00");
  await page.getByLabel("Amount (USD)").fill("120");
  await page.getByLabel("Cryptocurrency").selectOption("ETH");
  await page.getByLabel("Wallet Address").fill("0x5555555555555555555555555555555555555555");
  await page.getByRole("button", { name: "Submit Withdrawal" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Withdrawal request submitted successfully")).toBeVisible();

  // Pending: the amount is reserved. The withdrawal page's available balance and the dashboard's Gross leave it
  // out; the dashboard's Available counts approved rows only.
  const row = pendingPanel(page).getByRole("listitem").filter({ hasText: "$120.00" });
  await expect(row).toHaveAttribute("data-status", "pending");
  await expect(page.getByTestId("balance-gross")).toHaveText("$380.00");
  await expect(page.getByTestId("balance-available")).toHaveText("$500.00");
  await page.goto("/withdraw");
  await expect(page.getByTestId("available-balance")).toHaveText("$380.00");
  await page.goto("/dashboard");
  const cancel = page.getByRole("button", { name: "Cancel withdrawal of $120.00" });
  const dialog = page.getByRole("dialog", { name: "Cancel this request?" });
  // The button opens its dialog once the page has hydrated; a click before that does nothing.
  const openDialog = () =>
    expect(async () => {
      if (!(await dialog.isVisible())) await cancel.click();
      await expect(dialog).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });

  // 'Keep it' closes the dialog and changes nothing.
  await openDialog();
  await dialog.getByRole("button", { name: "Keep it" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveAttribute("data-status", "pending");

  await openDialog();
  await dialog.getByRole("button", { name: "Cancel request" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveAttribute("data-status", "cancelled");
  await expect(row).toContainText("Cancelled");
  await expect(row.getByRole("button", { name: /^Cancel / })).toHaveCount(0);
  await expect(page.getByTestId("balance-gross")).toHaveText("$500.00");
  await expect(page.getByTestId("balance-available")).toHaveText("$500.00");
  await page.goto("/withdraw");
  await expect(page.getByTestId("available-balance")).toHaveText("$500.00");

  // The admin's table shows the request cancelled, with nothing left to decide.
  await admin.reload();
  const adminRow = admin.locator("tr").filter({ hasText: "$120.00" });
  await expect(adminRow).toHaveAttribute("data-status", "cancelled");
  await expect(adminRow).toContainText("Cancelled");
  await expect(adminRow.getByRole("button", { name: /Approve|Reject/ })).toHaveCount(0);

  await adminContext.close();
  expect(errors).toEqual([]);
});
