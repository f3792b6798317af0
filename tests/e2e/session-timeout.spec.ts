import type { Locator, Page } from "@playwright/test";
import { WCAG_AA } from "./accessibility-states";
import { accessibilityFindings, DEMO_ADMIN, DEMO_CLIENT, describeFinding, expect, signIn, test } from "./support";

/**
 * The warning before the inactivity sign-out (WCAG 2.2.1, Timing adjustable): 28 idle minutes open it, 'Stay signed
 * in' keeps the session, 30 sign out. The browser's clock is moved instead of waited on; the server's is not, so
 * its session, 30 minutes idle too, stays alive meanwhile. axe is injected as an inline script, which our CSP rightly
 * refuses: these pages run with CSP bypassed.
 */
test.use({ bypassCSP: true });

const TITLE = "Your session will end in 2 minutes";
const warning = (page: Page) => page.getByRole("alertdialog", { name: TITLE });

/** A page that needs a session sends the visitor to sign-in (the dashboard would send them home). */
async function expectSignedOut(page: Page) {
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount$/);
}

/**
 * Until the page has hydrated, no idle time is counted: the tracker starts its count when it mounts, and writes the
 * moment to the browser's storage then. A clock moved before that (a loaded machine hydrates late) moves nothing.
 * The storage is shared with the page before a navigation and with other tabs, whose trackers write their own,
 * earlier moments: only a moment later than `since` (the page's clock read before the navigation) is this page's.
 */
async function trackerStarted(page: Page, since: number) {
  await expect
    .poll(() => page.evaluate(() => Number(window.localStorage.getItem("session-last-activity"))), { timeout: 15_000 })
    .toBeGreaterThan(since);
}

/** The page's clock (moved by the test, not the machine's). */
const pageNow = (page: Page) => page.evaluate(() => Date.now());

/**
 * Focuses a field once it is in view. Scrolling counts as activity, and the browser sends its event with a later frame:
 * a field focused below the fold could scroll the page after the clock has moved, as if someone were there then.
 */
async function focusInView(field: Locator) {
  await field.evaluate(
    (element) =>
      new Promise<void>((resolve) => {
        const { top, bottom } = element.getBoundingClientRect();
        if (top >= 0 && bottom <= window.innerHeight) return resolve();
        window.addEventListener("scrollend", () => resolve(), { once: true });
        // A page already scrolled as far as it goes sends no scrollend.
        setTimeout(resolve, 1_000);
        element.scrollIntoView({ block: "center" });
      }),
  );
  await field.focus();
}

