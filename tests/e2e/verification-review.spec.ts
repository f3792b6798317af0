import { createHash, randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { executeStatements, query, sqlValue } from "../../scripts/lib/local-d1";
import { e2eDatabase as database, whileBusy } from "./database";
import {
  DEMO_SECOND_ADMIN,
  expect,
  registerClient,
  seriousAccessibilityProblems,
  signIn,
  test,
  watchForErrors,
} from "./support";
import { withUnusedCode } from "./totp";
import { putDocumentObject, sampleBillPdf, sampleIdCardPng } from "./verification-files";

/**
 * The back office's review of identity verifications in the browser. The client's case and files are put straight
 * into the test server's database and bucket (the client's own upload pages are tested on their own); the second
 * demo admin finds it from the desk's count, sees the documents beside the declared data and decides it.
 */

// Each wrangler CLI call starts its own runtime: a few seconds apiece, more on a busy machine.
test.setTimeout(120_000);

/** A submitted passport case for this client, with an ID card picture and a PDF proof of address. */
async function submittedCaseOf(email: string, legalFirstName: string): Promise<number> {
  const [user] = await whileBusy(() =>
    query<{ id: string }>(`SELECT id FROM users WHERE email = ${sqlValue(email)}`, database),
  );
  if (!user) throw new Error(`no user ${email}`);
  const files = [
    { kind: "identity_front", type: "image/png", name: "passport.png", bytes: sampleIdCardPng() },
    { kind: "proof_of_address", type: "application/pdf", name: "bill.pdf", bytes: sampleBillPdf() },
  ];
  const keys = files.map(() => `documents/${randomUUID()}`);
  for (const [i, file] of files.entries()) putDocumentObject(keys[i] as string, file.bytes);
  const now = Date.now();
  const caseId = `(SELECT id FROM verification_cases WHERE user_id = ${sqlValue(user.id)})`;
  await whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO verification_cases (user_id, status, legal_first_name, legal_last_name, date_of_birth, country,
           address, document_type, document_number, submitted_at)
         VALUES (${sqlValue(user.id)}, 'submitted', ${sqlValue(legalFirstName)}, 'Tester', '1990-04-01', 'CA',
           '12 Maple Road, Toronto', 'passport', 'P1234567', ${now})`,
        ...files.map(
          (file, i) =>
            `INSERT INTO verification_documents (id, case_id, user_id, kind, object_key, file_name, content_type,
               size_bytes, sha256)
             VALUES (${sqlValue(randomUUID().replaceAll("-", ""))}, ${caseId}, ${sqlValue(user.id)},
               ${sqlValue(file.kind)}, ${sqlValue(keys[i])}, ${sqlValue(file.name)}, ${sqlValue(file.type)},
               ${file.bytes.length}, ${sqlValue(createHash("sha256").update(file.bytes).digest("hex"))})`,
        ),
      ],
      database,
    ),
  );
  const [row] = await whileBusy(() =>
    query<{ id: number }>(`SELECT id FROM verification_cases WHERE user_id = ${sqlValue(user.id)}`, database),
  );
  return row?.id ?? 0;
}

async function openCase(admin: Page, legalName: string) {
  await admin.goto("/admin");
  await admin.getByRole("link", { name: "Verifications awaiting review" }).click();
  await expect(admin).toHaveURL(/\/admin\/verifications$/);
  await admin.getByRole("link", { name: legalName }).click();
  await expect(admin.getByRole("heading", { name: /^Verification of / })).toBeVisible();
}

test("an admin finds a submitted case from the desk, sees the documents beside the data and approves it", async ({
  browser,
}, testInfo) => {
  const clientContext = await browser.newContext();
  const adminContext = await browser.newContext({ viewport: { width: 1366, height: 900 }, bypassCSP: true });
  const errors = [clientContext, adminContext].flatMap(watchForErrors);
  const client = await clientContext.newPage();
  const admin = await adminContext.newPage();
  const legalFirstName = `Kyc${Date.now() % 100000}`;
  const email = await registerClient(client, legalFirstName);
  await submittedCaseOf(email, legalFirstName);

  await signIn(admin, DEMO_SECOND_ADMIN.email, DEMO_SECOND_ADMIN.password);
  await expect(admin.getByTestId("awaiting-review")).not.toHaveText("0");
  await openCase(admin, `${legalFirstName} Tester`);
  expect(await seriousAccessibilityProblems(admin)).toEqual([]);

  // The picture is shown (served by the admin-only route), the PDF offered as a download.
  const picture = admin.getByRole("img", { name: "Identity document (front) as uploaded by the client" });
  await expect(picture).toBeVisible();
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
  await expect(admin.getByRole("link", { name: "Download Proof of address (PDF)" })).toBeVisible();
  await expect(admin.getByText("12 Maple Road, Toronto")).toBeVisible();
  await admin.screenshot({ path: testInfo.outputPath("review-1366.png"), fullPage: true });

  await admin.getByRole("button", { name: "Approve verification" }).click();
  const approveForm = admin
    .locator("form")
    .filter({ has: admin.getByRole("button", { name: "Approve verification" }) });
  const code = approveForm.getByLabel("Enter the 6-digit code from your authenticator app");
  // The session's code may be older than 10 minutes: then it is asked in the form itself.
  const done = admin.getByTestId("verification-decision");
  await expect.poll(async () => (await code.isVisible()) || (await done.isVisible()), { timeout: 15_000 }).toBe(true);
  if (await code.isVisible()) {
    await withUnusedCode(DEMO_SECOND_ADMIN.totpSecret, async (value) => {
      await code.fill(value);
      await code.press("Enter");
      await expect(done).toBeVisible();
    });
  }
  await expect(done).toContainText(`Verified by ${DEMO_SECOND_ADMIN.email}`);
  await expect(admin.getByRole("button", { name: "Approve verification" })).toHaveCount(0);
  await admin.screenshot({ path: testInfo.outputPath("review-1366-approved.png"), fullPage: true });
  // The client's page now says Verified beside their name.
  await admin
    .getByRole("link", { name: `${legalFirstName} Tester`, exact: true })
    .last()
    .click();
  await expect(admin.getByRole("heading", { name: `${legalFirstName} Tester` })).toBeVisible();
  await expect(admin.getByTestId("verification-level").first()).toHaveText("Verified");
  await admin.screenshot({ path: testInfo.outputPath("user-1366.png"), fullPage: true });
  expect(errors).toEqual([]);
});

test("at phone width, a rejection without a reason is refused next to its field, then sent with one", async ({
  browser,
}, testInfo) => {
  const clientContext = await browser.newContext();
  const adminContext = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
  const errors = [clientContext, adminContext].flatMap(watchForErrors);
  const client = await clientContext.newPage();
  const admin = await adminContext.newPage();
  const legalFirstName = `Rej${Date.now() % 100000}`;
  const email = await registerClient(client, legalFirstName);
  await submittedCaseOf(email, legalFirstName);

  await signIn(admin, DEMO_SECOND_ADMIN.email, DEMO_SECOND_ADMIN.password);
  await admin.screenshot({ path: testInfo.outputPath("desk-390.png"), fullPage: true });
  await admin.goto("/admin/verifications");
  await admin.screenshot({ path: testInfo.outputPath("queue-390.png"), fullPage: true });
  expect(await seriousAccessibilityProblems(admin)).toEqual([]);
  await admin.getByRole("link", { name: `${legalFirstName} Tester` }).click();
  await expect(admin.getByRole("heading", { name: /^Verification of / })).toBeVisible();
  const noSideways = await admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(noSideways).toBe(true);

  const rejectForm = admin.locator("form").filter({ has: admin.getByRole("button", { name: "Reject verification" }) });
  const reason = rejectForm.getByRole("textbox", { name: "Reason" });
  await reason.fill("   ");
  await rejectForm.getByRole("button", { name: "Reject verification" }).click();
  await expect(rejectForm.getByText("Enter the reason for the rejection: the client reads it.")).toBeVisible();
  await expect(reason).toHaveAttribute("aria-invalid", "true");
  await admin.screenshot({ path: testInfo.outputPath("review-390-refused.png"), fullPage: true });

  await reason.fill("The photo of the passport is blurred.");
  await rejectForm.getByRole("button", { name: "Reject verification" }).click();
  await expect(admin.getByRole("status").filter({ hasText: "Verification rejected" })).toBeVisible();
  await expect(admin.getByTestId("verification-decision")).toContainText(
    "Reason: The photo of the passport is blurred.",
  );
  await admin.screenshot({ path: testInfo.outputPath("review-390-rejected.png"), fullPage: true });
  expect(errors).toEqual([]);
});
