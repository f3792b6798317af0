import { DEMO_ADMIN, expect, signIn, test, watchForErrors } from "./support";

// The demo's TRC20 wallet: no other browser test edits it.
const WALLET = "USDT (TRC20)";
const FIRST = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7";
const SECOND = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";

test("the wallet modal shows what was saved, and a save from a stale tab is refused", async ({ page, browser }) => {
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/admin$/);

  // A second tab, opened before the first saves: its form shows the address as it was.
  const other = await browser.newContext({ storageState: await page.context().storageState() });
  const errors = watchForErrors(other);
  const stale = await other.newPage();
  await stale.goto(page.url());
  await stale.getByRole("button", { name: "Update Deposit Wallets" }).click();
  const original = await stale.getByLabel(WALLET).inputValue();

  const save = async (target: typeof page, address: string) => {
    await target.getByLabel(WALLET).fill(address);
    await target.getByRole("button", { name: "Save Changes" }).click();
  };

  await page.getByRole("button", { name: "Update Deposit Wallets" }).click();
  await save(page, FIRST);
  await expect(page.getByText("Updated 1 wallet(s) successfully").first()).toBeVisible();
  await expect(page.getByRole("dialog")).toBeHidden({ timeout: 5_000 });
  await page.getByRole("button", { name: "Update Deposit Wallets" }).click();
  await expect(page.getByLabel(WALLET)).toHaveValue(FIRST);

  await save(stale, SECOND);
  await expect(stale.getByText("This wallet was changed by someone else. Reload and try again.").first()).toBeVisible();
  await page.reload();
  await page.getByRole("button", { name: "Update Deposit Wallets" }).click();
  await expect(page.getByLabel(WALLET)).toHaveValue(FIRST);

  // Leave the demo wallet as other tests expect it.
  await save(page, original);
  await expect(page.getByText("Updated 1 wallet(s) successfully").first()).toBeVisible();
  await other.close();
  expect(errors).toEqual([]);
});
