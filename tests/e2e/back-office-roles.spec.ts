import { decodeBase32, encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";
import { encryptTotpSecret } from "../../app/server/auth/totp-crypto.server";
import { hashPassword } from "../../app/server/password.server";
import { devVar, ensureDevVars, executeStatements, sqlValue } from "../../scripts/lib/local-d1";
import { e2eDatabase, whileBusy } from "./database";
import { expect, seriousAccessibilityProblems, signIn, test, unique } from "./support";

// axe is injected as an inline script, which the site's CSP refuses (seriousAccessibilityProblems).
test.use({ bypassCSP: true });

/** The seed's support admin (scripts/lib/demo-people.ts): reads clients, moves no money. */
const SUPPORT = {
  email: "support@example.com",
  password: "demo-support-2026",
  totpSecret: "DEMOSUPPORTADMINTOTPKEYNORTHWIND",
};

/** A client straight in the database with approved money, a pending deposit and a pending withdrawal. */
async function clientWithRequests(): Promise<string> {
  const id = crypto.randomUUID();
  const email = `roles-${unique()}@example.com`;
  const now = Date.now();
  await whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO users (id, email, password_hash, role) VALUES (${sqlValue(id)}, ${sqlValue(email)}, 'x', 'user')`,
        `INSERT INTO profiles (user_id, email, first_name, last_name, role) VALUES (${sqlValue(id)}, ${sqlValue(email)}, 'Rowan', 'Roles', 'user')`,
        `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, created_at) VALUES
           (${sqlValue(id)}, 'deposit', 100000, 'approved', ${now - 3_000}),
           (${sqlValue(id)}, 'deposit', 5000, 'pending', ${now - 2_000}),
           (${sqlValue(id)}, 'withdraw', 2500, 'pending', ${now - 1_000})`,
        // The profile's projection of the balance, as the decisions' batches keep it.
        `UPDATE profiles SET balance_cents = 100000 WHERE user_id = ${sqlValue(id)}`,
      ],
      e2eDatabase,
    ),
  );
  return id;
}

/** An operator, enrolled in two-factor sign-in with a key of its own, made straight in the database. */
async function operator() {
  ensureDevVars();
  const id = crypto.randomUUID();
  const person = {
    email: `operator-${unique()}@example.com`,
    password: "operator-password-1",
    // 20 random bytes as base32, as an authenticator takes them.
    totpSecret: encodeBase32UpperCaseNoPadding(crypto.getRandomValues(new Uint8Array(20))),
  };
  const sealed = await encryptTotpSecret(devVar("TOTP_ENCRYPTION_KEY") ?? "", id, decodeBase32(person.totpSecret));
  const hash = await hashPassword(person.password);
  await whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO users (id, email, password_hash, role, email_confirmed_at) VALUES (${sqlValue(id)}, ${sqlValue(person.email)}, ${sqlValue(hash)}, 'admin', ${Date.now()})`,
        `INSERT INTO profiles (user_id, email, first_name, last_name, role) VALUES (${sqlValue(id)}, ${sqlValue(person.email)}, 'Oli', 'Operator', 'admin')`,
        `INSERT INTO admin_roles (user_id, role) VALUES (${sqlValue(id)}, 'operator')`,
        `INSERT INTO two_factor (user_id, secret_encrypted, confirmed_at) VALUES (${sqlValue(id)}, ${sqlValue(sealed)}, ${Date.now()})`,
      ],
      e2eDatabase,
    ),
  );
  return person;
}

test("a support admin reads a client's page, is offered no money act, and is refused the audit log", async ({
  page,
}, testInfo) => {
  const clientId = await clientWithRequests();
  await signIn(page, SUPPORT.email, SUPPORT.password, { totpSecret: SUPPORT.totpSecret });
  await expect(page).toHaveURL(/\/admin$/);
  // The desk offers only what support may open.
  await expect(page.getByRole("link", { name: "Transactions", exact: true })).toBeVisible();
  for (const name of ["Verifications", "Audit Log", "Mail"]) {
    await expect(page.getByRole("link", { name, exact: true })).toHaveCount(0);
  }
  await expect(page.getByRole("button", { name: "Update Deposit Wallets" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Delete / })).toHaveCount(0);

  await page.goto(`/user/${clientId}`);
  await expect(page.getByRole("heading", { name: "Rowan Roles" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "$50.00" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^(Approve|Reject)/ })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Actions", exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Suspend User|Activate User/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Export statement (CSV)" })).toHaveCount(0);
  expect(await seriousAccessibilityProblems(page)).toEqual([]);
  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: testInfo.outputPath(`support-client-page-${width}.png`), fullPage: true });
  }

  const refused = await page.goto("/admin/audit");
  expect(refused?.status()).toBe(403);
  await expect(page.getByText("Your role does not allow this.")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("support-audit-refused-390.png"), fullPage: true });
});

test("an operator is offered Approve on a deposit but not on a withdrawal", async ({ page }, testInfo) => {
  const clientId = await clientWithRequests();
  const person = await operator();
  await signIn(page, person.email, person.password, { totpSecret: person.totpSecret });
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto(`/user/${clientId}`);
  await expect(page.getByRole("button", { name: "Approve deposit of $50.00" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Reject deposit of $50.00" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^(Approve|Reject) withdrawal/ })).toHaveCount(0);
  // Entries and suspension are an operator's; the statement export is not.
  await expect(page.getByRole("button", { name: "Suspend User" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Export statement (CSV)" })).toHaveCount(0);
  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: testInfo.outputPath(`operator-client-page-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/admin");
  await page.screenshot({ path: testInfo.outputPath("operator-desk-1366.png"), fullPage: true });
});
