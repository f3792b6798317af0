import { chainSimulatorPort } from "../../scripts/lib/chain-simulator.ts";
import { quotesControl } from "../support/quotes";
import { fundInDatabase } from "./database";
import { expect, registerClient, seriousAccessibilityProblems, test } from "./support";

/**
 * An order as a client places it (docs/product.md, "Orders and positions"): the ticket's estimate, a buy at the
 * simulator's ask, its cancel within 3 seconds, a buy that stands, a part of it sold at the bid, and the holding on
 * the portfolio, at desktop and phone width. Prices are pinned in the `dev` world of the simulator beside the server.
 */
// axe is injected as an inline script, which the site's CSP refuses (seriousAccessibilityProblems).
test.use({ bypassCSP: true });

const quotes = quotesControl(
  `http://127.0.0.1:${chainSimulatorPort({ PORT: process.env.E2E_PORT ?? "8788", CHAIN_SIMULATOR_PORT: process.env.CHAIN_SIMULATOR_PORT })}`,
  "dev",
);

test.afterEach(async () => {
  await quotes.walk("NVDA");
});

for (const width of [1366, 390]) {
  test(`a client buys, cancels, buys again and sells part, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await quotes.set("NVDA", { bid: "135.50", ask: "135.54" });
    const email = await registerClient(page, `Trader${width}`);
    await fundInDatabase(email, 200_000);
    await page.goto("/stocks/NVDA");
    const ticket = page.getByRole("region", { name: "Trade NVDA" });
    await expect(ticket.getByText("You can spend $2,000.00.")).toBeVisible();

    await ticket.getByLabel("Shares (up to 4 decimals)").fill("3.5");
    await expect(page.getByTestId("order-estimate")).toHaveText(/3\.5 NVDA × \$135\.54 \(ask\) = \$474\.39/);
    await ticket.getByRole("button", { name: "Buy NVDA" }).click();
    await expect(ticket.getByRole("status")).toHaveText(
      /Bought 3\.5 NVDA at \$135\.54 for \$474\.39: position P-\d{6}/,
    );
    await ticket.getByRole("button", { name: /Cancel order \(\d s\)/ }).click();
    await expect(ticket.getByRole("status")).toHaveText(/Order P-\d{6} cancelled: nothing was bought/);
    await expect(ticket.getByText("You can spend $2,000.00.")).toBeVisible();

    await ticket.getByLabel("Shares (up to 4 decimals)").fill("3.5");
    await ticket.getByRole("button", { name: "Buy NVDA" }).click();
    await expect(ticket.getByRole("status")).toHaveText(/Bought 3\.5 NVDA/);
    // After the 3 seconds the cancel is gone and the position stands.
    await expect(ticket.getByRole("button", { name: /Cancel order/ })).toHaveCount(0, { timeout: 6_000 });
    await expect(ticket.getByText("You can spend $1,525.61.")).toBeVisible();

    await quotes.set("NVDA", { bid: "140.00", ask: "140.04" });
    await ticket.getByText("Sell", { exact: true }).click();
    await ticket.getByLabel("Shares (up to 4 decimals)").fill("1.5");
    await ticket.getByRole("button", { name: "Sell NVDA" }).click();
    // 1.5 of 3.5 shares carry $203.31 of the $474.39 cost; they sell for $210.00.
    await expect(ticket.getByRole("status")).toHaveText("Sold 1.5 NVDA at $140.00 for $210.00: result +$6.69");
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await page.goto("/portfolio");
    const holding = page.getByTestId("holding-NVDA");
    await expect(holding).toContainText("2");
    await expect(holding).toContainText("$135.54");
    await expect(holding).toContainText("$271.08");
    await expect(holding).toContainText("$280.04");
    await expect(holding).toContainText("+$8.96");
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
  });
}
