/**
 * The sweep's clients: the demo client, whose lists are full (every type and status of request, statements), and a
 * new client, whose lists are empty, who is sent a toast, and whose last passkey's removal asks first.
 */
import type { Page } from "@playwright/test";
import type { SweepData, SweptState } from "./accessibility-states";
import { demoStatementMonth, mailedLinkPath, openPhoneMenu, sendWithErrors } from "./accessibility-states";
import { clientWithTwoFactor } from "./back-office-people";
import { outOfStepUpWindow } from "./database";
import { CLAIM_WALLET, DEMO_CLIENT, expect, registerClient, signIn } from "./support";
import { virtualAuthenticator } from "./virtual-authenticator";

export async function startDemoClient(page: Page): Promise<SweepData> {
  await signIn(page, DEMO_CLIENT.email, DEMO_CLIENT.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  return demoStatementMonth();
}

/** On the deposit form: the claim wallet chosen, so the address, its QR code and the submit button are on. */
async function chooseClaimWallet(page: Page) {
  await page.getByLabel("Payment Wallet").selectOption(CLAIM_WALLET);
}

export const DEMO_CLIENT_STATES: SweptState[] = [
  { name: "the dashboard", route: "dashboard.tsx", path: "/dashboard" },
  { name: "the dashboard with the phone menu open", route: "dashboard.tsx", path: "/dashboard", reach: openPhoneMenu },
  {
    name: "the dashboard's Cancel this request? dialog",
    route: "dashboard.tsx",
    path: "/dashboard",
    reach: async (page) => {
      await page
        .getByRole("button", { name: /^Cancel / })
        .first()
        .click();
      await expect(page.getByRole("dialog", { name: "Cancel this request?" })).toBeVisible();
    },
  },
  { name: "the portfolio", route: "portfolio.tsx", path: "/portfolio" },
  { name: "History", route: "transactions.tsx", path: "/transactions" },
  { name: "statements", route: "statements._index.tsx", path: "/statements" },
  { name: "a month's statement", route: "statements.$month.tsx", path: (data) => `/statements/${data.month}` },
  { name: "a year's summary", route: "statements.year.$year.tsx", path: (data) => `/statements/year/${data.year}` },
  { name: "deposit", route: "deposit.tsx", path: "/deposit" },
  {
    name: "deposit with its errors shown",
    route: "deposit.tsx",
    path: "/deposit",
    reach: async (page) => {
      await chooseClaimWallet(page);
      await page.getByLabel("Amount (USD)").fill("-1");
      await sendWithErrors(page, "Submit Deposit");
    },
  },
  {
    name: "deposit's QR code dialog",
    route: "deposit.tsx",
    path: "/deposit",
    reach: async (page) => {
      await chooseClaimWallet(page);
      await page.getByRole("button", { name: "Show QR Code" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
    },
  },
  { name: "withdraw", route: "withdraw.tsx", path: "/withdraw" },
  {
    name: "withdraw with its errors shown",
    route: "withdraw.tsx",
    path: "/withdraw",
    reach: (page) => sendWithErrors(page, "Submit Withdrawal"),
  },
  { name: "a stock deposit", route: "stocks.$symbol_.deposit.tsx", path: "/stocks/AAPL/deposit" },
  { name: "the trading room", route: "trading-room.tsx", path: "/trading-room" },
  { name: "account settings", route: "account.tsx", path: "/account" },
  { name: "identity verification", route: "account_.verification.tsx", path: "/account/verification" },
  { name: "the notification centre", route: "notifications.tsx", path: "/notifications" },
  { name: "linking a provider, none pending", route: "account_.link.tsx", path: "/account/link" },
];

/** A client just registered: nothing in their lists yet. On localhost, where passkeys work. */
export async function startNewClient(page: Page): Promise<SweepData> {
  await virtualAuthenticator(page.context(), page);
  return { email: await registerClient(page, "Nell") };
}

/** A passkey added on /account: the account's only second factor, so removing it asks first. */
async function addPasskey(page: Page) {
  await page.goto("/account");
  const card = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "Passkeys" }) });
  await card.getByLabel("Current Password").fill("client-pass-1");
  await card.getByRole("button", { name: "Add a passkey" }).click();
  await expect(card.getByTestId("passkey-row")).toHaveCount(1);
}

