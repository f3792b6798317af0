import type { Locator } from "@playwright/test";
import { DEMO_CLIENT, expect, signIn, test } from "./support";

/** "$1,234.56", "+$10.01" or "−$123.45" as shown, in cents. */
async function centsShown(locator: Locator): Promise<number> {
  const text = ((await locator.textContent()) ?? "").trim();
  const match = /^([+−-]?)\$([\d,]+)\.(\d{2})$/.exec(text);
  if (!match) throw new Error(`not an amount: ${text}`);
  const cents = Number((match[2] ?? "").replaceAll(",", "")) * 100 + Number(match[3]);
  return match[1] === "−" || match[1] === "-" ? -cents : cents;
}

test("a client opens a monthly statement whose opening balance and movements add up to its closing balance, and prints it without the site's chrome", async ({
  page,
}) => {
  await signIn(page, DEMO_CLIENT.email, DEMO_CLIENT.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole("link", { name: "Statements", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Statements", level: 1 })).toBeVisible();

  // The demo client's seeded history has approved movements in the month of its oldest statement.
  const months = page.getByRole("link", { name: /View statement/ });
  await expect(months.first()).toBeVisible();
  await months.last().click();
  await expect(page).toHaveURL(/\/statements\/\d{4}-\d{2}$/);
  await expect(page.getByRole("heading", { name: /^Statement for / })).toBeVisible();

  const opening = await centsShown(page.getByTestId("statement-opening"));
  const closing = await centsShown(page.getByTestId("statement-closing"));
  const amounts = page.getByTestId("movement-amount");
  expect(await amounts.count()).toBeGreaterThan(0);
  let moved = 0;
  for (const amount of await amounts.all()) moved += await centsShown(amount);
  expect(opening + moved).toBe(closing);
  await expect(page.getByRole("link", { name: "Download CSV" })).toHaveAttribute(
    "href",
    /^\/statements\/\d{4}-\d{2}\.csv$/,
  );

  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  await expect(page.getByRole("contentinfo")).toBeHidden();
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  await expect(page.getByRole("link", { name: "Download CSV" })).toBeHidden();
  await expect(page.getByRole("heading", { name: /^Statement for / })).toBeVisible();
  await expect(page.getByTestId("statement-closing")).toBeVisible();
});
