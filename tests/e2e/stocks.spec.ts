import { DEMO_ADMIN, expect, registerClient, signIn, test, watchForErrors } from "./support";

test("the watchlist filters as you type and the clear button restores it", async ({ page }) => {
  await page.goto("/stocks");
  await expect(page.getByRole("heading", { name: "Stock market watchlist" })).toBeVisible();
  const cards = page.getByRole("link", { name: /^Buy Now: / });
  const total = await cards.count();
  expect(total).toBeGreaterThanOrEqual(100);

  await page.getByPlaceholder("Search stocks by symbol or name...").fill("app");
  await expect(page.getByRole("link", { name: "Buy Now: AAPL" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Buy Now: TSLA" })).toHaveCount(0);
  expect(await cards.count()).toBeLessThan(total);

  await page.getByRole("link", { name: "Clear search" }).click();
  await expect(page.getByPlaceholder("Search stocks by symbol or name...")).toHaveValue("");
  await expect(cards).toHaveCount(total);

  await page.getByPlaceholder("Search stocks by symbol or name...").fill("no such company");
  await expect(page.getByText("No stocks available.")).toBeVisible();
});

test("a client buys a stock by deposit and sees it in the dashboard's Stocks panel once approved", async ({
  browser,
}) => {
  const clientContext = await browser.newContext();
  const errors = watchForErrors(clientContext);
  const client = await clientContext.newPage();
  const firstName = `Stocky${Date.now() % 100000}`;
  await registerClient(client, firstName);
  const accountId = (await client.getByText(/^[0-9a-f-]{36}$/).textContent()) ?? "";

  await client.goto("/stocks/NVDA");
  await expect(client.getByRole("heading", { name: /NVIDIA Corporation/ })).toBeVisible();
  await expect(client.getByRole("heading", { name: "Similar Stocks" })).toBeVisible();
  // Offline, the logo falls back to the placeholder instead of a broken image.
  await expect(client.getByRole("img", { name: "NVIDIA Corporation logo" })).toHaveAttribute(
    "src",
    "/images/logo-placeholder.svg",
  );
  await client.getByRole("link", { name: "Buy Now" }).click();
  await expect(client.getByRole("heading", { name: "Make a Deposit to buy NVDA stock" })).toBeVisible();
  await expect(client.getByLabel("Stock")).toBeDisabled();
  await expect(client.getByLabel("Stock")).toHaveValue("NVDA");

  await client.getByLabel("Amount (USD)").fill("640");
  await client.getByLabel("Payment Wallet").selectOption("USDT (TRC20)");
  const dialog = client.getByRole("dialog", { name: "USDT (TRC20) deposit address" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("Scan this QR code with your USDT (TRC20) wallet to send the deposit.")).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await client.getByRole("button", { name: "Submit Deposit" }).click();
  await expect(client).toHaveURL(/\/dashboard$/);
  await expect(client.getByText("Deposit request submitted successfully")).toBeVisible();
  const stocksPanel = client.getByRole("article").filter({ has: client.getByRole("heading", { name: "Stocks" }) });
  await expect(stocksPanel.getByText("No recent stock deposits")).toBeVisible();

  const adminContext = await browser.newContext();
  errors.push(...watchForErrors(adminContext));
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_ADMIN.email, DEMO_ADMIN.password);
  // Straight to the client's page: the desk's pending list shows the clients waiting longest, and a full run has
  // many more of them than this one.
  await admin.goto(`/user/${accountId}`);
  await admin.getByRole("button", { name: "Approve stock deposit of $640.00" }).click();
  await expect(admin.locator("tr[data-status=approved]").filter({ hasText: "NVDA" })).toBeVisible();

  await client.reload();
  await expect(stocksPanel.getByText("NVDA")).toBeVisible();
  await expect(stocksPanel.getByText("$640.00")).toBeVisible();
  await clientContext.close();
  await adminContext.close();
  expect(errors).toEqual([]);
});
