import {
  DEMO_ADMIN,
  expect,
  registerClient,
  seriousAccessibilityProblems,
  signIn,
  test,
  watchForErrors,
} from "./support";

/**
 * What a client is told, on a phone: the confirmation link sent again (only the newest works), and the money the
 * desk posts to their account, with its reason, in their mail and on their History.
 */
const PHONE = { width: 390, height: 844 };
// axe is injected as an inline script (`seriousAccessibilityProblems`), which the CSP rightly refuses.
const PHONE_CONTEXT = { viewport: PHONE, bypassCSP: true };

test("an unconfirmed client has the confirmation link sent again on a phone, and only the new link confirms", async ({
  browser,
}) => {
  const context = await browser.newContext(PHONE_CONTEXT);
  const errors = watchForErrors(context);
  const page = await context.newPage();
  const email = await registerClient(page, "Noor");

  const notice = page.getByRole("complementary", { name: "E-mail confirmation" });
  await expect(notice).toContainText("Your e-mail address is not confirmed yet");
  expect(await seriousAccessibilityProblems(page)).toEqual([]);
  await notice.getByRole("button", { name: "Send the link again" }).click();
  await expect(page.getByText("A new confirmation link is on its way to your inbox.")).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto("/dev/mailbox");
  const mails = page.getByRole("listitem").filter({ hasText: `To ${email}` });
  const oldLink = await mails
    .filter({ hasText: "Welcome to" })
    .getByRole("link", { name: "Confirm my e-mail address" })
    .getAttribute("href");
  const newLink = await mails
    .filter({ hasText: "Confirm your e-mail address for" })
    .getByRole("link", { name: "Confirm my e-mail address" })
    .getAttribute("href");
  expect(oldLink).not.toEqual(newLink);

  await page.goto(oldLink ?? "");
  await expect(page.getByText("This confirmation link is invalid, has expired or was already used.")).toBeVisible();
  await page.goto(newLink ?? "");
  await expect(page.getByText("Thank you: your email address is confirmed.")).toBeVisible();

  await page.goto("/account");
  await expect(page.getByRole("heading", { name: "Account Settings" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send the link again" })).toHaveCount(0);
  await context.close();
  expect(errors).toEqual([]);
});

test("the desk posts a deposit with a reason: the client reads it in the mail and on History, on a phone", async ({
  browser,
}) => {
  // The admin signs in with the authenticator; a code step may have to be waited for.
  test.setTimeout(120_000);
  const clientContext = await browser.newContext(PHONE_CONTEXT);
  const adminContext = await browser.newContext();
  const errors = [clientContext, adminContext].flatMap(watchForErrors);
  const client = await clientContext.newPage();
  const admin = await adminContext.newPage();

  const firstName = `Memo${Date.now() % 100000}`;
  const email = await registerClient(client, firstName);
  const accountId = (await client.getByText(/^[0-9a-f-]{36}$/).textContent()) ?? "";

  await signIn(admin, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(admin).toHaveURL(/\/admin$/);
  await admin.goto(`/user/${accountId}`);
  await admin.getByRole("button", { name: "Deposit", exact: true }).click();
  await admin.getByLabel("Deposit amount").fill("125.50");
  const reason = "Goodwill credit for the delayed March payout";
  await admin.getByRole("textbox", { name: "Reason" }).fill(reason);
  await admin.getByRole("button", { name: "Confirm" }).click();
  await expect(admin.getByText("Deposit of $125.50 recorded").first()).toBeVisible();

  await client.goto("/transactions");
  const row = client.getByTestId("history-row").filter({ hasText: "$125.50" });
  await expect(row).toContainText(`Reason: ${reason}`);
  const reference = ((await row.textContent()) ?? "").match(/TX-[0-9A-Z]{6}/)?.[0] ?? "";
  expect(reference).toMatch(/^TX-/);
  // On a phone the row is a block: the reason stays inside the screen, under the type.
  const box = await row.getByText(`Reason: ${reason}`).boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? PHONE.width)).toBeLessThanOrEqual(PHONE.width);
  expect(await seriousAccessibilityProblems(client)).toEqual([]);

  await client.goto("/dev/mailbox");
  const mail = client
    .getByRole("listitem")
    .filter({ hasText: `To ${email}` })
    .filter({ hasText: "Deposit of $125.50 posted to your account" });
  await expect(mail).toContainText(`Hello ${firstName},`);
  await expect(mail).toContainText(reference);
  await expect(mail).toContainText(reason);

  await clientContext.close();
  await adminContext.close();
  expect(errors).toEqual([]);
});
