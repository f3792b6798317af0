import {
  DEMO_ADMIN,
  DEMO_SECOND_ADMIN,
  expect,
  registerClient,
  rejectWaitingWalletChanges,
  signIn,
  submitDepositRequest,
  test,
  watchForErrors,
} from "./support";

test("an admin approves a client's deposit, posts a profit, suspends and reactivates", async ({ browser }) => {
  const clientContext = await browser.newContext();
  const clientErrors = watchForErrors(clientContext);
  const client = await clientContext.newPage();
  const clientName = `Quinn${Date.now() % 100000}`;
  await registerClient(client, clientName);
  await submitDepositRequest(client, "250");
  await expect(client.getByText("Deposit request submitted successfully")).toBeVisible();
  await expect(client.getByTestId("balance-available")).toHaveText("$0.00");

  const adminContext = await browser.newContext();
  const adminErrors = watchForErrors(adminContext);
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(admin).toHaveURL(/\/admin$/);
  await admin
    .getByRole("group")
    .getByRole("link", { name: `${clientName} Tester` })
    .click();
  await expect(admin.getByRole("heading", { name: `${clientName} Tester` })).toBeVisible();

  await admin.getByRole("button", { name: "Approve deposit of $250.00" }).click();
  await expect(
    admin
      .getByRole("status")
      .filter({ hasText: "Transaction approved" })
      .or(admin.getByText("Transaction approved").first()),
  ).toBeVisible();
  await expect(admin.locator("tr[data-status=approved]").filter({ hasText: "$250.00" })).toBeVisible();

  await client.reload();
  await expect(client.getByTestId("balance-available")).toHaveText("$250.00");

  await admin.getByRole("button", { name: "Profit", exact: true }).click();
  await admin.getByLabel("Profit amount").fill("40");
  await admin.getByLabel("Trading pair").selectOption("EUR/USD");
  await admin.getByRole("button", { name: "Confirm" }).click();
  await expect(admin.getByText("Profit of $40.00 recorded").first()).toBeVisible();
  await expect(admin.locator("tr").filter({ hasText: "EUR/USD" }).filter({ hasText: "$40.00" })).toBeVisible();

  await admin.getByRole("button", { name: "Suspend User" }).click();
  await expect(admin.getByRole("button", { name: "Activate User" })).toBeVisible();
  // The suspension ended the client's session.
  await client.reload();
  await expect(client).toHaveURL(/\/$/);
  await admin.getByRole("button", { name: "Activate User" }).click();
  await expect(admin.getByRole("button", { name: "Suspend User" })).toBeVisible();

  await clientContext.close();
  await adminContext.close();
  expect([...clientErrors, ...adminErrors]).toEqual([]);
});

test("an admin proposes a deposit-wallet change that a second admin rejects, and deletes a throwaway client", async ({
  browser,
}) => {
  // Two admins sign in with their authenticators; a code step may have to be waited for.
  test.setTimeout(120_000);
  const throwawayContext = await browser.newContext();
  const throwaway = await throwawayContext.newPage();
  const firstName = `Temp${Date.now() % 100000}`;
  const email = await registerClient(throwaway, firstName);
  await throwawayContext.close();

  const context = await browser.newContext();
  const secondContext = await browser.newContext();
  const errors = [...watchForErrors(context), ...watchForErrors(secondContext)];
  const second = await secondContext.newPage();
  await signIn(second, DEMO_SECOND_ADMIN.email, DEMO_SECOND_ADMIN.password);
  await expect(second).toHaveURL(/\/admin$/);
  await rejectWaitingWalletChanges(second, "USDT (ERC20)");
  const admin = await context.newPage();
  await signIn(admin, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(admin).toHaveURL(/\/admin$/);

  // Every deposit-wallet change waits for a second admin.
  await admin.getByRole("button", { name: "Update Deposit Wallets" }).click();
  const dialog = admin.getByRole("dialog", { name: "Deposit Wallets" });
  const original = await dialog.getByLabel("USDT (ERC20)").inputValue();
  const proposed = `0x4444${Date.now().toString(16).padStart(36, "0")}`;
  await dialog.getByLabel("USDT (ERC20)").fill(proposed);
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(dialog.getByText("Awaiting second approval", { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden({ timeout: 5_000 });
  const description = `Wallet USDT (ERC20): ${original} → ${proposed}`;

  // The second admin rejects it (its desk follows live): the reason is required.
  const row = second.getByTestId("proposal").filter({ hasText: description });
  await row.getByRole("button", { name: /Reject/ }).click();
  const reject = second.getByRole("dialog").filter({ has: second.getByRole("textbox", { name: "Reason" }) });
  await reject.getByRole("textbox", { name: "Reason" }).fill("Not the address our custodian gave us");
  await reject.getByRole("button", { name: "Reject", exact: true }).click();
  await expect(reject).toBeHidden();
  await expect(row).toHaveCount(0);
  // The proposer's desk follows live, and the wallet kept its address.
  await expect(admin.getByTestId("proposal").filter({ hasText: description })).toHaveCount(0);
  await admin.getByRole("button", { name: "Update Deposit Wallets" }).click();
  await expect(dialog.getByLabel("USDT (ERC20)")).toHaveValue(original);
  await dialog.getByRole("button", { name: "Close" }).click();
  await secondContext.close();

  await admin.getByLabel("Search clients by name or email").fill(email);
  await admin.getByRole("button", { name: "Search" }).click();
  await expect(admin).toHaveURL(/\?q=/);
  await expect(admin.getByRole("button", { name: /^Delete / })).toHaveCount(1);
  let confirmation = "";
  admin.once("dialog", (confirm) => {
    confirmation = confirm.message();
    void confirm.accept();
  });
  await admin.getByRole("button", { name: `Delete ${firstName} Tester's data` }).click();
  await expect
    .poll(() => confirmation)
    .toBe("Are you sure you want to delete this user's profile and transactions? This action cannot be undone.");
  await expect(admin.getByText("User data deleted successfully.")).toBeVisible();
  // The profile is gone: the row stays (the login account remains) but has nothing left to delete.
  await expect(admin.getByRole("button", { name: `Delete ${firstName} Tester's data` })).toHaveCount(0);
  await context.close();
  expect(errors).toEqual([]);
});
