import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { encryptTotpSecret, newTotpSecret } from "../../app/server/auth/totp.server";
import { executeStatements, query, ROOT, settingLines, sqlValue } from "../../scripts/lib/local-d1";
import { e2eDatabase as database, outOfStepUpWindow, whileBusy } from "./database";
import {
  DEMO_ADMIN,
  DEMO_SECOND_ADMIN,
  expect,
  registerClient,
  rejectWaitingWalletChanges,
  seriousAccessibilityProblems,
  signIn,
  submitDepositRequest,
  test,
  watchForErrors,
} from "./support";

/**
 * The dialogs and the buttons that destroy or refuse something. Each dialog has one way out (a button, and
 * Escape); its title wraps, whatever it holds; every button that cancels, rejects, deletes, turns off or unlinks is
 * the red danger button with dark text (4.5:1 or more at rest and hovered: axe checks the hovered one). axe is
 * injected as an inline script, which our CSP rightly refuses: these pages run with CSP bypassed.
 */
// The colours asserted below are the dark theme's; the light theme's pairs are held to AA by
// tests/scripts/theme-contrast.test.ts and axe in tests/e2e/theme.spec.ts.
test.use({ bypassCSP: true, colorScheme: "dark" });
// Admins sign in with their authenticators, and some set-up goes straight to the database: several seconds each.
test.setTimeout(150_000);

const PHONE = { width: 390, height: 844 };
/** The words of a button that only closes a dialog. */
const WAY_OUT = /^(Close|Keep it|Cancel|Dismiss)$/;

async function expectDangerButton(button: Locator) {
  await expect(button).toBeVisible();
  await expect(button).toHaveCSS("background-color", "rgb(248, 113, 113)");
  await expect(button).toHaveCSS("color", "rgb(11, 18, 32)");
}

/** One button closes the dialog (named `name`), the keyboard reaches it, and Escape closes the dialog too. */
async function expectOneWayOut(page: Page, dialog: Locator, name: string) {
  const ways = dialog.getByRole("button", { name: WAY_OUT });
  await expect(ways).toHaveCount(1);
  await expect(ways).toHaveText(name);
  await ways.focus();
  await expect(ways).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
}

/** axe on the page with the dialog open and its danger button hovered. */
async function expectNoSeriousProblems(page: Page, danger: Locator) {
  await danger.hover();
  expect(await seriousAccessibilityProblems(page)).toEqual([]);
}

test("a wallet proposal's Reject dialog on a phone shows its whole title, both addresses in full", async ({
  browser,
}) => {
  const proposerContext = await browser.newContext();
  const deciderContext = await browser.newContext({ viewport: PHONE, bypassCSP: true });
  const errors = [...watchForErrors(proposerContext), ...watchForErrors(deciderContext)];
  const decider = await deciderContext.newPage();
  await signIn(decider, DEMO_SECOND_ADMIN.email, DEMO_SECOND_ADMIN.password);
  await expect(decider).toHaveURL(/\/admin$/);
  await rejectWaitingWalletChanges(decider, "ETH");

  const proposer = await proposerContext.newPage();
  await signIn(proposer, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(proposer).toHaveURL(/\/admin$/);
  await proposer.getByRole("button", { name: "Update Deposit Wallets" }).click();
  const wallets = proposer.getByRole("dialog", { name: "Deposit Wallets" });
  const original = await wallets.getByLabel("ETH", { exact: true }).inputValue();
  const proposed = `0x3333${Date.now().toString(16).padStart(36, "0")}`;
  await wallets.getByLabel("ETH", { exact: true }).fill(proposed);
  await wallets.getByRole("button", { name: "Save Changes" }).click();
  await expect(wallets.getByText("Awaiting second approval", { exact: true })).toBeVisible();
  await proposerContext.close();

  const title = `Reject: Wallet ETH: ${original} → ${proposed}`;
  const row = decider.getByTestId("proposal").filter({ hasText: `Wallet ETH: ${original} → ${proposed}` });
  await row.getByRole("button", { name: /Reject/ }).click();
  const dialog = decider.getByRole("dialog", { name: title });
  await expect(dialog).toBeVisible();
  const heading = dialog.getByRole("heading", { name: title });
  await expect(heading).toHaveText(title);
  // Nothing of the title runs past its box or the dialog's, and the dialog is on the screen.
  const fit = await heading.evaluate((element) => {
    const box = element.closest("dialog") as HTMLDialogElement;
    return {
      title: element.scrollWidth - element.clientWidth,
      dialog: box.scrollWidth - box.clientWidth,
      right: box.getBoundingClientRect().right,
    };
  });
  expect(fit.title).toBeLessThanOrEqual(0);
  expect(fit.dialog).toBeLessThanOrEqual(0);
  expect(fit.right).toBeLessThanOrEqual(PHONE.width);

  const reject = dialog.getByRole("button", { name: "Reject", exact: true });
  await expectDangerButton(reject);
  await expectNoSeriousProblems(decider, reject);
  await expectOneWayOut(decider, dialog, "Close");

  // It still rejects: the reason is required.
  await row.getByRole("button", { name: /Reject/ }).click();
  await dialog.getByRole("textbox", { name: "Reason" }).fill("Not the address our custodian gave us");
  await reject.click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);
  await deciderContext.close();
  expect(errors).toEqual([]);
});

