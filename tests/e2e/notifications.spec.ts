import {
  DEMO_ADMIN,
  expect,
  registerClient,
  seriousAccessibilityProblems,
  signIn,
  submitDepositRequest,
  test,
  watchForErrors,
} from "./support";

/**
 * The notification centre as a client lives it: an admin decides their request while their dashboard is open, the
 * bell's count rises without a reload, the list links to the request, marking it read brings the count down. And
 * the mail preferences on /account, saved and shown again.
 */
test("the bell rises live when an admin decides the client's request, and falls when it is read", async ({
  browser,
  page: client,
}) => {
  test.setTimeout(90_000);
  await registerClient(client, `Bell${Date.now() % 100000}`);
  const accountId = (await client.getByText(/^[0-9a-f-]{36}$/).textContent()) ?? "";
  expect(accountId).toMatch(/^[0-9a-f-]{36}$/);
  const bell = client.getByTestId("notification-bell");
  await expect(bell).toHaveAccessibleName("Notifications");

  await submitDepositRequest(client, "321.00");
  await expect(client).toHaveURL(/\/dashboard$/);

  const adminContext = await browser.newContext();
  const errors = watchForErrors(adminContext);
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(admin).toHaveURL(/\/admin$/);
  await admin.goto(`/user/${accountId}`);
  await admin.getByRole("button", { name: "Approve deposit of $321.00" }).click();
  await expect(admin.locator("tr").filter({ hasText: "$321.00" })).toContainText("approved");

  // No reload: the decision's event on the client's feed makes the page read its data, the bell's count with it.
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  await expect(client.getByTestId("notification-count")).toHaveText("1");

  await bell.click();
  await expect(client).toHaveURL(/\/notifications$/);
  const item = client.getByTestId("notification");
  await expect(item).toHaveCount(1);
  await expect(item).toContainText("Unread");
  const subject = item.getByRole("link", { name: "Deposit request approved" });
  await expect(subject).toHaveAttribute("href", /^\/transactions\?reference=TX-[0-9A-Z]{6}$/);

  await item.getByRole("button", { name: /Mark as read/ }).click();
  await expect(client.getByText("Marked as read")).toBeVisible();
  await expect(bell).toHaveAccessibleName("Notifications");
  await expect(client.getByTestId("notification-count")).toHaveCount(0);
  await expect(item).not.toContainText("Unread");

  await subject.click();
  await expect(client).toHaveURL(/\/transactions\?reference=TX-/);
  await expect(client.locator("tr").filter({ hasText: "$321.00" })).toHaveCount(1);

  await adminContext.close();
  expect(errors).toEqual([]);
});

test.describe("at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, bypassCSP: true });

  test("the bell, the list and the mail preferences work, are labelled and keep their choice", async ({ page }) => {
    await registerClient(page, `Prefs${Date.now() % 100000}`);
    const bell = page.getByTestId("notification-bell");
    await expect(bell).toBeVisible();
    await bell.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(page.getByTestId("notifications-empty")).toBeVisible();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await page.goto("/account");
    const requests = page.getByLabel("My requests");
    await expect(requests).toBeChecked();
    await requests.uncheck();
    await page.getByRole("button", { name: "Save mail preferences" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Mail preferences saved" })).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("My requests")).not.toBeChecked();
    await expect(page.getByLabel("Entries posted to my account")).toBeChecked();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
