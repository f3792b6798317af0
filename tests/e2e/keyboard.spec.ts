import { clientWithRequests, clientWithTwoFactor, operator } from "./back-office-people";
import { outOfStepUpWindow } from "./database";
import { expectDialogTrapsFocus, expectFocusShown, tabTo, typeInto } from "./keyboard";
import { CODE_PROMPT, DEMO_CLIENT, expect, signIn, test } from "./support";
import { withUnusedCode } from "./totp";

/**
 * The flows a person does with a keyboard only (no mouse anywhere): every stop shows its focus and is not under
 * the sticky header, dialogs keep the focus inside and give it back to the button that opened them.
 */
// Sign-ins wait for an unused authenticator step; the database is written from outside between pages.
test.setTimeout(150_000);

test("a client signs in with a code, asks for a withdrawal with the step-up code, and cancels nothing in the dialog, by keyboard", async ({
  page,
}) => {
  const client = await clientWithTwoFactor();
  await page.goto("/login");
  await typeInto(page, page.getByLabel("Email"), client.email);
  await typeInto(page, page.getByLabel("Password"), client.password);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/login\/two-factor$/);
  const code = page.getByLabel(CODE_PROMPT);
  await withUnusedCode(client.totpSecret, async (value) => {
    await tabTo(page, code);
    await page.keyboard.type(value);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  // Past the step-up window, the withdrawal asks for a code in the form.
  await outOfStepUpWindow(page.context());
  const nav = page.getByRole("navigation", { name: "Main" });
  await tabTo(page, nav.getByRole("link", { name: "Withdraw" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/withdraw$/);
  await typeInto(page, page.getByLabel("Amount (USD)"), "12.50");
  await tabTo(page, page.getByLabel("Cryptocurrency"));
  // A closed select takes the first letters of an option, as a person types them.
  await page.keyboard.type("ETH");
  await expect(page.getByLabel("Cryptocurrency")).toHaveValue("ETH");
  await typeInto(page, page.getByLabel("Wallet Address"), "0x3333333333333333333333333333333333333333");
  await page.keyboard.press("Enter");
  const stepUp = page.getByLabel(CODE_PROMPT);
  await expect(stepUp).toBeFocused();
  await expectFocusShown(page);
  await withUnusedCode(client.totpSecret, async (value) => {
    await page.keyboard.type(value);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/dashboard$/);
  });
  await expect(page.getByText("Withdrawal request submitted successfully")).toBeVisible();

  // Its Cancel opens 'Cancel this request?': focus stays in it, and Escape gives it back to Cancel.
  const cancel = page.getByRole("button", { name: /^Cancel / }).first();
  await tabTo(page, cancel);
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Cancel this request?" });
  await expect(dialog.getByRole("button", { name: "Keep it" })).toBeFocused();
  await expectDialogTrapsFocus(page, dialog, cancel);
});

test("an operator approves a deposit by keyboard, through the step-up dialog, which gives the focus back when closed", async ({
  page,
}) => {
  const clientId = await clientWithRequests();
  const person = await operator();
  await signIn(page, person.email, person.password, { totpSecret: person.totpSecret });
  await expect(page).toHaveURL(/\/admin$/);
  await outOfStepUpWindow(page.context());
  await page.goto(`/user/${clientId}`);
  const approve = page.getByRole("button", { name: /^Approve deposit/i });
  await expect(approve).toHaveCount(1);

  await tabTo(page, approve);
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: /^Approve / });
  await expect(dialog.getByLabel(CODE_PROMPT)).toBeFocused();
  await expectDialogTrapsFocus(page, dialog, approve);

  await page.keyboard.press("Enter");
  await expect(dialog.getByLabel(CODE_PROMPT)).toBeFocused();
  await withUnusedCode(person.totpSecret, async (value) => {
    await page.keyboard.type(value);
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
  });
  await expect(approve).toHaveCount(0);
});

test("a client downloads a month's statement by keyboard, going back up the page with Shift+Tab", async ({ page }) => {
  await signIn(page, DEMO_CLIENT.email, DEMO_CLIENT.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/statements");
  const month = page.getByRole("link", { name: /View statement/ }).last();
  await tabTo(page, month);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/statements\/\d{4}-\d{2}$/);

  const csv = page.getByRole("link", { name: "Download CSV" });
  await tabTo(page, csv);
  const download = page.waitForEvent("download");
  await page.keyboard.press("Enter");
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);

  // On to the page's end and back up: what scrolls into view at the top stays clear of the sticky header. (Tab
  // right after End would meet the End key's scroll still running, which moves whatever Tab has just focused.)
  // At a phone's width the page is longer, so more of the climb scrolls.
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await tabTo(page, page.getByRole("contentinfo").getByRole("link").last());
    await tabTo(page, csv, { backwards: true });
  }
});
