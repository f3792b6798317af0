import type { Page } from "@playwright/test";
import {
  DEMO_SECOND_ADMIN,
  expect,
  registerClient,
  seriousAccessibilityProblems,
  signIn,
  test,
  watchForErrors,
} from "./support";

// An admin signs in with their authenticator; a code step may have to be waited for.
test.setTimeout(120_000);

async function depositEntry(page: Page, amount: string, reason: string) {
  // The form stays open after an entry; the Deposit button opens it (and would close it again).
  const amountField = page.getByLabel("Deposit amount");
  if (!(await amountField.isVisible())) await page.getByRole("button", { name: "Deposit", exact: true }).click();
  await amountField.fill(amount);
  await page.getByRole("textbox", { name: "Reason" }).fill(reason);
  await page.getByRole("button", { name: "Confirm" }).click();
}

test("the third $4,000 entry for one client waits for a second admin, saying why", async ({ browser }, testInfo) => {
  const clientContext = await browser.newContext();
  // axe is injected as an inline script (`seriousAccessibilityProblems`), which the CSP rightly refuses.
  const adminContext = await browser.newContext({ bypassCSP: true });
  const errors = [clientContext, adminContext].flatMap(watchForErrors);
  const client = await clientContext.newPage();
  const admin = await adminContext.newPage();

  const firstName = `Limits${Date.now() % 100000}`;
  await registerClient(client, firstName);
  const accountId = (await client.getByText(/^[0-9a-f-]{36}$/).textContent()) ?? "";
  expect(accountId).toMatch(/^[0-9a-f-]{36}$/);

  await signIn(admin, DEMO_SECOND_ADMIN.email, DEMO_SECOND_ADMIN.password);
  await expect(admin).toHaveURL(/\/admin$/);
  await admin.goto(`/user/${accountId}`);
  await expect(admin.getByRole("heading", { name: `${firstName} Tester` })).toBeVisible();

  for (const ref of ["first", "second"]) {
    await depositEntry(admin, "4000", `Wire received, ${ref} part`);
    await expect(admin.getByRole("status").filter({ hasText: "Deposit of $4,000.00 recorded" }).first()).toBeVisible();
    await expect(admin.locator("tr").filter({ hasText: `$4,000.00` })).toHaveCount(ref === "first" ? 1 : 2);
  }

  await depositEntry(admin, "4000", "Wire received, third part");
  const because = "Would bring your approvals for this client today to $12,000.00.";
  await expect(
    admin
      .getByRole("status")
      .filter({ hasText: `Awaiting second approval. ${because}` })
      .first(),
  ).toBeVisible();
  const card = admin
    .getByRole("article")
    .filter({ has: admin.getByRole("heading", { name: "Awaiting second approval" }) })
    .getByTestId("proposal");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(`Deposit of $4,000.00 for ${firstName} Tester`);
  await expect(card).toContainText("Reason: Wire received, third part");
  await expect(card).toContainText(`Over the approval limit: ${because}`);
  await expect(card).toContainText("Waiting for another admin");
  // Only the two entries were posted.
  await expect(admin.locator("tr").filter({ hasText: "$4,000.00" })).toHaveCount(2);

  expect(await seriousAccessibilityProblems(admin)).toEqual([]);
  await admin.setViewportSize({ width: 1366, height: 900 });
  await card.scrollIntoViewIfNeeded();
  await admin.screenshot({ path: testInfo.outputPath("approval-limit-1366.png") });
  await admin.setViewportSize({ width: 390, height: 844 });
  await card.scrollIntoViewIfNeeded();
  await admin.screenshot({ path: testInfo.outputPath("approval-limit-390.png") });
  expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(errors).toEqual([]);
});
