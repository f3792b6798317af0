import { readFile } from "node:fs/promises";
import { executeStatements, query, sqlValue } from "../../scripts/lib/local-d1";
import { e2eDatabase as database, whileBusy } from "./database";
import { DEMO_CLIENT, expect, registerClient, signIn, test } from "./support";

/**
 * A client's history in the browser: a new client whose 60 rows (deposits, withdrawals and trades over three
 * months, enough for two pages) are put straight in the test server's database, as the money pages are tested on
 * their own.
 */

const ROWS = 60;
const MONTHS = [Date.UTC(2026, 0, 1), Date.UTC(2026, 1, 1), Date.UTC(2026, 2, 1)];
const typeOf = (i: number) => (i % 4 === 0 ? "withdraw" : i % 4 === 1 ? "profit" : "deposit");
const createdAtOf = (i: number) => (MONTHS[i % 3] ?? 0) + Math.floor(i / 3) * 86_400_000 + 3_600_000;

async function giveHistory(email: string) {
  const [user] = await whileBusy(() =>
    query<{ id: string }>(`SELECT id FROM users WHERE email = ${sqlValue(email)}`, database),
  );
  if (!user) throw new Error(`no user ${email}`);
  const values = Array.from({ length: ROWS }, (_, i) => {
    const type = typeOf(i);
    return `(${sqlValue(user.id)}, '${type}', ${1_000 + i * 100}, 'approved', ${type === "profit" ? "'EUR/USD'" : "NULL"}, ${createdAtOf(i)})`;
  });
  await whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, trading_pair, created_at)
         VALUES ${values.join(", ")}`,
      ],
      database,
    ),
  );
}

// Each wrangler CLI call starts its own runtime: a few seconds apiece, more on a busy machine.
test.setTimeout(120_000);
// One after the other: the CLI's write locks the database file, and the other test's page reads would meet it.
test.describe.configure({ mode: "serial" });

test("a client pages through the history, filters it by type and month, and downloads what they see as CSV", async ({
  page,
}) => {
  const email = await registerClient(page, "Hedda");
  await giveHistory(email);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "History" }).click();
  await expect(page).toHaveURL(/\/transactions$/);
  await expect(page.getByRole("heading", { name: "History" })).toBeVisible();

  const rows = page.getByTestId("history-row");
  await expect(rows).toHaveCount(50);
  const newest = (await rows.first().textContent()) ?? "";
  expect(newest).toMatch(/TX-[0-9A-Z]{6}/);
  await expect(page.getByRole("link", { name: "Previous" })).toHaveCount(0);

  await page.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/after=/);
  await expect(rows).toHaveCount(ROWS - 50);
  await expect(page.getByRole("link", { name: "Next" })).toHaveCount(0);
  await page.getByRole("link", { name: "Previous" }).click();
  await expect(page).toHaveURL(/before=/);
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toHaveText(newest);

  // Withdrawals of February: rows 4, 16, 28, 40 and 52.
  await page.getByLabel("Type").selectOption("withdraw");
  await page.getByLabel("From (UTC)").fill("2026-02-01");
  await page.getByLabel("To (UTC, included)").fill("2026-02-28");
  await page.getByRole("button", { name: "Apply" }).click();
  // Only the filters that hold something go in the address.
  await expect(page).toHaveURL(/\/transactions\?type=withdraw&from=2026-02-01&to=2026-02-28$/);
  await expect(rows).toHaveCount(5);
  await expect(page.getByRole("button", { name: "Apply" })).toBeFocused();
  // The fields follow the URL: Back shows the unfiltered page with empty fields, Forward the filter again.
  await page.goBack();
  await expect(rows).toHaveCount(50);
  await expect(page.getByLabel("Type")).toHaveValue("");
  await expect(page.getByLabel("From (UTC)")).toHaveValue("");
  await page.goForward();
  await expect(rows).toHaveCount(5);
  await expect(page.getByLabel("Type")).toHaveValue("withdraw");
  await expect(page.getByLabel("From (UTC)")).toHaveValue("2026-02-01");
  for (const row of await rows.all()) await expect(row).toContainText("Withdrawal");
  await expect(page.getByRole("link", { name: "Next" })).toHaveCount(0);
  const shown = await rows.evaluateAll((elements) =>
    elements.map((element) => /TX-[0-9A-Z]{6}/.exec(element.textContent ?? "")?.[0]),
  );

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^transactions-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = (await readFile((await download.path()) ?? "", "utf8")).trim().split("\r\n");
  expect(lines[0]).toBe("reference,date,type,status,direction,amount,trading_pair,stock");
  expect(lines.slice(1).map((line) => line.split(",")[0])).toEqual(shown);
  for (const line of lines.slice(1))
    expect(line).toMatch(/^TX-\w{6},2026-02-\d\dT01:00:00\.000Z,Withdrawal,approved,out,\d+\.\d\d,,$/);

  // A bookmark of the view opens it again; Clear goes back to everything.
  await page.reload();
  await expect(rows).toHaveCount(5);
  await page.getByRole("link", { name: "Clear" }).click();
  await expect(page).toHaveURL(/\/transactions$/);
  await expect(rows).toHaveCount(50);
});

test("the history stacks its rows at phone width and the dashboard's 'View all' opens the matching view", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 800 });
  const email = await registerClient(page, "Ines");
  await giveHistory(email);
  await page.reload();
  await page.getByRole("link", { name: "View all pending transactions" }).click();
  await expect(page).toHaveURL(/\/transactions\?status=pending$/);
  await expect(page.getByTestId("history-empty")).toHaveText("No transactions match these filters.");

  await page.goto("/transactions?type=profit");
  await expect(page.getByTestId("history-row")).toHaveCount(15);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expect(page.getByTestId("history-row").first()).toContainText("EUR/USD");
});

test("a filter chosen before the page's scripts have started is kept and applied", async ({ page }) => {
  await signIn(page, DEMO_CLIENT.email, DEMO_CLIENT.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  // The page's scripts are held back until the choice is made, as on a slow connection.
  let releaseScripts = () => {};
  const scriptsHeld = new Promise<void>((resolve) => {
    releaseScripts = resolve;
  });
  await page.route("**/assets/**/*.js", async (route) => {
    await scriptsHeld;
    await route.continue();
  });
  await page.goto("/transactions", { waitUntil: "domcontentloaded" });
  await page.getByLabel("Type").selectOption("withdraw");
  releaseScripts();
  await page.waitForFunction(() => Boolean((window as { __reactRouterDataRouter?: unknown }).__reactRouterDataRouter));
  await expect(page.getByLabel("Type")).toHaveValue("withdraw");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/type=withdraw/);
});
