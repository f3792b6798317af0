import type { Page } from "@playwright/test";
import { markVerifiedInDatabase } from "./database";
import {
  DEMO_ADMIN,
  DEMO_SECOND_ADMIN,
  expect,
  passStepUpIfAsked,
  registerClient,
  signIn,
  submitDepositRequest,
  test,
  watchForErrors,
} from "./support";

/** The 'Awaiting second approval' card of an admin page, and one of its proposals by what it says. */
function proposalsCard(page: Page) {
  return page.getByRole("article").filter({ has: page.getByRole("heading", { name: "Awaiting second approval" }) });
}
function proposal(page: Page, text: string) {
  return proposalsCard(page).getByTestId("proposal").filter({ hasText: text });
}

// Two admins sign in with their authenticators; a code step may have to be waited for.
test.setTimeout(120_000);

test("a $20,000 deposit entry waits for a second admin; the other admin's approval reaches the client's dashboard live", async ({
  browser,
}) => {
  const clientContext = await browser.newContext();
  const firstAdminContext = await browser.newContext();
  const secondAdminContext = await browser.newContext();
  const errors = [clientContext, firstAdminContext, secondAdminContext].flatMap(watchForErrors);
  const client = await clientContext.newPage();
  const firstAdmin = await firstAdminContext.newPage();
  const secondAdmin = await secondAdminContext.newPage();

  // A client of this test's own: the demo client's balance moves with the other tests running at the same time.
  const firstName = `Eyes${Date.now() % 100000}`;
  const clientName = `${firstName} Tester`;
  await registerClient(client, firstName);
  const accountId = (await client.getByText(/^[0-9a-f-]{36}$/).textContent()) ?? "";
  expect(accountId).toMatch(/^[0-9a-f-]{36}$/);
  await expect(client.getByTestId("balance-available")).toHaveText("$0.00");

  // Admin A: the entry at the threshold's double becomes a proposal, with the reason it needs.
  await signIn(firstAdmin, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(firstAdmin).toHaveURL(/\/admin$/);
  await firstAdmin.goto(`/user/${accountId}`);
  await expect(firstAdmin.getByRole("heading", { name: clientName })).toBeVisible();
  await firstAdmin.getByRole("button", { name: "Deposit", exact: true }).click();
  await firstAdmin.getByLabel("Deposit amount").fill("20000");
  await firstAdmin.getByRole("textbox", { name: "Reason" }).fill("Wire received from the client's bank, ref E2E");
  await firstAdmin.getByRole("button", { name: "Confirm" }).click();
  await expect(firstAdmin.getByRole("status").filter({ hasText: "Awaiting second approval" }).first()).toBeVisible();

  const description = `Deposit of $20,000.00 for ${clientName}`;
  const onClientPage = proposal(firstAdmin, description);
  await expect(onClientPage).toHaveCount(1);
  await expect(onClientPage).toContainText("Wire received from the client's bank, ref E2E");
  await expect(onClientPage).toContainText(DEMO_ADMIN.email);
  await expect(onClientPage).toContainText("Waiting for another admin");
  await expect(onClientPage.getByRole("button")).toHaveCount(0);
  // Nothing was posted: no $20,000 row, and the client's balance is as it was.
  await expect(firstAdmin.locator("tr").filter({ hasText: "$20,000.00" })).toHaveCount(0);
  await client.reload();
  await expect(client.getByTestId("balance-available")).toHaveText("$0.00");
  await expect(client.getByTestId("balance-gross")).toHaveText("$0.00");

  // Admin A's desk: the proposal, without Approve or Reject for its own proposer.
  await firstAdmin.goto("/admin");
  const onFirstDesk = proposal(firstAdmin, description);
  await expect(onFirstDesk).toHaveCount(1);
  await expect(onFirstDesk).toContainText("Waiting for another admin");
  await expect(onFirstDesk.getByRole("button", { name: /Approve/ })).toHaveCount(0);
  await expect(onFirstDesk.getByRole("button", { name: /Reject/ })).toHaveCount(0);

  // Admin B approves from the desk, while the client's dashboard stays open (no reload from here on).
  await signIn(secondAdmin, DEMO_SECOND_ADMIN.email, DEMO_SECOND_ADMIN.password);
  await expect(secondAdmin).toHaveURL(/\/admin$/);
  const onSecondDesk = proposal(secondAdmin, description);
  await expect(onSecondDesk).toHaveCount(1);
  await expect(onSecondDesk).toContainText(DEMO_ADMIN.email);
  await expect(onSecondDesk.getByRole("button", { name: /Reject/ })).toBeVisible();
  await onSecondDesk.getByRole("button", { name: /Approve/ }).click();
  await passStepUpIfAsked(secondAdmin, DEMO_SECOND_ADMIN.totpSecret, onSecondDesk);

  await expect(client.getByTestId("balance-available")).toHaveText("$20,000.00");
  await expect(client.getByTestId("balance-gross")).toHaveText("$20,000.00");

  // The first admin's desk follows live: the proposal is gone from its card too.
  await expect(onFirstDesk).toHaveCount(0);
  await firstAdmin.goto(`/user/${accountId}`);
  await expect(firstAdmin.locator("tr[data-status=approved]").filter({ hasText: "$20,000.00" })).toHaveCount(1);

  for (const context of [clientContext, firstAdminContext, secondAdminContext]) await context.close();
  expect(errors).toEqual([]);
});

test("a $15,000 deposit request's approval waits for a second admin, who approves it on a phone; the client's balance moves only then", async ({
  browser,
}, testInfo) => {
  const clientContext = await browser.newContext();
  const firstAdminContext = await browser.newContext();
  const secondAdminContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const errors = [clientContext, firstAdminContext, secondAdminContext].flatMap(watchForErrors);
  const client = await clientContext.newPage();
  const firstAdmin = await firstAdminContext.newPage();
  const secondAdmin = await secondAdminContext.newPage();

  const firstName = `Dep${Date.now() % 100000}`;
  const clientName = `${firstName} Tester`;
  const email = await registerClient(client, firstName);
  // Verified: an unverified client's deposits stop at UNVERIFIED_DEPOSIT_LIMIT (docs/product.md, "Identity verification").
  await markVerifiedInDatabase(email);
  const accountId = (await client.getByText(/^[0-9a-f-]{36}$/).textContent()) ?? "";
  await submitDepositRequest(client, "15000");
  await expect(client.getByText("Deposit request submitted successfully")).toBeVisible();

  // Admin A's Approve on the row proposes (after the code, if the sign-in's is no longer fresh).
  await signIn(firstAdmin, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await firstAdmin.goto(`/user/${accountId}`);
  const row = firstAdmin.locator("tr[data-status=pending]").filter({ hasText: "$15,000.00" });
  await row.getByRole("button", { name: "Approve deposit of $15,000.00" }).click();
  await expect(firstAdmin.getByRole("status").filter({ hasText: "Awaiting second approval" }).first()).toBeVisible();
  await expect(row.getByText("Awaiting second approval")).toBeVisible();
  await expect(row.getByRole("button", { name: /Approve/ })).toHaveCount(0);
  const description = `Approve deposit of $15,000.00 for ${clientName}`;
  await expect(proposal(firstAdmin, description)).toContainText("Waiting for another admin");
  await firstAdmin.screenshot({ path: testInfo.outputPath("deposit-proposed.png"), fullPage: true });
  await client.reload();
  await expect(client.getByTestId("balance-available")).toHaveText("$0.00");

  // Admin B, on a phone, approves it from the client's page.
  await signIn(secondAdmin, DEMO_SECOND_ADMIN.email, DEMO_SECOND_ADMIN.password);
  await secondAdmin.goto(`/user/${accountId}`);
  const onSecond = proposal(secondAdmin, description);
  await onSecond.getByRole("button", { name: /^Approve:/ }).click();
  await passStepUpIfAsked(secondAdmin, DEMO_SECOND_ADMIN.totpSecret, onSecond);
  await expect(secondAdmin.locator("tr[data-status=approved]").filter({ hasText: "$15,000.00" })).toHaveCount(1);
  await secondAdmin.screenshot({ path: testInfo.outputPath("deposit-approved-phone.png"), fullPage: true });
  await expect(client.getByTestId("balance-available")).toHaveText("$15,000.00");

  for (const context of [clientContext, firstAdminContext, secondAdminContext]) await context.close();
  expect(errors).toEqual([]);
});
