import { DEMO_ADMIN, expect, register, signIn, test, unique } from "./support";

test("a new client registers, lands on the dashboard, signs out and signs in again", async ({ page }) => {
  const email = `e2e-${unique()}@example.com`;
  await register(page, email, "first-pass-1", "Alexis");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(page.getByText("Welcome, Alexis")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Deposit" })).toBeVisible();

  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign In" })).toBeVisible();

  await signIn(page, email, "first-pass-1");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Welcome back, Alexis")).toBeVisible();
});

test("registration shows the product's message for mismatched passwords without leaving the page", async ({ page }) => {
  await page.goto("/register");
  await page.getByLabel("Email").fill(`e2e-${unique()}@example.com`);
  await page.getByLabel("Password", { exact: true }).fill("abcdef");
  await page.getByLabel("Confirm Password").fill("abcdeg");
  await page.getByLabel(/I accept the/).check();
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByRole("alert")).toHaveText("Passwords do not match");
  await expect(page).toHaveURL(/\/register$/);
});

test("a forgotten password is reset through the mailed link", async ({ page }) => {
  const email = `e2e-${unique()}@example.com`;
  await register(page, email, "old-pass-1", "Reese");
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByText("Password reset email sent! Please check your inbox.")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 6_000 });

  await page.goto("/dev/mailbox");
  const mail = page
    .getByRole("listitem")
    .filter({ hasText: `To ${email}` })
    .filter({ hasText: "Reset your" });
  await mail.getByRole("link", { name: "Choose a new password" }).click();
  await expect(page).toHaveURL(/\/reset-password\?token=/);
  await page.getByLabel("New Password").fill("new-pass-2");
  await page.getByLabel("Confirm Password").fill("new-pass-2");
  await page.getByRole("button", { name: "Update Password" }).click();
  await expect(page.getByText("Password updated successfully! Redirecting to login...")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 6_000 });

  await signIn(page, email, "old-pass-1");
  await expect(page.getByRole("alert")).toHaveText("Invalid login credentials");
  await signIn(page, email, "new-pass-2");
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("account settings: a profile update shows the success banner and persists", async ({ page }) => {
  const email = `e2e-${unique()}@example.com`;
  await register(page, email, "settings-pass", "Taylor");
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/account");
  await expect(page.getByRole("heading", { name: "Account Settings" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  await page.getByLabel("Last Name").fill("Updated");
  await page.getByLabel("Phone Number").fill("+1 555 0456");
  await page.getByRole("button", { name: "Update Profile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Profile updated successfully" })).toBeVisible();
  // Success messages clear after 3 seconds.
  await expect(page.getByRole("status").filter({ hasText: "Profile updated successfully" })).toBeHidden({
    timeout: 5_000,
  });

  await page.reload();
  await expect(page.getByLabel("Last Name")).toHaveValue("Updated");
  await expect(page.getByLabel("Phone Number")).toHaveValue("+1 555 0456");
});

test("the demo admin signs in to the back office links", async ({ page }) => {
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/admin$/);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Admin Panel" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Deposit" })).toHaveCount(0);
});

test("an account others keep failing on asks for the security check, and its owner still gets in", async ({
  page,
}, testInfo) => {
  const email = `e2e-${unique()}@example.com`;
  await register(page, email, "owner-pass-1", "Owen");
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/$/);

  // Ten wrong passwords, as a script would send them.
  for (let i = 0; i < 10; i++) {
    const response = await page.request.post("/login", { form: { email, password: `wrong-${i}`, redirectTo: "" } });
    expect(response.status()).toBe(401);
  }

  await page.setViewportSize({ width: 375, height: 812 });
  await signIn(page, email, "still-wrong");
  await expect(page.getByRole("alert")).toHaveText("Invalid login credentials");
  // The widget's space is kept from the first paint (the test keys load no script on this offline machine).
  const widget = page.locator('.cf-turnstile[data-action="login"]');
  await expect(widget).toBeAttached();
  const box = await widget.boundingBox();
  expect(box?.height).toBeGreaterThanOrEqual(65);
  const button = page.getByRole("button", { name: "Sign In", exact: true });
  const before = await button.boundingBox();
  await page.waitForTimeout(500);
  expect(await button.boundingBox()).toEqual(before);
  await page.screenshot({ path: testInfo.outputPath("login-security-check-phone.png"), fullPage: true });

  // With the always-pass test secret the check passes without a token: the owner is not locked out.
  await page.getByLabel("Password").fill("owner-pass-1");
  await button.click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Welcome back, Owen")).toBeVisible();
});
