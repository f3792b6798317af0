import { chainSimulatorPort } from "../../scripts/lib/chain-simulator.ts";
import { quotesControl } from "../support/quotes";
import { expect, registerClient, test } from "./support";

/**
 * Live prices as a client sees them (docs/decisions/0072): the stock's page shows the simulator's pinned price before
 * hydration, follows a new one within a poll (5 s) without a reload, and says so in words when the quotes stop. The
 * quotes are the `dev` world's of the simulator beside the browser tests' server; only this spec moves them.
 */
const quotes = quotesControl(
  `http://127.0.0.1:${chainSimulatorPort({ PORT: process.env.E2E_PORT ?? "8788", CHAIN_SIMULATOR_PORT: process.env.CHAIN_SIMULATOR_PORT })}`,
  "dev",
);

test.afterEach(async () => {
  await quotes.ok();
  await quotes.walk("ORCL");
});

test("a client's stock page shows the mid with bid, ask and time, and follows it while visible", async ({ page }) => {
  await quotes.set("ORCL", { bid: "168.70", ask: "168.74" });
  await registerClient(page, `Quoted${Date.now() % 100000}`);
  await page.goto("/stocks/ORCL");
  await expect(page.getByText("$168.72 ·")).toBeVisible();
  await expect(page.getByText("Bid $168.70 · Ask $168.74")).toBeVisible();
  await expect(page.getByText(/\d{2}:\d{2}:\d{2} UTC/)).toBeVisible();

  await quotes.set("ORCL", 170);
  await expect(page.getByText("Bid $169.99 · Ask $170.01")).toBeVisible({ timeout: 12_000 });

  await quotes.fail();
  await expect(page.getByText("Price unavailable")).toBeVisible({ timeout: 12_000 });
  await quotes.ok();
  await quotes.age("ORCL", 60);
  await expect(page.getByText("Price out of date")).toBeVisible({ timeout: 12_000 });
});
