import type { Page } from "@playwright/test";
import { clientWithRequests } from "./back-office-people";
import { DEMO_ADMIN, DEMO_CLIENT, expect, signIn, test } from "./support";

/**
 * WCAG 1.4.1 (use of colour): a gain, a loss, a status or a flag is never told by its colour alone. Every text
 * drawn in the success, danger or pending colour says it in words too, or carries a sign (+, −, an arrow).
 */

/**
 * The texts in a meaning's colour that say nothing without it: a bare number or a dash with no word beside it (a
 * figure under its label, 'Total withdrawals', says what it is).
 */
function colourOnlyTexts() {
  const colourOf = (className: string) => {
    const probe = document.createElement("span");
    probe.className = className;
    document.body.appendChild(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  };
  const meaningful = new Set(["text-success", "text-danger", "text-pending"].map(colourOf));
  const ownText = (element: Element) =>
    [...element.childNodes]
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent ?? "")
      .join("")
      .trim();
  return [...document.querySelectorAll("main *")]
    .filter((element) => meaningful.has(getComputedStyle(element).color) && element.checkVisibility())
    .filter((element) => ownText(element).length > 0)
    .filter((element) => !/\p{L}/u.test(element.parentElement?.textContent ?? ""))
    .map((element) => (element.textContent ?? "").replace(/\s+/g, " ").trim())
    .filter((text) => !/[+−↑↓▲▼]/.test(text));
}

async function expectNoColourOnlyMeaning(page: Page, paths: string[]) {
  const found: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    found.push(...(await page.evaluate(colourOnlyTexts)).map((text) => `${path}: "${text}"`));
  }
  expect(found).toEqual([]);
}

test("the client's amounts, results and statuses say gain, loss or state in a word or a sign", async ({ page }) => {
  await signIn(page, DEMO_CLIENT.email, DEMO_CLIENT.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expectNoColourOnlyMeaning(page, ["/dashboard", "/portfolio", "/transactions", "/statements", "/stocks"]);

  // History's cells, read as a person reads them: every amount signed, every status a word.
  await page.goto("/transactions");
  const amounts = await page.locator(".amount-credit, .amount-debit").allTextContents();
  expect(amounts.length).toBeGreaterThan(0);
  for (const amount of amounts) expect(amount.trim()).toMatch(/^[+−]\$/);
  const statuses = await page.locator('[class*="status-badge-"]').allTextContents();
  expect(statuses.length).toBeGreaterThan(0);
  for (const status of statuses) expect(status.trim()).toMatch(/^(Approved|Pending|Rejected|Cancelled|Declined)/);
});

test("the back office's statuses, flags and amounts say what they mean in a word or a sign", async ({ page }) => {
  const clientId = await clientWithRequests();
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/admin$/);
  await expectNoColourOnlyMeaning(page, [
    "/admin",
    "/admin/transactions",
    "/admin/alerts",
    "/admin/verifications",
    `/user/${clientId}`,
  ]);
});
