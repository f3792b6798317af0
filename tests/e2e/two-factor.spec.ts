import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { CODE_PROMPT, expect, registerClient, seriousAccessibilityProblems, signIn, test, unique } from "./support";
import { withUnusedCode } from "./totp";

async function signOut(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/$/);
}

/**
 * On /account/two-factor: starts the set-up, reads the key from the page as a person would type it, confirms with
 * a code computed from it, and returns the key and the recovery codes shown.
 */
async function turnOnTwoFactor(page: Page, password: string) {
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  return confirmWithKeyFromPage(page, password);
}

/**
 * On the set-up's second step: reads the key, confirms with the password and a code of it, returns the key and
 * the recovery codes.
 */
async function confirmWithKeyFromPage(page: Page, password: string) {
  await expect(page.getByRole("img", { name: "QR code that adds this account to an authenticator app" })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").innerText()).trim();
  expect(secret).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
  await page.getByLabel("Current Password").fill(password);
  await withUnusedCode(secret, async (code) => {
    await page.getByLabel(CODE_PROMPT).fill(code);
    await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
    await expect(page.getByRole("list", { name: "Recovery codes" })).toBeVisible();
  });
  // The codes come with the action's answer, before the page's data is read again: until then the set-up form is
  // still there under them. The page is done once the set-up has given way to the settings of two-factor that is on.
  await expect(page.getByRole("heading", { name: "Two-factor authentication is on", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Turn on two-factor authentication" })).toHaveCount(0);
  const recoveryCodes = await page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").allInnerTexts();
  expect(recoveryCodes).toHaveLength(10);
  return { secret, recoveryCodes: recoveryCodes.map((code) => code.trim()) };
}

test("a client turns on two-factor on /account, then signs in with a code and with a recovery code", async ({
  page,
}, testInfo) => {
  const email = await registerClient(page, "Tess");
  await expect(page.getByText("Protect your account with two-factor authentication")).toBeVisible();

  await page.goto("/account");
  const card = page.getByRole("article", { name: "Two-factor authentication" });
  await expect(card.getByText("Off", { exact: true })).toBeVisible();
  await card.getByRole("link", { name: "Set up two-factor authentication" }).click();
  await expect(page).toHaveURL(/\/account\/two-factor$/);
  const { secret, recoveryCodes } = await turnOnTwoFactor(page, "client-pass-1");
  await expect(page.getByText("Two-factor authentication is on. Save your recovery codes now").first()).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/-recovery-codes\.txt$/);
  const saved = readFileSync((await download.path()) ?? "", "utf8");
  for (const code of recoveryCodes) expect(saved).toContain(code);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("recovery-codes-phone.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  await page.getByRole("link", { name: "I have saved them: back to Account Settings" }).click();
  await expect(
    page.getByRole("article", { name: "Two-factor authentication" }).getByText("On", { exact: true }),
  ).toBeVisible();
  await signOut(page);

  // With a code from the authenticator.
  await signIn(page, email, "client-pass-1", { totpSecret: secret });
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Protect your account with two-factor authentication")).toHaveCount(0);
  await signOut(page);

  // With a recovery code instead, once: the same code is refused the next time.
  await signIn(page, email, "client-pass-1");
  await expect(page).toHaveURL(/\/login\/two-factor$/);
  await page.getByRole("link", { name: "Use a recovery code instead" }).click();
  await page.getByLabel("Enter one of your recovery codes").fill("aaaaa-bbbbb");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert")).toHaveText("Invalid code");
  await page.getByLabel("Enter one of your recovery codes").fill(recoveryCodes[0] ?? "");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await signOut(page);

  await signIn(page, email, "client-pass-1");
  await page.getByRole("link", { name: "Use a recovery code instead" }).click();
  await page.getByLabel("Enter one of your recovery codes").fill(recoveryCodes[0] ?? "");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert")).toHaveText("Invalid code");
  // And back to the authenticator's code.
  await page.getByRole("link", { name: "Use your authenticator app instead" }).click();
  await expect(page.getByLabel(CODE_PROMPT)).toBeVisible();
});

test("a new admin is taken through enrolment before anything else opens", async ({ page }) => {
  const email = `new-admin-${unique()}@example.com`;
  const password = "new-admin-password-1";
  // As an operator would: npm run admin:create, against this run's throwaway database. The running server may
  // hold the database's lock at that moment (SQLITE_BUSY, nothing written): then it is run again.
  const adminCreate = () =>
    spawnSync(
      join(process.cwd(), "node_modules", ".bin", "node"),
      [
        "scripts/admin-create.ts",
        "--email",
        email,
        "--password",
        password,
        "--first-name",
        "Morgan",
        "--persist-to",
        join(process.cwd(), ".wrangler", `${process.env.E2E_STATE ?? "e2e"}-state`),
      ],
      { encoding: "utf8" },
    );
  let created = adminCreate();
  for (let attempt = 1; attempt < 5 && created.status !== 0 && /SQLITE_BUSY/.test(created.stderr); attempt++) {
    created = adminCreate();
  }
  expect(created.status, created.stderr).toBe(0);
  expect(created.stdout).toContain("Admins must use two-factor authentication");

  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/account\/two-factor$/);
  await expect(
    page.getByText("Administrators must use two-factor authentication. Set it up to continue."),
  ).toBeVisible();
  for (const path of ["/admin", "/admin/audit", "/admin/mail", "/account", "/trading-room"]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/account\/two-factor$/);
  }

  await turnOnTwoFactor(page, password);
  await page.getByRole("link", { name: "I have saved them: continue to the Admin Panel" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { name: "Admin Panel" })).toBeVisible();
});

test.describe("accessibility", () => {
  // axe is injected as an inline script, which our CSP rightly refuses; the check runs with CSP bypassed.
  test.use({ bypassCSP: true });

  test("the set-up page and the second step have no serious accessibility problems", async ({ page }, testInfo) => {
    const email = await registerClient(page, "Axel");
    // The dashboard's suggestion goes for good with Dismiss.
    const suggestion = page.getByRole("complementary", { name: "Two-factor authentication" });
    await expect(suggestion).toBeVisible();
    // Hidden at once; the reload waits until the server has the dismissal.
    const dismissed = page.waitForResponse(
      (response) =>
        response.url().includes("/dashboard/two-factor-suggestion") && response.request().method() === "POST",
    );
    await suggestion.getByRole("button", { name: "Dismiss" }).click();
    await expect(suggestion).toHaveCount(0);
    await dismissed;
    await page.reload();
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    await expect(suggestion).toHaveCount(0);

    await page.goto("/account/two-factor");
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
    await expect(page.getByTestId("totp-secret")).toBeVisible();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: testInfo.outputPath("two-factor-setup-phone.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 720 });
    const { secret } = await confirmWithKeyFromPage(page, "client-pass-1");
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await signOut(page);

    await signIn(page, email, "client-pass-1");
    await expect(page).toHaveURL(/\/login\/two-factor$/);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    // Keyboard only: the code field is the first field, and Enter sends it.
    await page.getByLabel(CODE_PROMPT).focus();
    await expect(page.getByLabel(CODE_PROMPT)).toHaveAttribute("inputmode", "numeric");
    await expect(page.getByLabel(CODE_PROMPT)).toHaveAttribute("autocomplete", "one-time-code");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: testInfo.outputPath("two-factor-sign-in-phone.png"), fullPage: true });
    await withUnusedCode(secret, async (code) => {
      await page.keyboard.type(code);
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(/\/dashboard$/);
    });
  });
});
