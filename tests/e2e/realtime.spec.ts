import { DEMO_ADMIN, expect, registerClient, signIn, submitDepositRequest, test, watchForErrors } from "./support";

test("an admin sees a client's deposit appear live, and the client sees the approval live", async ({ browser }) => {
  const clientContext = await browser.newContext();
  const adminContext = await browser.newContext();
  const errors = [...watchForErrors(clientContext), ...watchForErrors(adminContext)];
  const client = await clientContext.newPage();
  const admin = await adminContext.newPage();

  const firstName = `Live${Date.now() % 100000}`;
  await registerClient(client, firstName);
  const accountId = (await client.getByText(/^[0-9a-f-]{36}$/).textContent()) ?? "";

  await signIn(admin, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(admin).toHaveURL(/\/admin$/);
  expect(accountId).toMatch(/^[0-9a-f-]{36}$/);
  await admin.goto(`/user/${accountId}`);
  await expect(admin.getByText("No transactions found")).toBeVisible();

  await submitDepositRequest(client, "777.77", "BTC");
  await expect(client).toHaveURL(/\/dashboard$/);

  // No reload on the admin's page: the row arrives over the client's feed.
  const row = admin.locator("tr").filter({ hasText: "$777.77" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("pending");

  await expect(client.getByTestId("balance-available")).toHaveText("$0.00");
  await admin.getByRole("button", { name: "Approve deposit of $777.77" }).click();
  await expect(row).toContainText("approved");

  // No reload on the client's dashboard either.
  await expect(client.getByTestId("balance-available")).toHaveText("$777.77");
  await expect(admin.locator("tr").filter({ hasText: "$777.77" })).toHaveCount(1);

  // The client's History is live as well: a request decided while it is open changes status in place.
  await submitDepositRequest(client, "123.45", "BTC");
  await expect(client).toHaveURL(/\/dashboard$/);
  await client.goto("/transactions");
  const historyRow = client.locator("tr").filter({ hasText: "$123.45" });
  await expect(historyRow).toContainText("Pending");
  await admin.getByRole("button", { name: "Reject deposit of $123.45" }).click();
  await admin.getByRole("dialog").getByRole("button", { name: "Reject", exact: true }).click();
  await expect(historyRow).toContainText("Declined");

  await clientContext.close();
  await adminContext.close();
  expect(errors).toEqual([]);
});
