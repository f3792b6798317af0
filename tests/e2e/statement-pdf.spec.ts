import { readFileSync } from "node:fs";
import type { Download, Page } from "@playwright/test";
import { DEMO_CLIENT, expect, seriousAccessibilityProblems, signIn, test, watchForErrors } from "./support";

const SCREENSHOTS = process.env.STATEMENT_PDF_SCREENSHOTS;

/** The downloaded file: its name, and its bytes, which must be a PDF of a plausible size. */
async function downloadedPdf(page: Page, link: ReturnType<Page["getByRole"]>): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const bytes = readFileSync((await download.path()) ?? "");
  expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  expect(bytes.length).toBeGreaterThan(1_500);
  expect(bytes.length).toBeLessThan(400_000);
  if (SCREENSHOTS) await download.saveAs(`${SCREENSHOTS}/${download.suggestedFilename()}`);
  return download;
}

async function screenshot(page: Page, name: string) {
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
}

/** Nothing on the page is wider than a phone's screen. */
async function fitsTheScreen(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
}

for (const viewport of [
  { name: "desktop", width: 1366, height: 900 },
  { name: "phone", width: 390, height: 844 },
]) {
  test(`the demo client downloads a month's statement and a yearly summary as PDFs (${viewport.name})`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport, bypassCSP: true });
    const problems = watchForErrors(context);
    const page = await context.newPage();
    await signIn(page, DEMO_CLIENT.email, DEMO_CLIENT.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/statements");

    const years = page.getByTestId("summary-years");
    await expect(page.getByRole("heading", { name: "Yearly summaries" })).toBeVisible();
    await expect(years.getByRole("link", { name: /^Yearly summary \d{4}$/ }).first()).toBeVisible();
    await fitsTheScreen(page);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, `statements-${viewport.name}`);

    // The oldest month has movements in the demo data.
    await page
      .getByRole("link", { name: /View statement/ })
      .last()
      .click();
    await expect(page).toHaveURL(/\/statements\/\d{4}-\d{2}$/);
    const month = new URL(page.url()).pathname.split("/").at(-1);
    await expect(page.getByText(DEMO_CLIENT.email)).toBeVisible();
    const monthPdf = page.getByRole("link", { name: "Download PDF" });
    await expect(monthPdf).toBeInViewport();
    await expect(page.getByRole("link", { name: "Download CSV" })).toBeInViewport();
    await fitsTheScreen(page);
    await screenshot(page, `statement-month-${viewport.name}`);
    // Reached and used by the keyboard, as by a pointer.
    await monthPdf.focus();
    await expect(monthPdf).toBeFocused();
    const [byKeyboard] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
    expect(byKeyboard.suggestedFilename()).toBe(`statement-${month}.pdf`);
    expect((await downloadedPdf(page, monthPdf)).suggestedFilename()).toBe(`statement-${month}.pdf`);

    await page.getByRole("link", { name: "All statements" }).click();
    const yearLink = years.getByRole("link", { name: /^Yearly summary \d{4}$/ }).last();
    const year = ((await yearLink.textContent()) ?? "").slice(-4);
    await yearLink.click();
    await expect(page.getByRole("heading", { name: `Yearly summary ${year}`, level: 1 })).toBeVisible();
    const table = page.getByTestId("summary-months");
    await expect(table).toBeVisible();
    // At phone width the rows stack, each cell named by its column.
    if (viewport.name === "desktop")
      await expect(table.getByRole("columnheader", { name: "Profit and loss" })).toBeVisible();
    await expect(page.getByTestId("summary-year")).toContainText(`Year ${year}`);
    await fitsTheScreen(page);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, `yearly-summary-${viewport.name}`);
    const summaryPdf = page.getByRole("link", { name: "Download PDF" });
    await expect(summaryPdf).toBeInViewport();
    expect((await downloadedPdf(page, summaryPdf)).suggestedFilename()).toBe(`yearly-summary-${year}.pdf`);

    // From the list too, by the link beside the year.
    await page.goto("/statements");
    const fromList = years.getByRole("link", { name: `Download PDF of the yearly summary ${year}` });
    expect((await downloadedPdf(page, fromList)).suggestedFilename()).toBe(`yearly-summary-${year}.pdf`);
    await context.close();
    expect(problems, "errors or warnings in the page").toEqual([]);
  });
}
