import { chainSimulatorPort } from "../../scripts/lib/chain-simulator.ts";
import { quotesControl } from "../support/quotes";
import { WCAG_AA } from "./accessibility-states";
import { fundInDatabase } from "./database";
import {
  accessibilityFindings,
  DEMO_ADMIN,
  describeFinding,
  expect,
  passStepUpIfAsked,
  registerClient,
  signIn,
  test,
  watchForErrors,
} from "./support";

/**
 * The desk closes a client's position (docs/product.md, "Orders and positions", "The desk's close"): the client buys
 * on the stock page, an admin opens the client's page, presses Close on the position, reads what it will sell in the
 * dialog, gives a reason and confirms; the position is sold at the simulator's bid and the client's portfolio no
 * longer holds it. At desktop and phone width.
 */
// axe is injected as an inline script, which the site's CSP refuses (accessibilityFindings).
test.use({ bypassCSP: true });
test.setTimeout(120_000);

const quotes = quotesControl(
  `http://127.0.0.1:${chainSimulatorPort({ PORT: process.env.E2E_PORT ?? "8788", CHAIN_SIMULATOR_PORT: process.env.CHAIN_SIMULATOR_PORT })}`,
  "dev",
);

test.afterEach(async () => {
  await quotes.walk("AMD");
});

for (const width of [1366, 390]) {
  test(`an admin closes a client's position at the bid, at ${width} px`, async ({ page, browser }) => {
    await quotes.set("AMD", { bid: "150.00", ask: "150.04" });
    const email = await registerClient(page, `Closer${width}`);
    const accountId = (await page.getByText(/^[0-9a-f-]{36}$/).textContent()) ?? "";
    await fundInDatabase(email, 100_000);
    await page.goto("/stocks/AMD");
    const ticket = page.getByRole("region", { name: "Trade AMD" });
    await ticket.getByLabel("Shares (up to 4 decimals)").fill("2");
    await ticket.getByRole("button", { name: "Buy AMD" }).click();
    await expect(ticket.getByRole("status")).toHaveText(/Bought 2 AMD at \$150\.04 for \$300\.08: position P-\d{6}/);
    const serial = ((await ticket.getByRole("status").textContent()) ?? "").match(/P-\d{6}/)?.[0] ?? "";

    const adminContext = await browser.newContext({ viewport: { width, height: 900 } });
    const errors = watchForErrors(adminContext);
    const admin = await adminContext.newPage();
    await signIn(admin, DEMO_ADMIN.email, DEMO_ADMIN.password);
    await quotes.set("AMD", { bid: "160.00", ask: "160.04" });
    await admin.goto(`/user/${accountId}`);
    const row = admin.getByTestId(`position-${serial}`);
    await row.getByRole("button", { name: `Close position ${serial}` }).click();
    const dialog = admin.getByRole("dialog", { name: `Close position ${serial}` });
    await expect(dialog).toContainText("Sells all 2 AMD of this position at the bid");
    // WCAG 2.2 AA at every impact, in both themes (the page follows the system's).
    for (const colorScheme of ["dark", "light"] as const) {
      await admin.emulateMedia({ colorScheme });
      expect((await accessibilityFindings(admin, { tags: WCAG_AA })).map(describeFinding)).toEqual([]);
    }
    await dialog.getByLabel("Reason").fill("Client asked by phone");
    await dialog.getByRole("button", { name: "Close position" }).click();
    await passStepUpIfAsked(admin, DEMO_ADMIN.totpSecret, row);
    await expect(
      admin.getByText(`Closed ${serial}: sold 2 AMD at $160.00 for $320.00, result +$19.92`).first(),
    ).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect(dialog).toBeHidden();
    expect(errors).toEqual([]);

    await page.goto("/portfolio");
    await expect(page.getByTestId("holding-AMD")).toHaveCount(0);
    await page.goto("/notifications");
    await expect(page.getByText("Our desk closed a position: sold 2 AMD").first()).toBeVisible();
    await adminContext.close();
  });
}
