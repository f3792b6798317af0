import type { Page } from "@playwright/test";
import { clientWithRequests } from "./back-office-people";
import { DEMO_ADMIN, expect, seriousAccessibilityProblems, signIn, test } from "./support";

/**
 * The Watch flag where a withdrawal is decided: an admin notes a client with Watch, and the client's pending
 * withdrawal then carries the badge on the client page and on /admin/transactions, at desk and phone widths.
 */

// axe is injected as an inline script, which the site's CSP refuses (seriousAccessibilityProblems).
test.use({ bypassCSP: true });
test.setTimeout(120_000);

const SIZES = [
  [1366, 900],
  [390, 844],
] as const;

async function badgeOnTheWithdrawal(page: Page) {
  const withdrawal = page.getByRole("row").filter({ hasText: "$25.00" });
  await expect(withdrawal.getByTestId("watch-badge")).toHaveText("Client flagged: Watch");
  await expect(withdrawal.getByTestId("watch-badge")).toBeVisible();
  // Only the pending withdrawal: the pending deposit's row has none.
  await expect(page.getByRole("row").filter({ hasText: "$50.00" }).getByTestId("watch-badge")).toHaveCount(0);
}

test("a pending withdrawal of a client flagged Watch shows the flag where it is decided", async ({
  page,
}, testInfo) => {
  const clientId = await clientWithRequests();
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/admin$/);

  await page.goto(`/user/${clientId}`);
  await expect(page.getByTestId("watch-badge")).toHaveCount(0);
  const notes = page.getByRole("article", { name: "Notes" });
  await notes.getByLabel("Note", { exact: true }).fill("Withdrawals after odd sign-ins");
  await notes.getByRole("checkbox", { name: "Watch" }).check();
  await notes.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Note added" }).first()).toBeVisible();

  const email = (
    await page
      .getByText(/^roles-.*@example\.com$/)
      .first()
      .innerText()
  ).trim();
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    for (const [name, path] of [
      ["client-page", `/user/${clientId}`],
      ["admin-transactions", `/admin/transactions?client=${encodeURIComponent(email)}`],
    ] as const) {
      await page.goto(path);
      await badgeOnTheWithdrawal(page);
      expect(await seriousAccessibilityProblems(page)).toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`watch-${name}-${width}.png`), fullPage: true });
    }
    // The desk an owner sees: the open-alerts card beside the other counts, linking to the alert queue.
    await page.goto("/admin");
    await expect(page.getByRole("link", { name: "Open monitoring alerts" })).toHaveAttribute("href", "/admin/alerts");
    await expect(page.getByTestId("open-alerts")).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`desk-${width}.png`) });
  }
});
