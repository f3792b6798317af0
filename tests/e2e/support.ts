import { join } from "node:path";
import {
  type BrowserContext,
  test as base,
  type ConsoleMessage,
  expect,
  type Locator,
  type Page,
} from "@playwright/test";
import { executeStatements } from "../../scripts/lib/local-d1";
import { e2eDatabase, whileBusy } from "./database";
import { oneSignInAtATime, withUnusedCode } from "./totp";

/**
 * What a page logs that a person would count as broken: an error of our own code (a failed hydration, a handler
 * that threw) or a React warning. Not: an answer with an HTTP status the server meant (a step-up's 401, a 404
 * page), which browsers also log; a connection dropped while a page is left or a feed reconnects (pages and feeds
 * reconnect, and the test's own assertions say whether they did); nor
 * anything from another site's widget (offline here).
 */
function isOwnProblem(message: ConsoleMessage, origin: string): boolean {
  const text = message.text();
  if (message.type() === "warning") return /^Warning: /.test(text);
  if (message.type() !== "error") return false;
  if (/^Failed to load resource: the server responded with a status of \d+/.test(text)) return false;
  if (/net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|CONNECTION_CLOSED|EMPTY_RESPONSE)/.test(text)) return false;
  if (/^WebSocket connection to '[^']+' failed/.test(text)) return false;
  const source = message.location().url;
  return !source || source.startsWith(origin);
}

/** Collects the uncaught errors, our own console errors and React's warnings of every page of a context. */
function collectProblems(context: BrowserContext, problems: string[]) {
  context.on("page", (page) => {
    page.on("pageerror", (error) => problems.push(`${page.url()}: ${error.message}`));
    page.on("console", (message) => {
      const origin = new URL(page.url() || "http://127.0.0.1").origin;
      if (isOwnProblem(message, origin)) problems.push(`${page.url()}: console ${message.type()}: ${message.text()}`);
    });
  });
}

/**
 * Every page a test opens must run without an uncaught error, an error of ours in the console or a React warning:
 * a server-only value reaching the browser, a hydration mismatch or a broken handler shows up here even when the
 * assertions pass.
 */
export const test = base.extend({
  context: async ({ context }, use) => {
    const problems: string[] = [];
    collectProblems(context, problems);
    await use(context);
    expect(problems, "errors or warnings in the page").toEqual([]);
  },
});

export { expect };

/** For contexts a test opens itself: collects the same problems of its pages. */
export function watchForErrors(context: BrowserContext): string[] {
  const problems: string[] = [];
  collectProblems(context, problems);
  return problems;
}

/** The demo admin of the seed (scripts/seed.ts), enrolled in two-factor sign-in with a fixed demo secret. */
export const DEMO_ADMIN = {
  email: "admin@example.com",
  password: "demo-admin-2026",
  totpSecret: "DEMOADMINTOTPSECRETNORTHWINDMKTS",
};
/** The seed's second demo admin, with a secret of its own: the one who approves what the first proposes. */
export const DEMO_SECOND_ADMIN = {
  email: "admin2@example.com",
  password: "demo-admin2-2026",
  totpSecret: "DEMOSECONDADMINTOTPKEYNORTHWIND2",
};
const DEMO_ADMINS = [DEMO_ADMIN, DEMO_SECOND_ADMIN];
export const DEMO_CLIENT = { email: "client@example.com", password: "demo-client-2026" };

export const unique = () => crypto.randomUUID().slice(0, 8);

/**
 * Signs in through the form. An account with two-factor sign-in on (the demo admins always; another one when its
 * `totpSecret` is given) then passes the second step with a code of its secret, one sign-in of an account at a time.
 */
export async function signIn(
  page: Page,
  email: string,
  password: string,
  { totpSecret = DEMO_ADMINS.find((admin) => admin.email === email)?.totpSecret }: { totpSecret?: string } = {},
) {
  const passwordStep = async () => {
    await page.goto("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
  };
  if (!totpSecret) return passwordStep();
  await oneSignInAtATime(totpSecret, async () => {
    await passwordStep();
    await expect(page).toHaveURL(/\/login\/two-factor$/);
    await enterTotpCode(page, totpSecret);
  });
}

export const CODE_PROMPT = "Enter the 6-digit code from your authenticator app";

/** On the second step: a code of the secret, sent, and accepted (the page moves on) before any other is used. */
export async function enterTotpCode(page: Page, totpSecret: string) {
  await withUnusedCode(totpSecret, async (code) => {
    await page.getByLabel(CODE_PROMPT).fill(code);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).not.toHaveURL(/\/login\/two-factor/);
  });
}

/**
 * After an admin's act that may ask for the step-up code (a decision's button): answers the dialog with a code of
 * `totpSecret` if it opens before the act is done, which is when `until` (say, the decided row) has gone.
 */
export async function passStepUpIfAsked(page: Page, totpSecret: string, until: Locator) {
  const code = page.getByRole("dialog").getByLabel(CODE_PROMPT);
  await expect
    .poll(async () => (await code.isVisible()) || (await until.count()) === 0, { timeout: 15_000 })
    .toBe(true);
  if (!(await code.isVisible())) return;
  await withUnusedCode(totpSecret, async (value) => {
    await code.fill(value);
    await code.press("Enter");
    await expect(code).toBeHidden();
  });
  await expect(until).toHaveCount(0);
}

