/** The sweep's visitor: the public site, sign-in and its second step, registration, the links of mails. */
import type { Page } from "@playwright/test";
import { executeStatements, sqlValue } from "../../scripts/lib/local-d1";
import type { SweepData, SweptState } from "./accessibility-states";
import { mailedLinkPath, openPhoneMenu, openThemeSwitch, sendWithErrors } from "./accessibility-states";
import { clientWithTwoFactor } from "./back-office-people";
import { e2eDatabase, whileBusy } from "./database";
import { FAKE_PROVIDER_PORT } from "./fake-oauth-provider";
import { DEMO_CLIENT, expect, unique } from "./support";

/**
 * The visitor needs a client with two-factor sign-in on, to reach the second step's pages, and with a recovery code
 * left (its hash only: the sweep never signs in with it), so the step offers a recovery code.
 */
export async function startVisitor(): Promise<SweepData> {
  const client = await clientWithTwoFactor();
  await whileBusy(() =>
    executeStatements(
      [`INSERT INTO recovery_codes (user_id, code_hash) VALUES (${sqlValue(client.id)}, 'sweep')`],
      e2eDatabase,
    ),
  );
  return { email: client.email, password: client.password };
}

/** The password step of the two-factor client: the browser then holds an open second step. */
async function passwordStep(page: Page, data: SweepData) {
  await page.getByLabel("Email").fill(data.email ?? "");
  await page.getByLabel("Password").fill(data.password ?? "");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/login\/two-factor$/);
}

const staticPages: SweptState[] = [
  { name: "the home page", route: "_index.tsx", path: "/" },
  { name: "the home page with the theme switch open", route: "_index.tsx", path: "/", reach: openThemeSwitch },
  { name: "the home page with the phone menu open", route: "_index.tsx", path: "/", reach: openPhoneMenu },
  { name: "About Us", route: "about-us.tsx", path: "/about-us" },
  { name: "Privacy Policy", route: "privacy.tsx", path: "/privacy" },
  { name: "Terms of Service", route: "terms-of-service.tsx", path: "/terms-of-service" },
  { name: "Contact Us", route: "contact-us.tsx", path: "/contact-us" },
  { name: "trading plans", route: "trading-plan.tsx", path: "/trading-plan" },
  { name: "the watchlist", route: "stocks._index.tsx", path: "/stocks" },
  { name: "a stock", route: "stocks.$symbol.tsx", path: "/stocks/AAPL" },
  { name: "Page not found", route: "$.tsx", path: "/no-such-page" },
  { name: "an unknown sign-in provider (Page not found)", route: "auth.$provider.tsx", path: "/auth/nowhere" },
  { name: "the local mailbox", route: "dev.mailbox.tsx", path: "/dev/mailbox" },
];

/**
 * A reset link mailed to the demo client, read from the local mailbox: the form a valid link opens. Looking at it
 * spends nothing; the link is only used when a new password is sent.
 */
async function mailedResetLink(page: Page, data: SweepData) {
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(DEMO_CLIENT.email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByText("Password reset email sent! Please check your inbox.")).toBeVisible();
  data.resetPath = await mailedLinkPath(page, {
    to: DEMO_CLIENT.email,
    subject: "Reset your",
    link: "Choose a new password",
  });
}

const mailLinks: SweptState[] = [
  {
    name: "reset password, from a valid link",
    route: "reset-password.tsx",
    path: (data) => data.resetPath ?? "/reset-password",
    prepare: mailedResetLink,
  },
  { name: "reset password, a link no longer valid", route: "reset-password.tsx", path: "/reset-password?token=x" },
  { name: "e-mail confirmation, a link no longer valid", route: "confirm-email.tsx", path: "/confirm-email?token=x" },
  { name: "cancel a request, a link no longer valid", route: "cancel-request.tsx", path: "/cancel-request?token=x" },
  { name: "a team invitation no longer valid", route: "team.invite.tsx", path: "/team/invite?token=x" },
  {
    name: "cancel an access recovery, a link no longer valid",
    route: "login_.recovery_.cancel.tsx",
    path: "/login/recovery/cancel?token=x",
  },
];

