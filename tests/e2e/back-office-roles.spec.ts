import { clientWithRequests, operator, SUPPORT } from "./back-office-people";
import { expect, seriousAccessibilityProblems, signIn, test } from "./support";

// axe is injected as an inline script, which the site's CSP refuses (seriousAccessibilityProblems).
test.use({ bypassCSP: true });

test("a support admin reads a client's page, is offered no money act, and is refused the audit log", async ({
  page,
}, testInfo) => {
  const clientId = await clientWithRequests();
  await signIn(page, SUPPORT.email, SUPPORT.password, { totpSecret: SUPPORT.totpSecret });
  await expect(page).toHaveURL(/\/admin$/);
  // The desk offers only what support may open.
  await expect(page.getByRole("link", { name: "Transactions", exact: true })).toBeVisible();
  for (const name of ["Verifications", "Audit Log", "Chain payments", "Mail"]) {
    await expect(page.getByRole("link", { name, exact: true })).toHaveCount(0);
  }
  await expect(page.getByRole("button", { name: "Update Deposit Wallets" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Delete / })).toHaveCount(0);
  // Deleting is the list's only action: without it, no empty Actions column.
  await expect(page.getByRole("columnheader", { name: "Last Activity" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Actions" })).toHaveCount(0);

  await page.goto(`/user/${clientId}`);
  await expect(page.getByRole("heading", { name: "Rowan Roles" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "$50.00" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^(Approve|Reject)/ })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Actions", exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Suspend User|Activate User/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Export statement (CSV)" })).toHaveCount(0);
  expect(await seriousAccessibilityProblems(page)).toEqual([]);
  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: testInfo.outputPath(`support-client-page-${width}.png`), fullPage: true });
  }

  const refused = await page.goto("/admin/audit");
  expect(refused?.status()).toBe(403);
  await expect(page.getByText("Your role does not allow this.")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("support-audit-refused-390.png"), fullPage: true });
});

test("an operator is offered Approve on a deposit but not on a withdrawal, and is refused the team page", async ({
  page,
}, testInfo) => {
  const clientId = await clientWithRequests();
  const person = await operator();
  await signIn(page, person.email, person.password, { totpSecret: person.totpSecret });
  await expect(page).toHaveURL(/\/admin$/);
  // Deposits are an operator's: the payments seen on chain that wait are theirs to see.
  await page.getByRole("link", { name: "Chain payments", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Chain payments", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: /^Waiting to be credited/ })).toBeVisible();
  await page.goto(`/user/${clientId}`);
  await expect(page.getByRole("button", { name: "Approve deposit of $50.00" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Reject deposit of $50.00" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^(Approve|Reject) withdrawal/ })).toHaveCount(0);
  // Entries and suspension are an operator's; the statement export is not.
  await expect(page.getByRole("button", { name: "Suspend User" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Export statement (CSV)" })).toHaveCount(0);
  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: testInfo.outputPath(`operator-client-page-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/admin");
  await page.screenshot({ path: testInfo.outputPath("operator-desk-1366.png"), fullPage: true });

  // The team page is the owners': not offered, and refused when asked for.
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Team" })).toHaveCount(0);
  const refused = await page.goto("/admin/team");
  expect(refused?.status()).toBe(403);
  await expect(page.getByText("Your role does not allow this.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Send invitation" })).toHaveCount(0);
});