async function signInWithClock(page: Page, path = "/dashboard") {
  await page.clock.install();
  await signIn(page, DEMO_CLIENT.email, DEMO_CLIENT.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  // Signed-out pages have no tracker: the first moment written is the dashboard's.
  await trackerStarted(page, 0);
  if (path === "/dashboard") return;
  const since = await pageNow(page);
  await page.goto(path);
  await trackerStarted(page, since);
}

test("at 28 idle minutes the warning opens, read out and focused; Stay signed in keeps the session", async ({
  page,
}) => {
  await signInWithClock(page, "/deposit");
  const amount = page.getByLabel("Amount (USD)");
  await focusInView(amount);

  await page.clock.fastForward("27:50");
  await expect(warning(page)).toHaveCount(0);
  await page.clock.fastForward("00:11");
  const dialog = warning(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading", { name: TITLE })).toBeVisible();
  await expect(dialog).toHaveAccessibleDescription(/signed out after 30 minutes without activity.*Time left: 1:5\d/);
  await expect(dialog.getByRole("button", { name: "Stay signed in" })).toBeFocused();
  await expect(dialog.getByRole("button", { name: "Sign out" })).toBeVisible();

  // The countdown runs; a mouse passing over the page does not answer the warning.
  await page.mouse.move(10, 10);
  await page.clock.fastForward("00:30");
  await expect(dialog.getByRole("timer")).toHaveText(/^1:[12]\d$/);

  const keepalive = page.waitForResponse((response) => response.url().endsWith("/session/keepalive"));
  await dialog.getByRole("button", { name: "Stay signed in" }).click();
  expect((await keepalive).status()).toBe(204);
  await expect(dialog).toBeHidden();
  await expect(amount, "focus is back where it was").toBeFocused();

  // The count starts again: 27 more minutes open nothing, and the session is still the server's.
  await page.clock.fastForward("27:00");
  await expect(warning(page)).toBeHidden();
  await page.goto("/account");
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("button", { name: "Sign Out" }).first()).toBeAttached();
});

test("left idle to the end, the browser signs out and goes home", async ({ page }) => {
  await signInWithClock(page);
  await page.clock.fastForward("28:00");
  await expect(warning(page)).toBeVisible();
  await page.clock.fastForward("02:00");
  await expect(page).toHaveURL(/\/$/);
  await expect(warning(page)).toHaveCount(0);
  await expectSignedOut(page);
});

test("Sign out in the warning signs out at once", async ({ page }) => {
  await signInWithClock(page);
  await page.clock.fastForward("28:00");
  await warning(page).getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectSignedOut(page);
});

test("typing in a form field postpones the warning", async ({ page }) => {
  await signInWithClock(page, "/deposit");
  const amount = page.getByLabel("Amount (USD)");
  await focusInView(amount);
  await page.clock.fastForward("20:00");
  // fill sends input events and no keys: text pasted or filled in by the browser counts as well.
  await amount.fill("125");
  await page.clock.fastForward("09:00");
  await expect(warning(page)).toHaveCount(0);
  await page.clock.fastForward("19:00");
  await expect(warning(page)).toBeVisible();
  await expect(amount).toHaveValue("125");
});

test("a session already ended on the server goes to sign-in from the warning", async ({ page, context }) => {
  await signInWithClock(page);
  await page.clock.fastForward("28:00");
  await expect(warning(page)).toBeVisible();
  await context.clearCookies();
  await warning(page).getByRole("button", { name: "Stay signed in" }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
  await expect(warning(page)).toHaveCount(0);
});

test("activity in another tab keeps an idle tab from warning or signing out", async ({ page, context }) => {
  await signInWithClock(page);
  const other = await context.newPage();
  // The two tabs share the storage and the clock: a moment later than the first tab's shows the second has started.
  const since = await pageNow(page);
  await other.goto("/deposit");
  await trackerStarted(other, since);
  await page.clock.fastForward("20:00");
  await other.getByLabel("Amount (USD)").fill("40");
  // A tab coming to the front is activity when it was hidden, which Chromium does not always make a background
  // tab: the first tab comes back now, at the moment of the typing, so that both ways the last activity is here.
  await page.bringToFront();
  await page.clock.fastForward("09:00");
  await expect(warning(page)).toHaveCount(0);
  await expect(page).toHaveURL(/\/dashboard$/);

  // Both idle: both warn; Stay signed in in one closes the other's warning. A tab in the background may hold its
  // timers and rendering back: each is looked at in front, as a person would (an open warning is answered only by
  // its buttons, so coming to the front does not close it).
  await page.clock.fastForward("19:00");
  await expect(warning(page)).toBeVisible();
  await other.bringToFront();
  await expect(warning(other)).toBeVisible();
  await warning(other).getByRole("button", { name: "Stay signed in" }).click();
  await page.bringToFront();
  await page.clock.fastForward("00:02");
  await expect(warning(page)).toBeHidden();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("the back office warns too, and Stay signed in keeps the admin signed in", async ({ page }) => {
  await page.clock.install();
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/admin$/);
  await trackerStarted(page, 0);
  await page.clock.fastForward("28:00");
  await expect(warning(page)).toBeVisible();
  await expect(warning(page).getByRole("button", { name: "Stay signed in" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(warning(page)).toBeHidden();
  await page.goto("/admin/audit");
  await expect(page).toHaveURL(/\/admin\/audit$/);
});

test("at phone width the warning fits the screen", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInWithClock(page);
  await page.clock.fastForward("28:00");
  const dialog = warning(page);
  await expect(dialog).toBeVisible();
  const box = await dialog.boundingBox();
  expect(box).not.toBeNull();
  if (box) {
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
  }
  for (const name of ["Stay signed in", "Sign out"])
    await expect(dialog.getByRole("button", { name })).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  // WCAG 2.2 AA at every impact, in both themes (the page follows the system's).
  for (const colorScheme of ["dark", "light"] as const) {
    await page.emulateMedia({ colorScheme });
    expect((await accessibilityFindings(page, { tags: WCAG_AA })).map(describeFinding)).toEqual([]);
  }
  await page.screenshot({ path: "test-results/session-ending-dialog-phone.png" });
});