const signInPages: SweptState[] = [
  { name: "sign-in", route: "login.tsx", path: "/login" },
  {
    name: "sign-in with its error shown",
    route: "login.tsx",
    path: "/login",
    reach: async (page) => {
      await page.getByLabel("Email").fill(`nobody-${unique()}@example.com`);
      await page.getByLabel("Password").fill("not-the-password");
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await expect(page.getByRole("alert").filter({ hasText: /\w/ }).first()).toBeVisible();
    },
  },
  {
    name: "sign-in after a provider's refusal (its message)",
    route: "auth.$provider_.callback.tsx",
    path: "/auth/google/callback?error=access_denied",
  },
  { name: "registration", route: "register.tsx", path: "/register" },
  {
    name: "registration with its errors shown",
    route: "register.tsx",
    path: "/register",
    reach: (page) => sendWithErrors(page, "Create Account"),
  },
  { name: "forgot password", route: "forgot-password.tsx", path: "/forgot-password" },
  {
    name: "forgot password with its error shown",
    route: "forgot-password.tsx",
    path: "/forgot-password",
    reach: async (page) => {
      const submit = page.locator("main form button[type=submit]").first();
      await submit.evaluate((element) => {
        const form = (element as HTMLButtonElement).form;
        if (form) form.noValidate = true;
      });
      await submit.click();
      await expect(page.getByRole("alert").filter({ hasText: /\w/ }).first()).toBeVisible();
    },
  },
  {
    name: "complete your profile, after a provider's sign-up",
    route: "register_.complete.tsx",
    path: "/register",
    reach: async (page) => {
      await page.getByRole("link", { name: "Continue with Google" }).click();
      await expect(page).toHaveURL(new RegExp(`^http://127.0.0.1:${FAKE_PROVIDER_PORT}/`));
      const id = unique();
      await page.getByLabel("Account id").fill(`g-${id}`);
      await page.getByLabel("Email").fill(`google-${id}@example.com`);
      await page.getByLabel("Name").fill("Ada Lovelace");
      await page.getByRole("button", { name: "Allow" }).click();
      await expect(page).toHaveURL(/\/register\/complete$/);
    },
  },
  { name: "the second step", route: "login_.two-factor.tsx", path: "/login", reach: passwordStep },
  {
    name: "the second step with a wrong code's error",
    route: "login_.two-factor.tsx",
    path: "/login",
    reach: async (page, data) => {
      await passwordStep(page, data);
      await page.getByLabel("Enter the 6-digit code from your authenticator app").fill("000000");
      await page.getByRole("button", { name: "Verify" }).click();
      await expect(page.getByRole("alert").filter({ hasText: /\w/ }).first()).toBeVisible();
    },
  },
  {
    name: "the second step asking for a recovery code, with a wrong code's error",
    route: "login_.two-factor.tsx",
    path: "/login",
    reach: async (page, data) => {
      await passwordStep(page, data);
      await page.getByRole("link", { name: "Use a recovery code instead" }).click();
      await expect(page).toHaveURL(/method=recovery$/);
      await page.getByPlaceholder("xxxxx-xxxxx").fill("abcde-fghij");
      await page.getByRole("button", { name: "Verify" }).click();
      await expect(page.getByRole("alert").filter({ hasText: /\w/ }).first()).toBeVisible();
    },
  },
  {
    name: "restoring access with an identity document",
    route: "login_.recovery.tsx",
    path: "/login",
    reach: async (page, data) => {
      await passwordStep(page, data);
      await page.getByRole("link", { name: "Restore access with your identity document" }).click();
      await expect(page).toHaveURL(/\/login\/recovery$/);
    },
  },
];

export const VISITOR_STATES: SweptState[] = [...staticPages, ...mailLinks, ...signInPages];