export const NEW_CLIENT_STATES: SweptState[] = [
  { name: "the dashboard, empty", route: "dashboard.tsx", path: "/dashboard" },
  { name: "the portfolio, empty", route: "portfolio.tsx", path: "/portfolio" },
  { name: "History, empty", route: "transactions.tsx", path: "/transactions" },
  { name: "statements, none yet", route: "statements._index.tsx", path: "/statements" },
  { name: "the notification centre, empty", route: "notifications.tsx", path: "/notifications" },
  { name: "two-factor set-up", route: "account_.two-factor.tsx", path: "/account/two-factor" },
  {
    name: "two-factor set-up with its key and a wrong code's error",
    route: "account_.two-factor.tsx",
    path: "/account/two-factor",
    reach: async (page) => {
      // The first load starts the set-up; the next ones find it started.
      const start = page.getByRole("button", { name: "Set up two-factor authentication" });
      if (await start.isVisible()) await start.click();
      await page.getByLabel("Enter the 6-digit code from your authenticator app").fill("000000");
      await sendWithErrors(page, "Turn on two-factor authentication");
    },
  },
  {
    name: "account settings with a toast ('Send the link again')",
    route: "account.tsx",
    path: "/account",
    reach: async (page) => {
      await page.getByRole("button", { name: "Send the link again" }).click();
      await expect(page.locator("[data-sonner-toast]").first()).toBeVisible();
    },
  },
  {
    name: "account settings with the last passkey's Remove dialog",
    route: "account.tsx",
    path: "/account",
    prepare: addPasskey,
    reach: async (page) => {
      await page
        .getByRole("button", { name: /^Remove passkey / })
        .first()
        .click();
      await expect(page.getByRole("dialog", { name: "Turn two-factor sign-in off?" })).toBeVisible();
    },
  },
];

/** A verified client with money and two-factor sign-in on, whose last code is past the step-up window. */
/**
 * A client with two-factor sign-in, who asks for a withdrawal to an address never paid before while a code is still
 * fresh: the mail about it carries the one-click cancel link, which the sweep opens (looking at it cancels nothing).
 * Then past the step-up window, so a withdrawal asks for a code.
 */
export async function startTwoFactorClient(page: Page): Promise<SweepData> {
  const client = await clientWithTwoFactor();
  await signIn(page, client.email, client.password, { totpSecret: client.totpSecret });
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/withdraw");
  await fillWithdrawal(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  const cancelPath = await mailedLinkPath(page, {
    to: client.email,
    subject: "A withdrawal to a new address",
    link: "Cancel this withdrawal",
  });
  await outOfStepUpWindow(page.context());
  return { cancelPath };
}

async function fillWithdrawal(page: Page) {
  await page.getByLabel("Amount (USD)").fill("10");
  await page.getByLabel("Cryptocurrency").selectOption("ETH");
  await page.getByLabel("Wallet Address").fill("0x3333333333333333333333333333333333333333");
  await page.getByRole("button", { name: "Submit Withdrawal" }).click();
}

export const TWO_FACTOR_CLIENT_STATES: SweptState[] = [
  {
    name: "cancel a request, from a valid link",
    route: "cancel-request.tsx",
    path: (data) => data.cancelPath ?? "/cancel-request",
    reach: async (page) => {
      await expect(page.getByRole("button", { name: /^Cancel / })).toBeVisible();
    },
  },
  {
    name: "withdraw asking for the step-up code",
    route: "withdraw.tsx",
    path: "/withdraw",
    reach: async (page) => {
      await fillWithdrawal(page);
      await expect(page.getByRole("alert").filter({ hasText: /\w/ }).first()).toBeVisible();
    },
  },
];
