import { executeStatements, query, sqlValue } from "../../scripts/lib/local-d1";
import { complianceOfficer } from "./back-office-people";
import { e2eDatabase, markVerifiedInDatabase, whileBusy } from "./database";
import { expect, registerClient, signIn, submitDepositRequest, test } from "./support";

/**
 * Transaction monitoring as a compliance officer meets it: a client's three deposits just under the large amount
 * raise a structuring alert that appears on the officer's open queue without a reload; escalated, the client is on
 * Watch, and the withdrawal they ask for next carries the flag where it is decided.
 */
test.setTimeout(150_000);

test("three deposits just under the large amount raise a structuring alert live; escalated, the next withdrawal shows Watch", async ({
  page,
  browser,
}, testInfo) => {
  const officer = await complianceOfficer();
  await signIn(page, officer.email, officer.password, { totpSecret: officer.totpSecret });
  await page.goto("/admin/alerts");
  await expect(page.getByRole("heading", { name: "Alerts", level: 1 })).toBeVisible();

  const client = await (await browser.newContext({ baseURL: testInfo.project.use.baseURL })).newPage();
  const email = await registerClient(client, "Stella");
  await markVerifiedInDatabase(email);
  const clientId = (
    await whileBusy(() => query<{ id: string }>(`SELECT id FROM users WHERE email = ${sqlValue(email)}`, e2eDatabase))
  )[0]?.id;
  expect(clientId).toBeTruthy();
  for (const amount of ["9000", "9200", "9400"]) {
    await submitDepositRequest(client, amount);
    await expect(client.getByText("Deposit request submitted successfully")).toBeVisible();
  }

  // The officer's open queue takes the alert from the desk's feed: no reload.
  const row = page.getByRole("row").filter({ has: page.locator(`a[href="/user/${clientId}"]`) });
  await expect(row).toContainText("Structuring", { timeout: 30_000 });
  await expect(row).toContainText("3 deposits in");
  await page.screenshot({ path: testInfo.outputPath("structuring-alert-1366.png"), fullPage: true });

  await row.getByText("Decide").click();
  await row.getByLabel("Note").fill("Three deposits of about $9,000 in one day: asked for the source of funds.");
  await row.getByRole("button", { name: "Escalate" }).click();
  await expect(page.getByText("Alert escalated: the client is on Watch")).toBeVisible();

  // The client has money in (an approved deposit, as a desk would have recorded it) and asks to withdraw some.
  await whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, created_at, decided_at)
         VALUES (${sqlValue(clientId)}, 'deposit', 50000, 'approved', ${Date.now() - 60_000}, ${Date.now() - 60_000})`,
        `UPDATE profiles SET balance_cents = 50000 WHERE user_id = ${sqlValue(clientId)}`,
      ],
      e2eDatabase,
    ),
  );
  await client.goto("/withdraw");
  await client.getByLabel("Amount (USD)").fill("125.00");
  await client.getByLabel("Cryptocurrency").selectOption("ETH");
  await client.getByLabel("Wallet Address").fill("0x2222222222222222222222222222222222222222");
  await client.getByRole("button", { name: "Submit Withdrawal" }).click();
  await expect(client.getByText("Withdrawal request submitted successfully")).toBeVisible();

  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`/user/${clientId}`);
    const withdrawal = page.getByRole("row").filter({ hasText: "$125.00" });
    await expect(withdrawal.getByTestId("watch-badge")).toHaveText("Client flagged: Watch");
    await expect(withdrawal.getByTestId("watch-badge")).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`watch-on-withdrawal-${width}.png`), fullPage: true });
  }
});
