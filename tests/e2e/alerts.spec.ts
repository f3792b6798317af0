import { executeStatements, sqlValue } from "../../scripts/lib/local-d1";
import { clientWithRequests, complianceOfficer } from "./back-office-people";
import { e2eDatabase, whileBusy } from "./database";
import { expect, seriousAccessibilityProblems, signIn, test } from "./support";

// axe is injected as an inline script, which the site's CSP refuses (seriousAccessibilityProblems).
test.use({ bypassCSP: true });

/** A $12,000 deposit request of the client's own and the large-transaction alert the rules write for it. */
async function largeDepositAlert(clientId: string) {
  const detail = { kind: "deposit", amountCents: 1_200_000, thresholdCents: 1_000_000 };
  await whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, created_by, created_at)
         VALUES (${sqlValue(clientId)}, 'deposit', 1200000, 'pending', ${sqlValue(clientId)}, ${Date.now()})`,
        `INSERT INTO monitoring_alerts (user_id, rule, trigger_transaction_id, detail)
         SELECT user_id, 'large_transaction', id, json_set(${sqlValue(JSON.stringify(detail))}, '$.transactionIds', json_array(id))
         FROM transactions WHERE user_id = ${sqlValue(clientId)} AND amount_cents = 1200000`,
      ],
      e2eDatabase,
    ),
  );
}

test("a compliance officer escalates an alert and the client's page shows Watch", async ({ page }, testInfo) => {
  const clientId = await clientWithRequests();
  await largeDepositAlert(clientId);
  const officer = await complianceOfficer();
  await signIn(page, officer.email, officer.password, { totpSecret: officer.totpSecret });
  await expect(page).toHaveURL(/\/admin$/);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Alerts" }).click();
  await expect(page).toHaveURL(/\/admin\/alerts$/);
  // Every client of these tests is a Rowan Roles: the row is the one linking to this one's page.
  const row = page.getByRole("row").filter({ has: page.locator(`a[href="/user/${clientId}"]`) });
  await expect(row).toContainText("Large single transaction");
  await expect(row).toContainText("A deposit of $12,000.00, at or above $10,000.00");
  await expect(row.getByRole("link", { name: /^TX-/ })).toHaveAttribute(
    "href",
    new RegExp(`/user/${clientId}\\?reference=TX-`),
  );

  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await row.getByText("Decide").click();
    await expect(row.getByLabel("Note")).toBeVisible();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`alerts-open-${width}.png`), fullPage: true });
    await row.getByText("Decide").click();
  }

  await page.setViewportSize({ width: 1366, height: 900 });
  await row.getByText("Decide").click();
  await row.getByLabel("Note").fill("Source of the $12,000 unclear; asked for a bank statement.");
  await row.getByRole("button", { name: "Escalate" }).click();
  await expect(page.getByText("Alert escalated: the client is on Watch")).toBeVisible();
  await expect(row).toHaveCount(0);

  await page.getByRole("link", { name: "Decided", exact: true }).click();
  const decided = page.getByRole("row").filter({ has: page.locator(`a[href="/user/${clientId}"]`) });
  await expect(decided).toContainText("Escalated");
  await expect(decided).toContainText(officer.email);
  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`alerts-decided-${width}.png`), fullPage: true });
  }

  await page.goto(`/user/${clientId}`);
  // On the profile, and on the escalation's note in the notes.
  await expect(page.getByTestId("client-flag").filter({ hasText: "Watch" })).toHaveCount(2);
  await expect(page.getByTestId("client-flag").first()).toBeVisible();
  await expect(page.getByText(/Escalated from monitoring alert #\d+ \(Large single transaction\)/)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("client-watch-390.png"), fullPage: true });
});
