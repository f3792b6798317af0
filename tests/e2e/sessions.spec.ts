import { expect, registerClient, signIn, test, watchForErrors } from "./support";

const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0";
const SAFARI_ON_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

test("two browsers see each other on /account; End all others signs the other one out", async ({ browser }) => {
  const laptopContext = await browser.newContext({ userAgent: FIREFOX_ON_WINDOWS });
  const phoneContext = await browser.newContext({
    userAgent: SAFARI_ON_IPHONE,
    viewport: { width: 375, height: 740 },
    isMobile: true,
  });
  const errors = [...[laptopContext, phoneContext].map(watchForErrors)];
  const laptop = await laptopContext.newPage();
  const phone = await phoneContext.newPage();

  const email = await registerClient(laptop, "Sasha");
  await signIn(phone, email, "client-pass-1");
  await expect(phone).toHaveURL(/\/dashboard$/);

  await laptop.goto("/account");
  const laptopSessions = laptop.getByRole("table", { name: "Active sessions" }).getByRole("row");
  // The heading row, then this device first and the phone.
  await expect(laptopSessions).toHaveCount(3);
  await expect(laptopSessions.nth(1)).toContainText("Firefox on Windows");
  await expect(laptopSessions.nth(1)).toContainText("This device");
  await expect(laptopSessions.nth(2)).toContainText("Safari on iOS");
  await expect(laptopSessions.nth(2)).not.toContainText("This device");
  await expect(laptop.getByRole("table", { name: "Recent sign-in activity" })).toContainText("Success");

  // At phone width the rows stack: the phone sees its own first, marked, and nothing scrolls sideways.
  await phone.goto("/account");
  const phoneSessions = phone.getByTestId("session-row");
  await expect(phoneSessions).toHaveCount(2);
  await expect(phoneSessions.first()).toContainText("Safari on iOS");
  await expect(phoneSessions.first()).toContainText("This device");
  await expect(phoneSessions.nth(1)).toContainText("Firefox on Windows");
  expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  await laptop.getByRole("button", { name: "End all other sessions" }).click();
  await expect(laptop.getByText("1 other session was ended.")).toBeVisible();
  await expect(laptop.getByTestId("session-row")).toHaveCount(1);
  await expect(laptop.getByRole("button", { name: "End all other sessions" })).toHaveCount(0);

  // The phone is signed out at its next page load.
  await phone.reload();
  await expect(phone).toHaveURL(/\/login\?redirectTo=%2Faccount$/);

  await laptopContext.close();
  await phoneContext.close();
  expect(errors.flat(), "uncaught errors in the pages").toEqual([]);
});
