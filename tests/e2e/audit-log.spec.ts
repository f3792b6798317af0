import { readFile } from "node:fs/promises";
import {
  DEMO_ADMIN,
  expect,
  registerClient,
  seriousAccessibilityProblems,
  signIn,
  test,
  watchForErrors,
} from "./support";

/**
 * An admin reads a ledger entry in the audit log as people do (the client's name, dollars, a UTC time), narrows
 * the log to today's UTC day and downloads that view as CSV. The page is checked with axe and at phone width.
 */
test.setTimeout(120_000);

test("an admin reads today's entries in the audit log and downloads them as CSV", async ({ page, browser }) => {
  const firstName = `Audra${Date.now() % 100000}`;
  const email = await registerClient(page, firstName);
  const accountId = (await page.getByText(/^[0-9a-f-]{36}$/).textContent()) ?? "";

  // axe is injected as a script, which the page's CSP refuses unless bypassed.
  const adminContext = await browser.newContext({ bypassCSP: true, acceptDownloads: true });
  const errors = watchForErrors(adminContext);
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(admin).toHaveURL(/\/admin$/);
  await admin.goto(`/user/${accountId}`);
  await admin.getByRole("button", { name: "Deposit", exact: true }).click();
  await admin.getByLabel("Deposit amount").fill("1000");
  await admin.getByRole("button", { name: "Confirm" }).click();
  await expect(admin.getByText("Deposit of $1,000.00 recorded").first()).toBeVisible();

  await admin.goto("/admin");
  await admin.getByRole("link", { name: "Audit Log" }).click();
  await expect(admin).toHaveURL(/\/admin\/audit$/);
  const today = new Date().toISOString().slice(0, 10);
  await admin.getByLabel("Client (name, e-mail or id)").fill(email);
  await admin.getByLabel("From (UTC)").fill(today);
  await admin.getByLabel("To (UTC)").fill(today);
  await admin.getByRole("button", { name: "Filter" }).click();
  await expect(admin).toHaveURL(new RegExp(`from=${today}&to=${today}`));

  const row = admin.locator("tbody tr").filter({ hasText: "ledger.entry" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`Client: ${firstName} Tester (${email})`);
  await expect(row).toContainText("Type: Deposit · Amount: $1,000.00 · Balance after: $1,000.00");
  await expect(row.locator("td").first()).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M UTC$/);
  await expect(row.locator("td").nth(3)).toHaveText(/^TX-[0-9A-Z]{6}$/);
  await expect(admin.getByText(/amountCents|balanceAfterCents/)).toHaveCount(0);
  expect(await seriousAccessibilityProblems(admin)).toEqual([]);

  const [download] = await Promise.all([
    admin.waitForEvent("download"),
    admin.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`audit-log-${today}-to-${today}.csv`);
  const lines = (await readFile((await download.path()) ?? "", "utf8")).trim().split("\r\n");
  expect(lines[0]).toBe("Time (UTC),By,Action,Target,Details,Stored target,Stored detail");
  const entry = lines.find((line) => line.includes("ledger.entry")) ?? "";
  expect(entry).toContain(`Admin · ${DEMO_ADMIN.email},ledger.entry,TX-`);
  expect(entry).toContain("Amount: $1,000.00");
  expect(entry).toContain('""amountCents"":100000');

  // At phone width the page itself does not scroll sideways: the table scrolls inside its card.
  await admin.setViewportSize({ width: 390, height: 844 });
  await expect(row).toBeVisible();
  expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await adminContext.close();
  expect(errors).toEqual([]);
});
