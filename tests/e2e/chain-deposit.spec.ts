import type { Page } from "@playwright/test";
import { chainSimulatorPort } from "../../scripts/lib/chain-simulator.ts";
import { chainControl } from "../support/chain";
import { expect, registerClient, test } from "./support";

/**
 * A deposit seen on chain, as a client lives it: their own address on /deposit, the payment made from "their wallet"
 * (the chain simulator beside the browser tests' server), then on the open dashboard the payment seen, its
 * confirmations, and the credit, without a reload. The server has no cron: the test runs the watcher when the
 * minute's cron would have.
 */
const chain = chainControl(
  `http://127.0.0.1:${chainSimulatorPort({ PORT: process.env.E2E_PORT ?? "8788", CHAIN_SIMULATOR_PORT: process.env.CHAIN_SIMULATOR_PORT })}`,
  "dev",
);

async function runWatcher(page: Page) {
  const response = await page.request.post("/dev/chain-watcher");
  expect(response.status()).toBe(200);
  const runs = (await response.json()) as Array<{ network: string; error?: string }>;
  expect(runs.filter((run) => run.error)).toEqual([]);
}

const markThisLoad = (page: Page) => page.evaluate(() => Object.assign(window, { sameLoad: true }));
const stillTheSameLoad = (page: Page) => page.evaluate(() => (window as { sameLoad?: boolean }).sameLoad === true);
const hydrated = (page: Page) =>
  page.waitForFunction(() => Boolean((window as { __reactRouterDataRouter?: unknown }).__reactRouterDataRouter));

test("a payment to the client's own address is seen, confirmed and credited on the open dashboard", async ({
  page,
}) => {
  await registerClient(page, "Satoshi");
  await runWatcher(page);
  await page.goto("/deposit");
  const btc = page.getByRole("region", { name: "Your BTC deposit address" });
  await expect(btc).toBeVisible();
  await expect(btc.getByRole("img", { name: "QR code of your BTC address" })).toBeVisible();
  const address = (await btc.getByTestId("own-address").textContent())?.trim() ?? "";
  expect(address).toMatch(/^tb1q[02-9ac-hj-np-z]{38}$/);

  await page.goto("/dashboard");
  await hydrated(page);
  await markThisLoad(page);
  await chain.pay({ address, amount: "0.001" });
  await runWatcher(page);
  const incoming = page.getByRole("article", { name: "Incoming payments" });
  await expect(incoming.getByTestId("incoming-status")).toHaveText("Seen, 0 of 2 confirmations");
  await expect(incoming).toContainText("0.001 BTC");

  await chain.mine(1);
  await runWatcher(page);
  await expect(incoming.getByTestId("incoming-status")).toHaveText("Seen, 1 of 2 confirmations");

  await chain.mine(1);
  await runWatcher(page);
  await expect(incoming).toBeHidden();
  const activity = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "Recent Activity" }) });
  await expect(activity).toContainText("$65.00");
  expect(await stillTheSameLoad(page)).toBe(true);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/deposit");
  await expect(btc).toBeVisible();
  await page.screenshot({ path: "test-results/chain-deposit-phone.png", fullPage: true });
});
