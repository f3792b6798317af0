import type { Page } from "@playwright/test";
import { DEMO_CLIENT, DEMO_SECOND_ADMIN, expect, seriousAccessibilityProblems, signIn, test } from "./support";

// axe is injected as an inline script, which the CSP refuses.
test.use({ bypassCSP: true });

/** The seed's demo client (scripts/lib/demo-people.ts). */
const DEMO_CLIENT_ID = "00000000-0000-4000-8000-000000000002";

const SIZES = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
];

/** Presses Tab until the focus is on a chart's mark (a point or a bar), at most `limit` times; the mark. */
async function tabToMark(page: Page, limit = 80) {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    const role = await page.evaluate(() => document.activeElement?.getAttribute("role"));
    if (role === "img") return page.locator(":focus");
  }
  throw new Error("no chart mark took the focus");
}

/** Presses Tab until the focus is on an element with this text, at most `limit` times. */
async function tabToText(page: Page, text: string, limit = 200) {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    if ((await page.evaluate(() => document.activeElement?.textContent ?? "")) === text) return;
  }
  throw new Error(`"${text}" never took the focus`);
}

test("the demo client reads the balance line, the monthly results and the positions on /portfolio by keyboard, at desk and phone width", async ({
  page,
}, testInfo) => {
  await signIn(page, DEMO_CLIENT.email, DEMO_CLIENT.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.goto("/portfolio");
    await expect(page.getByRole("heading", { name: "Portfolio", level: 1 })).toBeVisible();
    await expect(page.getByRole("link", { name: "30 days" })).toHaveAttribute("aria-current", "page");

    // The first mark the keyboard reaches is the balance line's first point; its tooltip shows its exact figure.
    const mark = await tabToMark(page);
    const name = (await mark.getAttribute("aria-label")) ?? "";
    expect(name).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}: -?\$[\d,]+\.\d{2}$/);
    const tip = mark.locator("span").first();
    await expect(tip).toBeVisible();
    await expect(tip).toHaveText(name.replace(": ", ""));
    await page
      .getByRole("figure")
      .first()
      .screenshot({ path: testInfo.outputPath(`portfolio-focused-point-${size.width}.png`) });

    // The figures as a table, opened from the keyboard: as many rows as the line has points.
    const points = await page.getByRole("img", { name: /^[A-Z][a-z]{2} \d{1,2}, \d{4}: / }).count();
    expect(points).toBe(30);
    await tabToText(page, "Show the figures as a table");
    await page.keyboard.press("Enter");
    const table = page.getByRole("table", { name: /Balance at the end of each day/ });
    await expect(table).toBeVisible();
    await expect(table.locator("tbody tr")).toHaveCount(points);
    await expect(table.getByRole("rowheader").first()).toHaveText(name.split(": ")[0] ?? "");

    // The bars: one per month, a year of them.
    await expect(page.getByRole("img", { name: /^[A-Z][a-z]+ \d{4}: / })).toHaveCount(12);
    // Positions: the demo client's stock deposits, each linking to its stock's page.
    const positions = page.getByRole("table", { name: "Stock deposits" });
    await expect(positions.getByRole("link").first()).toHaveAttribute("href", /^\/stocks\/[A-Z.]+$/);

    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    await page.screenshot({ path: testInfo.outputPath(`portfolio-${size.width}.png`), fullPage: true });
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
  }

  // The header keeps its links on one line where they show (from 1024 px), Portfolio among them.
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.getByRole("navigation", { name: "Main" }).screenshot({ path: testInfo.outputPath("header-1024.png") });
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveJSProperty("scrollWidth", 1024);

  // Another range is a link: a year shows a point every seventh day.
  await page.getByRole("link", { name: "12 months" }).click();
  await expect(page).toHaveURL(/\/portfolio\?range=12m$/);
  await expect(page.getByRole("link", { name: "12 months" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("img", { name: /^[A-Z][a-z]{2} \d{1,2}, \d{4}: / })).toHaveCount(53);
});

test("the dashboard shows the last 30 days' balance with the way to /portfolio", async ({ page }, testInfo) => {
  await signIn(page, DEMO_CLIENT.email, DEMO_CLIENT.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.goto("/dashboard");
    const panel = page
      .getByRole("article")
      .filter({ has: page.getByRole("heading", { name: "Balance, last 30 days" }) });
    await expect(panel.getByRole("img", { name: /: -?\$/ })).toHaveCount(30);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    await panel.screenshot({ path: testInfo.outputPath(`dashboard-chart-${size.width}.png`) });
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
  }
  await page.getByRole("link", { name: "Open portfolio" }).click();
  await expect(page).toHaveURL(/\/portfolio$/);
});

test("an admin reads the demo client's positions on the client page, at desk and phone width", async ({
  page,
}, testInfo) => {
  await signIn(page, DEMO_SECOND_ADMIN.email, DEMO_SECOND_ADMIN.password);
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto(`/user/${DEMO_CLIENT_ID}`);
  const panel = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "Stock deposits" }) });
  const positions = panel.getByRole("table", { name: "Stock deposits" });
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await expect(positions.getByRole("link").first()).toHaveAttribute("href", /^\/stocks\/[A-Z.]+$/);
    await expect(positions.getByRole("cell", { name: /\d+\.\d%$/ }).first()).toBeVisible();
    // The table is /portfolio's, checked with axe there; nothing of it may scroll sideways here either.
    await panel.screenshot({ path: testInfo.outputPath(`client-page-positions-${size.width}.png`) });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
  }
});