test("cancelling a request, rejecting one and deleting a client: danger buttons, one way out of each dialog", async ({
  page,
  browser,
}) => {
  const firstName = `Dana${Date.now() % 100000}`;
  const email = await registerClient(page, firstName);
  const accountId = (await page.getByText(/^[0-9a-f-]{36}$/).textContent()) ?? "";
  await submitDepositRequest(page, "45");
  await expect(page.getByText("Deposit request submitted successfully")).toBeVisible();

  // The client's Cancel: 'Keep it' is the one way out, and the dialog starts on it.
  const cancel = page.getByRole("button", { name: "Cancel deposit of $45.00" });
  const cancelDialog = page.getByRole("dialog", { name: "Cancel this request?" });
  await expect(async () => {
    if (!(await cancelDialog.isVisible())) await cancel.click();
    await expect(cancelDialog).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(cancelDialog.getByRole("button", { name: "Keep it" })).toBeFocused();
  const cancelRequest = cancelDialog.getByRole("button", { name: "Cancel request" });
  await expectDangerButton(cancelRequest);
  await expectNoSeriousProblems(page, cancelRequest);
  await expectOneWayOut(page, cancelDialog, "Keep it");

  // The admin's Reject on the client page, and the step-up dialog of the desk's Delete.
  const adminContext = await browser.newContext({ bypassCSP: true });
  const errors = watchForErrors(adminContext);
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(admin).toHaveURL(/\/admin$/);
  await admin.goto(`/user/${accountId}`);
  await admin.getByRole("button", { name: "Reject deposit of $45.00" }).click();
  const rejectDialog = admin.getByRole("dialog", { name: "Reject deposit of $45.00" });
  const reject = rejectDialog.getByRole("button", { name: "Reject", exact: true });
  await expectDangerButton(reject);
  await expectNoSeriousProblems(admin, reject);
  await expectOneWayOut(admin, rejectDialog, "Close");

  await outOfStepUpWindow(adminContext);
  await admin.goto(`/admin?q=${encodeURIComponent(email)}`);
  admin.once("dialog", (confirm) => void confirm.accept());
  await admin.getByRole("button", { name: `Delete ${firstName} Tester's data` }).click();
  const deleteDialog = admin.getByRole("dialog", { name: `Delete ${firstName} Tester's data` });
  await expect(deleteDialog).toBeVisible();
  const confirmDelete = deleteDialog.getByRole("button", { name: "Delete", exact: true });
  await expectDangerButton(confirmDelete);
  await expectNoSeriousProblems(admin, confirmDelete);
  await expectOneWayOut(admin, deleteDialog, "Close");
  // Closed without a code, nothing was deleted.
  await admin.reload();
  await expect(admin.getByRole("button", { name: `Delete ${firstName} Tester's data` })).toBeVisible();
  await adminContext.close();
  expect(errors).toEqual([]);
});

test("turning off two-factor sign-in and unlinking a provider are danger buttons", async ({ page }) => {
  const email = await registerClient(page, "Tobias");
  // Two-factor on and GitHub linked, straight in the database (their own pages are tested elsewhere).
  const [user] = await whileBusy(() =>
    query<{ id: string }>(`SELECT id FROM users WHERE email = ${sqlValue(email)}`, database),
  );
  if (!user) throw new Error(`no user ${email}`);
  const key = settingLines(readFileSync(join(ROOT, ".dev.vars"), "utf8")).find(
    ([name]) => name === "TOTP_ENCRYPTION_KEY",
  );
  if (!key) throw new Error("TOTP_ENCRYPTION_KEY is not in .dev.vars");
  const secret = await encryptTotpSecret(key[1], user.id, newTotpSecret());
  await whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO two_factor (user_id, secret_encrypted, confirmed_at) VALUES (${sqlValue(user.id)}, ${sqlValue(secret)}, ${Date.now()})`,
        `INSERT INTO oauth_accounts (provider, provider_user_id, user_id, email)
           VALUES ('github', ${sqlValue(`danger-${user.id}`)}, ${sqlValue(user.id)}, ${sqlValue(email)})`,
      ],
      database,
    ),
  );

  await page.goto("/account/two-factor");
  const turnOff = page.getByRole("button", { name: "Turn off two-factor authentication" });
  await expectDangerButton(turnOff);
  // Getting new recovery codes takes nothing away: it stays the primary button.
  await expect(page.getByRole("button", { name: "Get new recovery codes" })).toHaveCSS(
    "background-color",
    "rgb(37, 99, 235)",
  );
  await expectNoSeriousProblems(page, turnOff);

  await page.goto("/account");
  await expectDangerButton(page.getByRole("button", { name: "Unlink GitHub" }));
});
