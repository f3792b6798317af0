import type { Page } from "@playwright/test";
import {
  DEMO_ADMIN,
  DEMO_SECOND_ADMIN,
  expect,
  passStepUpIfAsked,
  rejectWaitingWalletChanges,
  signIn,
  test,
  watchForErrors,
} from "./support";

// The demo's TRC20 wallet: no other browser test edits it.
const WALLET = "USDT (TRC20)";
/** Addresses to move it to: the first that differs from what it holds (a retry finds it moved). */
const ADDRESSES = [
  "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7",
  "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
  "TLyqzVGLV1srkB7dToTAEqgDSfPtXRJZYH",
];

const proposalsCard = (page: Page) =>
  page.getByRole("article").filter({ has: page.getByRole("heading", { name: "Awaiting second approval" }) });
const walletProposal = (page: Page, from: string, to: string) =>
  proposalsCard(page)
    .getByTestId("proposal")
    .filter({ hasText: `Wallet ${WALLET}: ${from} → ${to}` });

/** Opens the wallets modal (its button works once the page has hydrated: a click before that does nothing). */
async function openWallets(page: Page) {
  const dialog = page.getByRole("dialog", { name: "Deposit Wallets" });
  await expect(async () => {
    if (!(await dialog.isVisible())) await page.getByRole("button", { name: "Update Deposit Wallets" }).click();
    await expect(dialog).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  return dialog;
}

/** Opens the wallets modal, types an address for the wallet (and a reason, if given) and saves; returns the modal. */
async function proposeAddress(page: Page, address: string, reason?: string) {
  const dialog = await openWallets(page);
  await dialog.getByLabel(WALLET).fill(address);
  if (reason) await dialog.getByRole("textbox", { name: "Reason" }).fill(reason);
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  return dialog;
}

/** The second admin approves one waiting wallet change from the desk. */
async function approve(page: Page, from: string, to: string) {
  const row = walletProposal(page, from, to);
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: /Approve/ }).click();
  await passStepUpIfAsked(page, DEMO_SECOND_ADMIN.totpSecret, row);
}

// Two admins sign in with their authenticators; a code step may have to be waited for.
test.setTimeout(120_000);

test("a deposit-wallet change waits for a second admin, its wallet offers no second change meanwhile, and the other admin's approval applies it", async ({
  page,
  browser,
}) => {
  const secondAdminContext = await browser.newContext();
  const errors = watchForErrors(secondAdminContext);
  const secondAdmin = await secondAdminContext.newPage();
  await signIn(secondAdmin, DEMO_SECOND_ADMIN.email, DEMO_SECOND_ADMIN.password);
  await expect(secondAdmin).toHaveURL(/\/admin$/);
  await rejectWaitingWalletChanges(secondAdmin, WALLET);

  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/admin$/);

  // A second tab of the same admin, opened before the first proposes.
  const other = await browser.newContext({ storageState: await page.context().storageState() });
  errors.push(...watchForErrors(other));
  const tab = await other.newPage();
  await tab.goto(page.url());
  const original = await (await openWallets(tab)).getByLabel(WALLET).inputValue();
  const [FIRST = ""] = ADDRESSES.filter((address) => address !== original);

  // The change is proposed, not made: the modal says so and the wallet keeps its address.
  const reason = "Rotated by the custodian, ticket E2E";
  const dialog = await proposeAddress(page, FIRST, reason);
  await expect(dialog.getByText("Awaiting second approval", { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden({ timeout: 5_000 });
  const mine = walletProposal(page, original, FIRST);
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText("Waiting for another admin");
  await expect(mine).toContainText(`Reason: ${reason}`);
  await expect(mine.getByRole("button")).toHaveCount(0);
  await page.reload();
  const reopened = await openWallets(page);
  await expect(reopened.getByLabel(WALLET)).toHaveValue(original);
  // One change of a wallet waits at a time: the modal shows it beside the wallet and offers no second one.
  await expect(reopened.getByText(`Awaiting second approval: ${FIRST}`)).toBeVisible();
  await expect(reopened.getByLabel(WALLET)).toBeDisabled();
  // Read out after what the field takes (an address: Tron's wallet takes no key).
  await expect(reopened.getByLabel(WALLET)).toHaveAccessibleDescription(`Address Awaiting second approval: ${FIRST}`);
  await reopened.getByRole("button", { name: "Close" }).click();

  // The other tab, opened before the change, follows live: its field is closed too.
  const tabDialog = await openWallets(tab);
  await expect(tabDialog.getByText(`Awaiting second approval: ${FIRST}`)).toBeVisible();
  await expect(tabDialog.getByLabel(WALLET)).toBeDisabled();

  // The second admin approves it from the desk (the card follows live); the address changes.
  await approve(secondAdmin, original, FIRST);
  await expect(mine).toHaveCount(0);
  await page.reload();
  await expect((await openWallets(page)).getByLabel(WALLET)).toHaveValue(FIRST);

  // Leave the demo wallet as other tests expect it, through the same two steps.
  const back = await proposeAddress(page, original);
  await expect(back.getByText("Awaiting second approval", { exact: true })).toBeVisible();
  await approve(secondAdmin, FIRST, original);
  await page.reload();
  await expect((await openWallets(page)).getByLabel(WALLET)).toHaveValue(original);

  await other.close();
  await secondAdminContext.close();
  expect(errors).toEqual([]);
});
