/**
 * What the accessibility sweep (tests/e2e/accessibility-sweep.spec.ts) visits: every page of app/routes, as the
 * person who sees it, and the states that matter on them (a dialog open, a form's errors shown, an empty list, a
 * toast). A state is a page load and, after it, what a person does to get there. The route files that are no page
 * (downloads, form posts, data) are listed with what they are, and the sweep's own test holds the two lists to
 * app/routes. The findings the sweep lets pass are listed here too, each with its reason.
 */
import type { Page } from "@playwright/test";
import type { AccessibilityFinding } from "./support";
import { expect } from "./support";

/** The levels the site answers to: WCAG 2.2 AA, with the A and AA rules of 2.0 and 2.1 it includes. */
export const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] as const;
export const THEMES = ["dark", "light"] as const;
export type Theme = (typeof THEMES)[number];
export const DESKTOP = { width: 1366, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** What a group's sign-in leaves for its states: the addresses they need (a client's id, a case's). */
export type SweepData = Record<string, string>;

export interface SweptState {
  /** What a person sees, for the failure message. */
  name: string;
  /** The route file (app/routes) it renders. */
  route: string;
  path: string | ((data: SweepData) => string);
  /** After the load: what a person does to reach the state (opens the dialog, sends the form). */
  reach?: (page: Page, data: SweepData) => Promise<void>;
  /** Once, before the state's loads: what the account needs for it (a passkey, a session past its step-up). */
  prepare?: (page: Page, data: SweepData) => Promise<void>;
}

/** The people of one role: signed in once, then every state of theirs. */
export interface SweepGroup {
  role: string;
  /** Passkeys need localhost (browsers refuse them on an IP address). */
  onLocalhost?: boolean;
  /** Signs the role's person in (a visitor: none), and makes what the states need. */
  start: (page: Page) => Promise<SweepData>;
  states: SweptState[];
}

/** A finding the sweep lets pass: axe's rule, on elements whose selector matches `target`, and why. */
export interface AccessibilityException {
  rule: string;
  target: RegExp;
  reason: string;
}

/** The findings the sweep lets pass, each with its reason (docs/product.md, "Accessibility", lists them too). */
export const ACCESSIBILITY_EXCEPTIONS: AccessibilityException[] = [];

/**
 * Controls the target-size test lets be small, each with its reason: WCAG 2.5.8's own exceptions. `selector`
 * matches the control.
 */
export const SMALL_TARGET_EXCEPTIONS: Array<{ selector: string; reason: string }> = [
  {
    selector: ".chart-mark",
    reason:
      "a chart's points and bars: each figure is also in the chart's 'Show the figures as a table' (the criterion's equivalent exception)",
  },
];

export const isExcepted = (finding: AccessibilityFinding) =>
  ACCESSIBILITY_EXCEPTIONS.some(
    (exception) => exception.rule === finding.rule && exception.target.test(finding.target),
  );

/** The route files that render no page, with what they answer instead: the sweep has nothing to look at there. */
export const NOT_PAGES: Record<string, string> = {
  "account.confirmation.ts": "a form's POST ('Send the link again'), back to the page with a toast",
  "account.passkeys.tsx": "the passkeys' form posts, back to /account",
  "account.providers.tsx": "Unlink's POST, back to /account",
  "account.sessions.tsx": "End session's POST, back to /account",
  "account_.verification.documents.$kind.ts": "an uploaded document's file",
  "admin.access-recovery.files.$id.ts": "an access-recovery photo's file",
  "admin.alerts[.]csv.ts": "a CSV download",
  "admin.audit[.]csv.ts": "a CSV download",
  "admin.documents.$id.tsx": "an identity document's file",
  "admin.transactions[.]csv.ts": "a CSV download",
  "dashboard.activity.ts": "the dashboard's Show All data",
  "dashboard.two-factor-suggestion.ts": "Dismiss's POST, back to /dashboard",
  "dev.chain-watcher.ts": "the local chain watcher's trigger",
  "login_.recovery_.files.$kind.ts": "an access-recovery photo's file",
  "logout.tsx": "Sign Out's POST, then the home page",
  "passkeys.sign-in.ts": "a passkey sign-in's data",
  "passkeys.verify.ts": "a passkey step-up's data",
  "quotes.ts": "live prices' data",
  "requests.$id.cancel.ts": "Cancel request's POST, back to the page with a toast",
  "robots[.]txt.ts": "text for crawlers",
  "session.keepalive.ts": "the activity heartbeat",
  "sitemap[.]xml.ts": "XML for crawlers",
  "statements.$month[.]csv.ts": "a CSV download",
  "statements.$month[.]pdf.ts": "a PDF download",
  "statements.year.$year[.]pdf.ts": "a PDF download",
  "theme.ts": "the theme switch's POST",
  "transactions[.]csv.ts": "a CSV download",
  "user.$id.export.ts": "a CSV download",
  "user._index.tsx": "a redirect to /dashboard",
};

/**
 * Sends a form as a person who left its fields wrong would, past the browser's own checks (`required`, `min`), so
 * the page shows the server's errors: its banner and each field's message.
 */
export async function sendWithErrors(page: Page, button: string) {
  const submit = page.getByRole("button", { name: button, exact: true });
  await submit.evaluate((element) => {
    const form = (element as HTMLButtonElement).form;
    if (form) form.noValidate = true;
  });
  await submit.click();
  await expect(page.locator('[role="alert"]:not(:empty), [aria-invalid="true"]').first()).toBeVisible();
}

/** The phone's menu, open (the links, Sign Out and the theme switch behind the toggle). */
export async function openPhoneMenu(page: Page) {
  const toggle = page.getByRole("button", { name: "Open menu" });
  if (!(await toggle.isVisible())) return;
  await toggle.click();
  await expect(page.getByRole("button", { name: "Close menu" })).toBeVisible();
}

/** The desktop header's theme switch, open; on a phone it is in the menu. */
export async function openThemeSwitch(page: Page) {
  const summary = page.locator("summary").filter({ hasText: /^Theme: / });
  if (await summary.isVisible()) await summary.click();
  else await openPhoneMenu(page);
  await expect(page.getByRole("group", { name: "Theme" }).first()).toBeVisible();
}

/** A month and a year of the demo client's activity: the seed's withdrawal of 20 days ago. */
export function demoStatementMonth(now = Date.now()) {
  const at = new Date(now - 20 * 24 * 60 * 60 * 1000);
  return { month: at.toISOString().slice(0, 7), year: String(at.getUTCFullYear()) };
}

/**
 * The path and query of a link in the newest mail to `to` whose text holds `subject`, read from the local mailbox
 * (looking at a mail spends none of its links).
 */
export async function mailedLinkPath(page: Page, mail: { to: string; subject: string; link: string }) {
  await page.goto("/dev/mailbox");
  const item = page
    .getByRole("listitem")
    .filter({ hasText: `To ${mail.to}` })
    .filter({ hasText: mail.subject })
    .first();
  const link = new URL((await item.getByRole("link", { name: mail.link }).getAttribute("href")) ?? "", "http://x");
  return `${link.pathname}${link.search}`;
}
