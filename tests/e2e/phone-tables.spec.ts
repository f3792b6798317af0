import type { Locator, Page } from "@playwright/test";
import { markVerifiedInDatabase } from "./database";
import {
  DEMO_ADMIN,
  expect,
  registerClient,
  seriousAccessibilityProblems,
  signIn,
  submitDepositRequest,
  test,
  watchForErrors,
} from "./support";

/**
 * Every table of rows reads on a phone (390 x 844): nothing runs off to the right, each row is a block whose cells
 * are named by their columns, and the row's buttons are on screen. The client is new to this test: an admin's
 * deposit entry (below the second-approval threshold, so posted at once, and written to the audit log) gives it a
 * statement with a movement, then it asks for a withdrawal and a deposit, two pending rows with Approve and Reject.
 */
// axe is injected as an inline script, which our CSP rightly refuses: these pages run with CSP bypassed.
test.use({ viewport: { width: 390, height: 844 }, bypassCSP: true });
// An admin signs in with an authenticator; a code step may have to be waited for.
test.setTimeout(120_000);

const PHONE_WIDTH = 390;

/** The page's width, and every table wider than the box it sits in (or whose content runs out of it). */
async function overflow(page: Page) {
  return page.evaluate(() => ({
    pageWidth: document.documentElement.scrollWidth,
    wideTables: [...document.querySelectorAll("table")]
      .filter((table) => {
        const box = table.parentElement?.getBoundingClientRect();
        const own = table.getBoundingClientRect();
        return (
          !box || own.left < box.left - 0.5 || own.right > box.right + 0.5 || table.scrollWidth > table.clientWidth
        );
      })
      .map((table) => `${table.getBoundingClientRect().width}px in ${table.parentElement?.clientWidth}px`),
  }));
}

/** Nothing wider than the screen, and nothing axe finds serious in the stacked rows. */
async function expectFitsPhone(page: Page) {
  await expect.poll(() => overflow(page)).toEqual({ pageWidth: expect.any(Number), wideTables: [] });
  expect((await overflow(page)).pageWidth).toBeLessThanOrEqual(PHONE_WIDTH);
  expect(await seriousAccessibilityProblems(page)).toEqual([]);
}

/** Within the screen's width once scrolled to: nothing of it cut off at either side. */
async function expectOnScreen(locator: Locator) {
  await locator.scrollIntoViewIfNeeded();
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  expect(box, "a box on the page").not.toBeNull();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE_WIDTH);
}

/** The names a row shows before its cells (empty cells are left out at phone width). */
function cellNames(row: Locator) {
  return row
    .locator("td")
    .evaluateAll((cells) =>
      cells
        .filter((cell) => getComputedStyle(cell).display !== "none")
        .map((cell) => getComputedStyle(cell, "::before").content.replaceAll('"', "").trim()),
    );
}

test("on a phone every back-office table and the client's statement fit the screen, each cell named, the buttons on screen", async ({
  page,
  browser,
}) => {
  const firstName = `Phoebe${Date.now() % 100000}`;
  const email = await registerClient(page, firstName);
  // Only a verified client withdraws (docs/product.md, "Identity verification").
  await markVerifiedInDatabase(email);
  const accountId = (await page.getByText(/^[0-9a-f-]{36}$/).textContent()) ?? "";

  const adminContext = await browser.newContext({ viewport: { width: PHONE_WIDTH, height: 844 }, bypassCSP: true });
  const errors = watchForErrors(adminContext);
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(admin).toHaveURL(/\/admin$/);
  await admin.goto(`/user/${accountId}`);
  await admin.getByRole("button", { name: "Deposit", exact: true }).click();
  await admin.getByLabel("Deposit amount").fill("400");
  await admin.getByRole("button", { name: "Confirm" }).click();
  await expect(admin.getByText("Deposit of $400.00 recorded").first()).toBeVisible();

  await page.goto("/withdraw");
  await page.getByLabel("Amount (USD)").fill("90");
  await page.getByLabel("Cryptocurrency").selectOption("ETH");
  await page.getByLabel("Wallet Address").fill("0x7777777777777777777777777777777777777777");
  await page.getByRole("button", { name: "Submit Withdrawal" }).click();
  await expect(page.getByText("Withdrawal request submitted successfully")).toBeVisible();
  await submitDepositRequest(page, "65");
  await expect(page.getByText("Deposit request submitted successfully")).toBeVisible();

  // The client's page: every column of a pending row, named, and its Approve and Reject on screen.
  await admin.goto(`/user/${accountId}`);
  const withdrawal = admin.locator("tr[data-status=pending]").filter({ hasText: "$90.00" });
  await expect(withdrawal).toBeVisible();
  await expectFitsPhone(admin);
  expect(await cellNames(withdrawal)).toEqual([
    "Reference",
    "Type",
    "Amount",
    "Trading Pair/Stock",
    "Date",
    "Status",
    "Actions",
  ]);
  await expectOnScreen(withdrawal.getByTestId("payout-address"));
  await expectOnScreen(withdrawal.getByRole("cell", { name: /Pending/i }));
  for (const name of ["Approve withdrawal of $90.00", "Reject withdrawal of $90.00", "Approve deposit of $65.00"]) {
    await expectOnScreen(admin.getByRole("button", { name }));
  }

  // The desk: User Management's balance, last activity and Delete.
  await admin.goto(`/admin?q=${encodeURIComponent(firstName)}`);
  const client = admin.locator("tr").filter({ hasText: `${firstName} Tester` });
  await expect(client).toHaveCount(1);
  await expectFitsPhone(admin);
  expect(await cellNames(client)).toEqual(["User", "Status", "Balance", "Last Activity", "Actions"]);
  await expectOnScreen(client.getByRole("cell", { name: "$400.00" }));
  await expectOnScreen(admin.getByRole("button", { name: `Delete ${firstName} Tester's data` }));

  // Every client's transactions: the date and status of the last column too.
  await admin.goto(`/admin/transactions?client=${encodeURIComponent(firstName)}`);
  const rows = admin.locator("tbody tr");
  await expect(rows).toHaveCount(3);
  await expectFitsPhone(admin);
  expect(await cellNames(rows.first())).toEqual([
    "Reference",
    "Client",
    "Type",
    "Pair/Stock",
    "Amount",
    "Date",
    "Status",
  ]);
  await expectOnScreen(rows.first().locator("td").last());

  // The audit log, the deposit entry among its rows.
  await admin.goto("/admin/audit?action=ledger.entry");
  await expect(admin.locator("tbody tr").first()).toBeVisible();
  await expectFitsPhone(admin);
  await expectOnScreen(admin.locator("tbody tr").first().locator("td").last());
  await adminContext.close();

  // The client's statement of this month: the movement's amount and the running balance, and the requests.
  await page.goto(`/statements/${new Date().toISOString().slice(0, 7)}`);
  await expect(page.getByTestId("statement-requests")).toBeVisible();
  await expectFitsPhone(page);
  const movement = page.getByTestId("statement-movements").locator("tr").filter({ hasText: "$400.00" });
  expect(await cellNames(movement)).toEqual(["Date", "Reference", "Type", "Amount", "Balance"]);
  await expectOnScreen(movement.getByTestId("movement-amount"));
  await expectOnScreen(movement.locator("td").last());
  const request = page.getByTestId("statement-requests").locator("tr").filter({ hasText: "$90.00" });
  await expectOnScreen(request.getByRole("cell", { name: "Pending" }));
  expect(errors).toEqual([]);
});
