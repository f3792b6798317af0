import { readFileSync } from "node:fs";
import { join } from "node:path";
import { encryptTotpSecret, newTotpSecret, totpCodeAt } from "../../app/server/auth/totp.server";
import { sha256Hex } from "../../app/server/crypto.server";
import { executeStatements, query, ROOT, settingLines, sqlValue } from "../../scripts/lib/local-d1";
import { e2eDatabase as database, whileBusy } from "./database";
import { CODE_PROMPT, expect, registerClient, test } from "./support";

/**
 * Step-up for a withdrawal in the browser. The client's two-factor sign-in is set up straight in the test
 * server's database (the enrolment pages are tested on their own): the secret is made and encrypted here with
 * the server's key from .dev.vars, so the test computes the authenticator's codes itself. The same SQL gives the
 * client $500 to withdraw and puts the session's last code 11 minutes back, past the step-up window.
 */

async function enrolStaleTwoFactor(email: string): Promise<Uint8Array> {
  const [user] = await whileBusy(() =>
    query<{ id: string }>(`SELECT id FROM users WHERE email = ${sqlValue(email)}`, database),
  );
  if (!user) throw new Error(`no user ${email}`);
  const key = settingLines(readFileSync(join(ROOT, ".dev.vars"), "utf8")).find(
    ([name]) => name === "TOTP_ENCRYPTION_KEY",
  );
  if (!key) throw new Error("TOTP_ENCRYPTION_KEY is not in .dev.vars");
  const secret = newTotpSecret();
  const now = Date.now();
  const statements = [
    `INSERT INTO two_factor (user_id, secret_encrypted, confirmed_at) VALUES (${sqlValue(user.id)}, ${sqlValue(
      await encryptTotpSecret(key[1], user.id, secret),
    )}, ${now})`,
    `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, created_at)
       VALUES (${sqlValue(user.id)}, 'deposit', 50000, 'approved', ${now})`,
    `UPDATE sessions SET second_factor_at = ${now - 11 * 60 * 1000} WHERE user_id = ${sqlValue(user.id)}`,
    // Only a verified client withdraws (docs/product.md, "Identity verification").
    `INSERT INTO verification_cases (user_id, status, submitted_at, reviewed_at) VALUES (${sqlValue(user.id)}, 'approved', ${now}, ${now})`,
  ];
  // One batch: tried again whole when the database was busy.
  await whileBusy(() => executeStatements(statements, database));
  return secret;
}

test.use({ viewport: { width: 375, height: 740 } });
// Each wrangler CLI call starts its own runtime: a few seconds apiece, more on a busy machine.
test.setTimeout(120_000);

test("a client with two-factor on is asked for a code in the withdrawal form, at phone width, and the request is recorded", async ({
  page,
}) => {
  const email = await registerClient(page, "Stella");
  const secret = await enrolStaleTwoFactor(email);

  await page.goto("/withdraw");
  await expect(page.getByTestId("available-balance")).toHaveText("$500.00");
  await page.getByLabel("Amount (USD)").fill("42.50");
  await page.getByLabel("Cryptocurrency").selectOption("ETH");
  await page.getByLabel("Wallet Address").fill("0x3333333333333333333333333333333333333333");
  await page.getByRole("button", { name: "Submit Withdrawal" }).click();

  const code = page.getByLabel("Enter the 6-digit code from your authenticator app");
  await expect(code).toBeFocused();
  await expect(page.getByRole("alert")).toHaveText("Enter the 6-digit code from your authenticator app");
  await expect(code).toHaveAttribute("inputmode", "numeric");
  await expect(code).toHaveAttribute("autocomplete", "one-time-code");
  // Usable on a phone: whole inside the screen, tall enough to tap, and the form kept what was typed.
  const box = await code.boundingBox();
  expect(box).not.toBeNull();
  expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 375).toBe(true);
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(40);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expect(page.getByLabel("Amount (USD)")).toHaveValue("42.50");
  await expect(page.getByLabel("Wallet Address")).toHaveValue("0x3333333333333333333333333333333333333333");

  await code.fill(totpCodeAt(secret, Date.now() + 10 * 60 * 1000));
  await page.getByRole("button", { name: "Submit Withdrawal" }).click();
  await expect(page.getByText("Invalid code", { exact: true }).last()).toBeVisible();
  await expect(code).toBeFocused();
  await expect(code).toHaveValue("");

  await code.pressSequentially(totpCodeAt(secret, Date.now()));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Withdrawal request submitted successfully")).toBeVisible();
  const pendingPanel = page
    .getByRole("article")
    .filter({ has: page.getByRole("heading", { name: "Pending & Declined Transactions" }) });
  await expect(pendingPanel.getByText("−$42.50")).toBeVisible();

  const rows = await whileBusy(() =>
    query<{ amount_cents: number; withdrawal_wallet_address: string; status: string }>(
      `SELECT amount_cents, withdrawal_wallet_address, status FROM transactions t JOIN users u ON u.id = t.user_id
     WHERE u.email = ${sqlValue(email)} AND t.transaction_type = 'withdraw'`,
      database,
    ),
  );
  expect(rows).toEqual([
    { amount_cents: 4250, withdrawal_wallet_address: "0x3333333333333333333333333333333333333333", status: "pending" },
  ]);

  // Within 10 minutes of that code, the next withdrawal goes through without one.
  await page.goto("/withdraw");
  await page.getByLabel("Amount (USD)").fill("7.50");
  await page.getByLabel("Cryptocurrency").selectOption("ETH");
  await page.getByLabel("Wallet Address").fill("0x3333333333333333333333333333333333333333");
  await page.getByRole("button", { name: "Submit Withdrawal" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("a client who signed in with a recovery code is asked for the authenticator's code at the first withdrawal, and told why", async ({
  page,
}) => {
  const email = await registerClient(page, "Rowan");
  const secret = await enrolStaleTwoFactor(email);
  // One recovery code, stored as an enrolment stores it (the hash of its characters alone).
  const recoveryCode = "abcde-fghij";
  const hash = await sha256Hex(recoveryCode.replace("-", ""));
  await whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO recovery_codes (user_id, code_hash, created_at)
           SELECT id, ${sqlValue(hash)}, ${Date.now()} FROM users WHERE email = ${sqlValue(email)}`,
      ],
      database,
    ),
  );
  // Signed out: a new sign-in, this time with the recovery code.
  await page.context().clearCookies();

  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("client-pass-1");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/login\/two-factor$/);
  await page.getByRole("link", { name: "Use a recovery code instead" }).click();
  await page.getByLabel("Enter one of your recovery codes").fill(recoveryCode);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto("/withdraw");
  await page.getByLabel("Amount (USD)").fill("12.00");
  await page.getByLabel("Cryptocurrency").selectOption("ETH");
  await page.getByLabel("Wallet Address").fill("0x3333333333333333333333333333333333333333");
  await page.getByRole("button", { name: "Submit Withdrawal" }).click();
  const why = "You signed in with a recovery code: enter a code from your authenticator app to continue.";
  await expect(page.getByRole("alert")).toHaveText(why);
  const code = page.getByLabel(CODE_PROMPT);
  await expect(code).toBeFocused();
  await expect(code).toHaveAccessibleDescription(why);
  await expect(code).not.toHaveAttribute("aria-invalid", "true");

  await code.pressSequentially(totpCodeAt(secret, Date.now()));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Withdrawal request submitted successfully")).toBeVisible();
});
