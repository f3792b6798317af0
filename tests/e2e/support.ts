import { type BrowserContext, test as base, expect, type Page } from "@playwright/test";

/**
 * Every page a test opens must run without an uncaught error: a server-only value reaching the browser,
 * a hydration failure or a broken handler shows up here even when the assertions pass.
 */
export const test = base.extend({
  context: async ({ context }, use) => {
    const errors: string[] = [];
    context.on("page", (page) => page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`)));
    await use(context);
    expect(errors, "uncaught errors in the page").toEqual([]);
  },
});

export { expect };

/** For contexts a test opens itself: collects the uncaught errors of its pages. */
export function watchForErrors(context: BrowserContext): string[] {
  const errors: string[] = [];
  context.on("page", (page) => page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`)));
  return errors;
}

export const DEMO_ADMIN = { email: "admin@example.com", password: "demo-admin-2026" };
export const DEMO_CLIENT = { email: "client@example.com", password: "demo-client-2026" };

export const unique = () => crypto.randomUUID().slice(0, 8);

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

/** Registers a new client through the form; lands on /dashboard. */
export async function register(page: Page, email: string, password: string, firstName: string, lastName = "Tester") {
  await page.goto("/register");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("First Name").fill(firstName);
  await page.getByLabel("Last Name").fill(lastName);
  await page.getByLabel("Username").fill(`user${unique()}`);
  await page.getByLabel("Phone Number").fill("+1 555 0123");
  await page.getByLabel("Country").selectOption("Canada");
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm Password").fill(password);
  await page.getByLabel(/I accept the/).check();
  await page.getByRole("button", { name: "Create Account" }).click();
}

export async function registerClient(page: Page, firstName: string) {
  const email = `e2e-${unique()}@example.com`;
  await register(page, email, "client-pass-1", firstName);
  await expect(page).toHaveURL(/\/dashboard$/);
  return email;
}

/** Console errors from our own origin. Offline, third-party widgets fail to load; that is expected and quiet. */
export function ownConsoleErrors(page: Page, origin: string): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const source = message.location().url;
    if (source && !source.startsWith(origin)) return;
    errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}
