import type { Page } from "@playwright/test";
import { chainSimulatorPort } from "../../scripts/lib/chain-simulator.ts";
import { executeStatements, query, sqlValue } from "../../scripts/lib/local-d1";
import { chainControl } from "../support/chain";
import { e2eDatabase, whileBusy } from "./database";
import { DEMO_ADMIN, expect, registerClient, signIn, test } from "./support";

/**
 * A withdrawal paid on chain, as the desk and the client live it: the approver records the payout's transaction in
 * the dialog on the client page, the watcher accepts it, and the client's History shows the transaction with its
 * fee and confirmations, linking to the explorer (locally the simulator's JSON of it).
 */
const chain = chainControl(
  `http://127.0.0.1:${chainSimulatorPort({ PORT: process.env.E2E_PORT ?? "8788", CHAIN_SIMULATOR_PORT: process.env.CHAIN_SIMULATOR_PORT })}`,
  "dev",
);
const PAYOUT_ADDRESS = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx";

async function runWatcher(page: Page) {
  const response = await page.request.post("/dev/chain-watcher");
  expect(response.status()).toBe(200);
}

/** The client's approved $650.00 withdrawal in BTC, as a decided request stands; answers the client's id. */
async function approvedWithdrawal(email: string): Promise<string> {
  const user = sqlValue(email.toLowerCase());
  const now = Date.now();
  await whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, created_at, decided_at)
         SELECT id, 'deposit', 100000, 'approved', ${now - 2_000}, ${now - 2_000} FROM users WHERE email = ${user}`,
        `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, withdrawal_wallet_address,
                                   created_by, created_at, decided_at)
         SELECT id, 'withdraw', 65000, 'approved', ${sqlValue(PAYOUT_ADDRESS)}, id, ${now - 1_000}, ${now}
         FROM users WHERE email = ${user}`,
        `INSERT INTO withdrawal_wallets (user_id, transaction_id, wallet_address, crypto_currency, amount_cents)
         SELECT user_id, id, ${sqlValue(PAYOUT_ADDRESS)}, 'BTC', 65000 FROM transactions
         WHERE user_id = (SELECT id FROM users WHERE email = ${user}) AND transaction_type = 'withdraw'`,
        `UPDATE profiles SET balance_cents = 35000 WHERE email = ${user}`,
      ],
      e2eDatabase,
    ),
  );
  const rows = await whileBusy(() => query<{ id: string }>(`SELECT id FROM users WHERE email = ${user}`, e2eDatabase));
  return rows[0]?.id ?? "";
}

test("an approver records a payout, the watcher accepts it, and the client sees the transaction", async ({
  page,
  browser,
}) => {
  const email = await registerClient(page, "Paula");
  const clientId = await approvedWithdrawal(email);
  const paid = await chain.pay({ address: PAYOUT_ADDRESS, amount: "0.01" });

  const desk = await browser.newPage();
  await signIn(desk, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await desk.goto(`/user/${clientId}`);
  await desk.getByRole("button", { name: "Record payout of withdrawal of $650.00" }).click();
  const dialog = desk.getByRole("dialog", { name: "Record the payout of $650.00" });
  await dialog.getByLabel("Transaction id").fill("not-a-transaction");
  await dialog.getByRole("button", { name: "Record payout" }).click();
  await expect(dialog.getByText("Enter the transaction id: 64 hexadecimal characters")).toBeVisible();
  await dialog.getByLabel("Transaction id").fill(paid.txid);
  await dialog.getByRole("button", { name: "Record payout" }).click();
  await expect(dialog).toBeHidden();
  await expect(desk.getByTestId("desk-payout")).toHaveText("Payout recorded, checking on chain");

  await chain.mine(1);
  await runWatcher(page);
  await expect(desk.getByTestId("payout-line")).toContainText("1 of 2 confirmations");

  await page.goto("/transactions");
  const line = page.getByTestId("payout-line");
  await expect(line).toContainText(/^Paid on chain: \w{6}…\w{6} · Network fee 0\.\d+ BTC · 1 of 2 confirmations$/);
  const link = line.getByRole("link", { name: `Transaction ${paid.txid} (opens a block explorer)` });
  expect(await link.getAttribute("href")).toMatch(new RegExp(`/dev/explorer/bitcoin/tx/${paid.txid}$`));
  const explorer = await page.request.get((await link.getAttribute("href")) ?? "");
  expect(((await explorer.json()) as { txid: string }).txid).toBe(paid.txid);

  await chain.mine(1);
  await runWatcher(page);
  await expect(line).toContainText("· Confirmed");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(line).toBeVisible();
  await page.screenshot({ path: "test-results/chain-payout-phone.png", fullPage: true });
  await desk.screenshot({ path: "test-results/chain-payout-desk.png", fullPage: true });
});