/**
 * On /admin as a second admin: rejects every change of this deposit wallet still waiting, as an attempt of a test
 * stopped halfway (a dropped server, a retry) leaves them, and one waiting change of a wallet blocks the next.
 */
export async function rejectWaitingWalletChanges(page: Page, walletType: string) {
  const waiting = page
    .getByTestId("proposal")
    .filter({ hasText: `Wallet ${walletType}:` })
    .filter({ has: page.getByRole("button", { name: /Reject/ }) });
  while ((await waiting.count()) > 0) {
    await waiting
      .first()
      .getByRole("button", { name: /Reject/ })
      .click();
    const dialog = page.getByRole("dialog").filter({ has: page.getByRole("textbox", { name: "Reason" }) });
    await dialog.getByRole("textbox", { name: "Reason" }).fill("Left waiting by an interrupted test");
    await dialog.getByRole("button", { name: "Reject", exact: true }).click();
    await expect(dialog).toBeHidden();
  }
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
  await createAccount(page);
}

/**
 * Sends a filled registration form (/register, or a provider's Complete your profile). Every test registers from
 * this machine's one address, and the suite registers more people than the per-address budget lets through in an
 * hour (people come from addresses of their own): once it is spent, the test server's record of it is cleared and
 * the form sent again.
 */
export async function createAccount(page: Page) {
  await page.getByRole("button", { name: "Create Account" }).click();
  const refused = page.getByRole("alert").filter({ hasText: "Too many registration attempts" });
  const outcome = await Promise.race([
    page.waitForURL((url) => !url.pathname.startsWith("/register"), { timeout: 8_000 }).then(() => "left" as const),
    refused.waitFor({ timeout: 8_000 }).then(() => "refused" as const),
  ]).catch(() => "neither" as const);
  if (outcome !== "refused") return;
  await whileBusy(() => executeStatements(["DELETE FROM auth_failures WHERE scope = 'register:ip'"], e2eDatabase));
  await page.getByRole("button", { name: "Create Account" }).click();
}

export async function registerClient(page: Page, firstName: string) {
  const email = `e2e-${unique()}@example.com`;
  await register(page, email, "client-pass-1", firstName);
  await expect(page).toHaveURL(/\/dashboard$/);
  return email;
}

/**
 * The demo's wallet that takes claims: the others are watched on chain, and a client pays their own address there.
 */
export const CLAIM_WALLET = "USDT (TRC20)";

/** A signed-in client asks to deposit `amount` dollars to the firm's claim wallet, through /deposit. */
export async function submitDepositRequest(page: Page, amount: string) {
  await page.goto("/deposit");
  await page.getByLabel("Amount (USD)").fill(amount);
  await page.getByLabel("Payment Wallet").selectOption(CLAIM_WALLET);
  await page.getByRole("button", { name: "Submit Deposit" }).click();
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

const AXE = join(process.cwd(), "node_modules", "axe-core", "axe.min.js");

/** axe's impact levels, least to most severe. */
export const ALL_IMPACTS = ["minor", "moderate", "serious", "critical"] as const;
export type Impact = (typeof ALL_IMPACTS)[number];

/** One element axe finds wrong: the rule, the element (axe's selector) and axe's own summary of what to fix. */
export interface AccessibilityFinding {
  rule: string;
  impact: Impact;
  target: string;
  summary: string;
}

/**
 * axe's findings of `impacts` on the page as a person sees it, one per element: the rule, the element, and axe's
 * own summary (for colour contrast: both colours, the font and the ratio), so a failure says what to fix.
 * Transitions and animations under way (a toast fading in, a bar shrinking) are let finish first: a colour
 * measured halfway through a fade is one nobody reads. axe is injected as an inline script, which our CSP rightly
 * refuses: the test must use `bypassCSP: true`. `tags` runs only the rules of those WCAG levels (axe's tags, such
 * as "wcag2aa"); without them, every rule.
 */
export async function accessibilityFindings(
  page: Page,
  { tags, impacts = ALL_IMPACTS }: { tags?: readonly string[]; impacts?: readonly Impact[] } = {},
): Promise<AccessibilityFinding[]> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  await page.addScriptTag({ path: AXE });
  const findings = await page.evaluate(
    async (tags) => {
      type Violation = { id: string; impact: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> };
      type Options = { runOnly?: { type: "tag"; values: string[] } };
      const axe = (
        window as unknown as {
          axe: { run: (context: Document, options: Options) => Promise<{ violations: Violation[] }> };
        }
      ).axe;
      const { violations } = await axe.run(document, tags ? { runOnly: { type: "tag", values: tags } } : {});
      return violations.flatMap((violation) =>
        violation.nodes.map((node) => ({
          rule: violation.id,
          impact: violation.impact,
          target: node.target.join(" "),
          summary: node.failureSummary ?? "",
        })),
      );
    },
    tags && [...tags],
  );
  return (findings as AccessibilityFinding[]).filter((finding) => impacts.includes(finding.impact));
}

/** A finding as one line of a failure message. */
export const describeFinding = (finding: AccessibilityFinding) =>
  `${finding.rule} (${finding.impact}) at ${finding.target}: ${finding.summary}`;

/** axe's serious and critical findings (see `accessibilityFindings`), one line each. */
export async function seriousAccessibilityProblems(
  page: Page,
  { tags }: { tags?: readonly string[] } = {},
): Promise<string[]> {
  const findings = await accessibilityFindings(page, { tags, impacts: ["serious", "critical"] });
  return findings.map(describeFinding);
}
