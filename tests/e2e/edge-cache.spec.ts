import type { Page } from "@playwright/test";
import { expect, ownConsoleErrors, test, unique } from "./support";

/** Every Content Security Policy report the page makes, whatever its source. */
function cspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

test("a page served from the edge cache runs its scripts under the CSP, load after load", async ({ page, baseURL }) => {
  const errors = ownConsoleErrors(page, baseURL ?? "");
  const violations = cspViolations(page);
  // An address of its own, so that the first load is the one that fills the cache.
  const path = `/stocks?visit=${unique()}`;
  const first = await page.goto(path);
  expect(first?.headers()["x-edge-cache"]).toBe("MISS");

  for (const load of ["first", "second"]) {
    const response = await page.goto(path);
    expect([load, response?.headers()["x-edge-cache"]]).toEqual([load, "HIT"]);
    // Filtering as you type is React state: it works only once the page has hydrated.
    const search = page.getByPlaceholder("Search stocks by symbol or name...");
    await search.fill("app");
    await expect(page.getByRole("link", { name: "Buy Now: AAPL" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Buy Now: TSLA" })).toHaveCount(0);
  }

  // A link followed by the router, not the browser: the page's data request, itself from the cache.
  const dataRequest = page.waitForResponse((response) => new URL(response.url()).pathname === "/about-us.data");
  await page.getByRole("link", { name: "About Us" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "About Us" })).toBeVisible();
  expect((await dataRequest).status()).toBe(200);

  expect(violations).toEqual([]);
  expect(errors).toEqual([]);
});
