import type { Page } from "@playwright/test";
import { executeStatements, query, sqlValue } from "../../scripts/lib/local-d1";
import { e2eDatabase as database, whileBusy } from "./database";
import { expect, registerClient, test } from "./support";

/**
 * A client cancels a pending withdrawal from the dashboard. The client is new to this test (the demo client's
 * figures move with the other tests); its $500 to withdraw is written straight into the test server's database,
 * as an approved deposit (an admin's approval is tested elsewhere).
 */
function fund(email: string, cents: number) {
  return whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, created_at)
         SELECT id, 'deposit', ${cents}, 'approved', ${Date.now()} FROM users WHERE email = ${sqlValue(email)}`,
      ],
      database,
    ),
  );
}

const pendingPanel = (page: Page) =>
  page.getByRole("article").filter({ has: page.getByRole("heading", { name: "Pending & Declined Transactions" }) });

// Each wrangler CLI call starts its own runtime: a few seconds apiece, more on a busy machine.
test.setTimeout(120_000);

test("a client cancels a pending withdrawal from the dashboard and the amount is available again at once", async ({
  page,
}) => {
  const email = await registerClient(page, "Carla");
  await fund(email, 50_000);

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
  const cancel = page.getByRole("button", { name: "Cancel Withdrawal of $120.00" });
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

  // The database agrees: the request is cancelled, by its owner, and the withdrawal page offers the whole $500 again.
  const rows = await whileBusy(() =>
    query<{ status: string; by_owner: number }>(
      `SELECT t.status, t.decided_by = t.user_id AS by_owner FROM transactions t JOIN users u ON u.id = t.user_id
       WHERE u.email = ${sqlValue(email)} AND t.transaction_type = 'withdraw'`,
      database,
    ),
  );
  expect(rows).toEqual([{ status: "cancelled", by_owner: 1 }]);
  await page.goto("/withdraw");
  await expect(page.getByTestId("available-balance")).toHaveText("$500.00");
});
