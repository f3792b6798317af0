import { markVerifiedInDatabase } from "./database";
import { DEMO_SECOND_ADMIN, expect, registerClient, signIn, test, watchForErrors } from "./support";

/**
 * An admin finds a client's pending withdrawal on /admin/transactions by filtering (type, 'Pending only', the
 * client's name) and opens the client's page from the row. The client is new to this test; its money is an
 * admin's deposit entry below the second-approval threshold. The second demo admin works the desk here.
 */
test.setTimeout(120_000);

test("an admin filters /admin/transactions to pending withdrawals and opens one", async ({ page, browser }) => {
  const firstName = `Wanda${Date.now() % 100000}`;
  const email = await registerClient(page, firstName);
  // Only a verified client withdraws (docs/product.md, "Identity verification").
  await markVerifiedInDatabase(email);
  const accountId = (await page.getByText(/^[0-9a-f-]{36}$/).textContent()) ?? "";

  const adminContext = await browser.newContext();
  const errors = watchForErrors(adminContext);
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_SECOND_ADMIN.email, DEMO_SECOND_ADMIN.password);
  await expect(admin).toHaveURL(/\/admin$/);
  await admin.goto(`/user/${accountId}`);
  await admin.getByRole("button", { name: "Deposit", exact: true }).click();
  await admin.getByLabel("Deposit amount").fill("300");
  await admin.getByRole("button", { name: "Confirm" }).click();
  await expect(admin.getByText("Deposit of $300.00 recorded").first()).toBeVisible();

  await page.goto("/withdraw");
  await page.getByLabel("Amount (USD)").fill("75");
  await page.getByLabel("Cryptocurrency").selectOption("ETH");
  await page.getByLabel("Wallet Address").fill("0x6666666666666666666666666666666666666666");
  await page.getByRole("button", { name: "Submit Withdrawal" }).click();
  await expect(page.getByText("Withdrawal request submitted successfully")).toBeVisible();

  await admin.goto("/admin");
  await admin.getByRole("link", { name: "Transactions", exact: true }).click();
  await expect(admin).toHaveURL(/\/admin\/transactions$/);
  await admin.getByRole("link", { name: "Pending only" }).click();
  await expect(admin).toHaveURL(/status=pending/);
  await expect(admin.getByLabel("Status")).toHaveValue("pending");
  await admin.getByLabel("Type").selectOption("withdraw");
  await admin.getByLabel("Client (name or e-mail)").fill(firstName);
  await admin.getByRole("button", { name: "Filter" }).click();
  await expect(admin).toHaveURL(/type=withdraw/);

  const rows = admin.locator("tbody tr");
  await expect(rows).toHaveCount(1);
  const row = rows.first();
  await expect(row).toHaveAttribute("data-status", "pending");
  await expect(row).toContainText("$75.00");
  await expect(row).toContainText(/TX-[0-9A-Z]{6}/);
  const reference = (await row.locator("td").first().textContent()) ?? "";

  await row.getByRole("link", { name: `${firstName} Tester` }).click();
  await expect(admin).toHaveURL(new RegExp(`/user/${accountId}$`));
  const clientRow = admin.locator("tr[data-status=pending]").filter({ hasText: reference });
  await expect(clientRow).toContainText("$75.00");
  await expect(clientRow.getByRole("button", { name: "Approve withdrawal of $75.00" })).toBeVisible();
  await adminContext.close();
  expect(errors).toEqual([]);
});
