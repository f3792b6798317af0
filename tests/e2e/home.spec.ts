import { expect, ownConsoleErrors, test } from "./support";

test.describe("home page", () => {
  test("loads, hydrates and has no console errors", async ({ page, baseURL }) => {
    const problems = ownConsoleErrors(page, baseURL ?? "");

    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("link", { name: "Start Trading" })).toHaveAttribute("href", "/deposit");

    // The menu toggle only works once React has hydrated the page.
    const toggle = page.getByRole("button", { name: "Open menu" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("link", { name: "Register" })).toBeHidden();
    await toggle.click();
    await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByRole("link", { name: "Register" })).toBeVisible();
    await page.getByRole("button", { name: "Close menu" }).click();
    await expect(page.getByRole("link", { name: "Register" })).toBeHidden();

    expect(problems).toEqual([]);
  });

  test("keeps the desktop navigation visible on wide screens", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const name of ["Home", "About Us", "Sign In", "Register"]) {
      await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expect(page.getByRole("button", { name: "Open menu" })).toBeHidden();
    const header = page.locator("header").first();
    expect((await header.boundingBox())?.height).toBe(64);
  });
});
