import type { Page } from "@playwright/test";
import { expect, registerClient, test } from "./support";

/**
 * The document is rendered whole on the server, then sent (app/entry.server.tsx): these prove the browser still
 * takes it over. A mark left on `window` survives only while the page is never loaded again.
 */
const markThisLoad = (page: Page) => page.evaluate(() => Object.assign(window, { sameLoad: true }));
const stillTheSameLoad = (page: Page) => page.evaluate(() => (window as { sameLoad?: boolean }).sameLoad === true);

/** Waits until React Router has taken the server's document over. */
const hydrated = (page: Page) =>
  page.waitForFunction(() => Boolean((window as { __reactRouterDataRouter?: unknown }).__reactRouterDataRouter));

test("a signed-in page hydrates: the navigation's links change pages without loading a document", async ({ page }) => {
  await registerClient(page, "Hydra");
  await page.goto("/dashboard");
  await hydrated(page);
  await markThisLoad(page);
  const documents: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") documents.push(request.url());
  });

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "History" }).click();
  await expect(page).toHaveURL(/\/transactions$/);
  await expect(page.getByRole("heading", { name: "History" })).toBeVisible();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await stillTheSameLoad(page)).toBe(true);
  expect(documents).toEqual([]);
});

test("a form shows its pending state while the server works, then lands where the action sends it", async ({
  page,
}) => {
  await registerClient(page, "Pending");
  await page.goto("/deposit");
  await hydrated(page);
  await markThisLoad(page);
  // The action's answer held back a moment, so that the pending state can be seen.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname.startsWith("/deposit"),
    async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    },
  );

  await page.getByLabel("Amount (USD)").fill("321.09");
  await page.getByLabel("Payment Wallet").selectOption("USDT (TRC20)");
  await page.getByRole("button", { name: "Submit Deposit" }).click();
  const pendingButton = page.getByRole("button", { name: "Processing..." });
  await expect(pendingButton).toBeVisible();
  await expect(pendingButton).toBeDisabled();

  release();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("$321.09").first()).toBeVisible();
  expect(await stillTheSameLoad(page)).toBe(true);
});

test("the live feed updates an open page: a request made in another tab appears in the History without a reload", async ({
  context,
  page,
}) => {
  await registerClient(page, "Feed");
  await page.goto("/transactions");
  await hydrated(page);
  await markThisLoad(page);
  await expect(page.getByText("No transactions yet.")).toBeVisible();

  const otherTab = await context.newPage();
  await otherTab.goto("/deposit");
  await otherTab.getByLabel("Amount (USD)").fill("456.78");
  await otherTab.getByLabel("Payment Wallet").selectOption("USDT (TRC20)");
  await otherTab.getByRole("button", { name: "Submit Deposit" }).click();
  await expect(otherTab).toHaveURL(/\/dashboard$/);

  const row = page.getByTestId("history-row").filter({ hasText: "$456.78" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Pending");
  expect(await stillTheSameLoad(page)).toBe(true);
});
