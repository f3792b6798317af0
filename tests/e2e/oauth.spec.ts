import type { Page } from "@playwright/test";
import { FAKE_PROVIDER_PORT, type FakePerson } from "./fake-oauth-provider";
import { createAccount, expect, register, signIn, test, unique } from "./support";

/**
 * The OAuth round trip in a real browser, against a fake Google and GitHub on loopback (started for the run by
 * tests/e2e/global-setup.ts; the server runs with OAUTH_TEST_ENDPOINTS pointing at it: scripts/e2e-server.ts).
 */
const fakeOrigin = `http://127.0.0.1:${FAKE_PROVIDER_PORT}`;

/** At the provider's sign-in page: signs in as this person and allows the app. */
async function allowAs(page: Page, person: FakePerson) {
  await expect(page).toHaveURL(new RegExp(`^${fakeOrigin}/`));
  await page.getByLabel("Account id").fill(person.id);
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Name").fill(person.name);
  await page.getByRole("button", { name: "Allow" }).click();
}

test("a new person signs up with Google, completes the profile, and signs in with Google again", async ({ page }) => {
  const email = `google-${unique()}@example.com`;
  const person = { id: `g-${unique()}`, email, name: "Ada Lovelace" };

  await page.goto("/register");
  await page.getByRole("link", { name: "Continue with Google" }).click();
  await expect(page).toHaveURL(new RegExp(`^${fakeOrigin}/accounts\\.google\\.com/`));
  await allowAs(page, person);

  await expect(page).toHaveURL(/\/register\/complete$/);
  await expect(page.getByRole("heading", { name: "Complete your profile" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByLabel("First Name")).toHaveValue("Ada");
  await expect(page.getByLabel("Last Name")).toHaveValue("Lovelace");
  await page.getByLabel(/I accept the/).check();
  await page.getByLabel("Username").fill(`ada${unique()}`);
  await page.getByLabel("Phone Number").fill("+44 20 7946 0000");
  await page.getByLabel("Country").selectOption("United Kingdom");
  await createAccount(page);

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Welcome, Ada")).toBeVisible();

  await page.goto("/account");
  const card = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "Sign-in providers" }) });
  await expect(card.getByText(`Linked as ${email}`)).toBeVisible();
  // No password: Google is the only way in, so it cannot be unlinked.
  await expect(card.getByRole("button", { name: "Unlink Google" })).toHaveCount(0);

  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/login");
  await page.getByRole("link", { name: "Continue with Google" }).click();
  await allowAs(page, person);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Welcome back, Ada")).toBeVisible();
});

test("a cancelled sign-in at the provider comes back to /login with a message", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("link", { name: "Continue with Google" }).click();
  await page.getByRole("link", { name: "Deny" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Google did not complete the sign-in.")).toBeVisible();
});

test("an existing client links GitHub only after signing in with the password, then unlinks it", async ({ page }) => {
  const email = `github-${unique()}@example.com`;
  await register(page, email, "link-pass-1", "Grace", "Hopper");
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto("/login");
  await page.getByRole("link", { name: "Continue with GitHub" }).click();
  await allowAs(page, { id: String(Date.now()), email, name: "Grace Hopper" });

  // Never linked silently: the owner must sign in first.
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount%2Flink$/);
  await expect(
    page.getByRole("status").filter({ hasText: "An account with this e-mail address already exists" }),
  ).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("link-pass-1");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();

  await expect(page).toHaveURL(/\/account\/link$/);
  await expect(page.getByRole("heading", { name: "Link a sign-in provider" })).toBeVisible();
  await page.getByRole("button", { name: "Link GitHub" }).click();

  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText("GitHub is now linked to your account.")).toBeVisible();
  const card = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "Sign-in providers" }) });
  await expect(card.getByText(`Linked as ${email}`)).toBeVisible();

  // The password remains, so GitHub can go.
  await card.getByRole("button", { name: "Unlink GitHub" }).click();
  await expect(page.getByText("GitHub was unlinked from your account.")).toBeVisible();
  await expect(card.getByRole("link", { name: "Link your GitHub account" })).toBeVisible();

  // And the password still signs in.
  await page.getByRole("button", { name: "Sign Out" }).click();
  // Signed out first: a sign-in started while the sign-out still navigates can land back on the landing page.
  await expect(page).toHaveURL(/\/$/);
  await signIn(page, email, "link-pass-1");
  await expect(page).toHaveURL(/\/dashboard$/);
});
