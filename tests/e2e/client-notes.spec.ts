import type { Browser, Page } from "@playwright/test";
import { executeStatements, query, sqlValue } from "../../scripts/lib/local-d1";
import { e2eDatabase as database, whileBusy } from "./database";
import { CODE_PROMPT, expect, registerClient, seriousAccessibilityProblems, test, watchForErrors } from "./support";
import { withUnusedCode } from "./totp";

/**
 * Client notes in the browser: an admin who holds the support role alone writes a note with the Watch flag on a
 * client's page; the flag shows there and in User Management, whose Flag filter finds the client. Both widths.
 */

// Each wrangler CLI call starts its own runtime: a few seconds apiece, more on a busy machine.
test.setTimeout(150_000);

const idOf = async (email: string) => {
  const [user] = await whileBusy(() =>
    query<{ id: string }>(`SELECT id FROM users WHERE email = ${sqlValue(email)}`, database),
  );
  if (!user) throw new Error(`no user ${email}`);
  return user.id;
};

/**
 * A new support-only admin, signed in on `page`: registered as a person would be, made an admin holding the support
 * role (as `npm run admin:create` and the team page would), then enrolled in two-factor sign-in with the key the page
 * shows, as every admin must be before the back office opens.
 */
async function signedInSupportAdmin(page: Page) {
  const email = await registerClient(page, "Sam");
  const id = sqlValue(await idOf(email));
  await whileBusy(() =>
    executeStatements(
      [
        `UPDATE users SET role = 'admin' WHERE id = ${id}`,
        `UPDATE profiles SET role = 'admin' WHERE user_id = ${id}`,
        `INSERT INTO admin_roles (user_id, role) VALUES (${id}, 'support')`,
      ],
      database,
    ),
  );
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/account\/two-factor$/);
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const secret = (await page.getByTestId("totp-secret").innerText()).trim();
  await page.getByLabel("Current Password").fill("client-pass-1");
  await withUnusedCode(secret, async (code) => {
    await page.getByLabel(CODE_PROMPT).fill(code);
    await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
    await expect(page.getByRole("list", { name: "Recovery codes" })).toBeVisible();
  });
  return email;
}

async function noteWithWatchFlag(browser: Browser, width: number, height: number, shots: (name: string) => string) {
  const clientContext = await browser.newContext();
  const adminContext = await browser.newContext({ viewport: { width, height }, bypassCSP: true });
  const errors = [clientContext, adminContext].flatMap(watchForErrors);
  const client = await clientContext.newPage();
  const admin = await adminContext.newPage();
  const firstName = `Nora${Date.now() % 100000}`;
  const clientEmail = await registerClient(client, firstName);
  const clientId = await idOf(clientEmail);
  const supportEmail = await signedInSupportAdmin(admin);

  await admin.goto(`/user/${clientId}`);
  const notes = admin.getByRole("article", { name: "Notes" });
  await expect(notes.getByText("No notes yet.")).toBeVisible();
  const text = `Asked twice about withdrawals today ${firstName}`;
  await notes.getByLabel("Note", { exact: true }).fill(text);
  await notes.getByRole("checkbox", { name: "Watch" }).check();
  await notes.getByRole("button", { name: "Add note" }).click();
  await expect(admin.getByRole("status").filter({ hasText: "Note added" }).first()).toBeVisible();
  const note = notes.getByRole("listitem").filter({ hasText: text });
  await expect(note).toContainText(supportEmail);
  await expect(note).toContainText("Set: Watch");
  // The badge beside the client's profile, and the form now shows Watch as set.
  await expect(admin.getByTestId("client-flag").filter({ hasText: "Watch" }).first()).toBeVisible();
  await expect(notes.getByRole("checkbox", { name: "Watch" })).toBeChecked();
  // A fresh load: the server renders the flagged profile and the page hydrates it without an error (a list inside a
  // paragraph once made the browser's document differ from React's).
  await admin.reload();
  await expect(admin.getByTestId("client-flag").filter({ hasText: "Watch" }).first()).toBeVisible();
  // Support reads money but moves none: the Notes form is theirs, nothing else changes here.
  expect(await seriousAccessibilityProblems(admin)).toEqual([]);
  await admin.screenshot({ path: shots("client-page"), fullPage: true });

  // User Management: the badge on the row, and the Flag filter finds the client.
  await admin.goto("/admin");
  await admin.getByLabel("Search clients by name or email").fill(clientEmail);
  await admin.getByLabel("Flag", { exact: true }).selectOption("watch");
  await admin.getByRole("button", { name: "Search" }).click();
  await expect(admin).toHaveURL(/flag=watch/);
  const row = admin.getByRole("row").filter({ hasText: clientEmail });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("client-flag")).toHaveText("Watch");
  await admin.goto(`/admin?q=${encodeURIComponent(clientEmail)}&flag=vip`);
  await expect(admin.getByText("No clients found.")).toBeVisible();
  await admin.goto(`/admin?q=${encodeURIComponent(clientEmail)}&flag=watch`);
  expect(await seriousAccessibilityProblems(admin)).toEqual([]);
  await admin.screenshot({ path: shots("desk"), fullPage: true });

  // The client sees nothing of it.
  await client.goto("/dashboard");
  await expect(client.getByText(text)).toHaveCount(0);
  await expect(client.getByText("Watch", { exact: true })).toHaveCount(0);
  expect(errors).toEqual([]);
}

test("a support admin notes a client with the Watch flag; the flag shows and filters User Management", async ({
  browser,
}, testInfo) => {
  await noteWithWatchFlag(browser, 1366, 900, (name) => testInfo.outputPath(`${name}-1366.png`));
});

test("the same at phone width", async ({ browser }, testInfo) => {
  await noteWithWatchFlag(browser, 390, 844, (name) => testInfo.outputPath(`${name}-390.png`));
});
