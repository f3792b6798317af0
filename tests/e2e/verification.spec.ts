import type { Page } from "@playwright/test";
import { executeStatements, sqlValue } from "../../scripts/lib/local-d1";
import { e2eDatabase, whileBusy } from "./database";
import { expect, registerClient, seriousAccessibilityProblems, test, watchForErrors } from "./support";

/**
 * A new client verifies their identity from the dashboard: details, files sent with setInputFiles (a refused one
 * says why), Send for review; and a rejected client reads the reason, replaces a file and sends it again, on a
 * phone. The reviewer's decision is written straight into the test database (the back office decides it there).
 */
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

async function fillDetails(page: Page) {
  await page.getByLabel("Legal first name").fill("Ada");
  await page.getByLabel("Legal last name").fill("Lovelace");
  await page.getByLabel("Date of birth").fill("1990-12-10");
  await page.getByLabel("Country of residence").selectOption("United Kingdom");
  await page.getByLabel("Residential address").fill("12 St James's Square, London SW1Y 4JH");
  await page.getByLabel("Document type").selectOption("passport");
  await page.getByLabel("Document number").fill("533401372");
}

async function upload(page: Page, slot: string, name: string, buffer: Buffer, mimeType: string) {
  await page.getByLabel(new RegExp(`^(Choose|Replace) ${slot}`)).setInputFiles({ name, mimeType, buffer });
}

test("a new client sends their details and documents and sees 'Submitted, in review'", async ({ page }) => {
  await registerClient(page, "Ada");
  const card = page.getByTestId("verification-status");
  await expect(card).toContainText("Not started");
  await expect(card).toContainText(/1[34] days left to verify your identity/);
  await card.getByRole("link", { name: "Verify your identity" }).click();
  await expect(page.getByRole("heading", { name: "Identity verification", level: 1 })).toBeVisible();

  await fillDetails(page);
  // A passport has no back.
  await expect(page.getByTestId("slot-identity_back")).toHaveCount(0);
  // A text file renamed to .png is refused by its bytes, next to its slot.
  await upload(page, "identity document \\(front\\)", "passport.png", Buffer.from("not an image"), "image/png");
  await expect(page.getByTestId("slot-identity_front")).toContainText(
    "Upload a JPEG, PNG or PDF file of at most 10 MB.",
  );
  await upload(page, "identity document \\(front\\)", "passport.png", PNG, "image/png");
  await expect(page.getByTestId("slot-identity_front-file")).toContainText("passport.png");
  await expect(page.getByTestId("slot-identity_front")).not.toContainText("Upload a JPEG");

  // Sending before the proof of address names it.
  await page.getByRole("button", { name: "Send for review" }).click();
  await expect(page.getByRole("alert").first()).toContainText("Upload the proof of address");
  await upload(page, "proof of address", "bill.pdf", PDF, "application/pdf");
  await expect(page.getByTestId("slot-proof_of_address-file")).toContainText("bill.pdf");
  // The refusal it answered goes with it.
  await expect(page.getByText("Upload the proof of address")).toHaveCount(0);
  // The details typed before the uploads are still there.
  await expect(page.getByLabel("Legal first name")).toHaveValue("Ada");

  await page.getByRole("button", { name: "Send for review" }).click();
  await expect(page.getByText("Thank you. Your documents were sent and are being reviewed.").first()).toBeVisible();
  await expect(page.getByTestId("verification-status-label")).toHaveText("Submitted, in review");
  // In review, nothing can be changed.
  await expect(page.getByLabel(/^Replace /)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send for review" })).toHaveCount(0);
  await expect(page.getByLabel("Legal first name")).toBeDisabled();

  await page.goto("/account");
  await expect(page.getByTestId("verification-status-label")).toHaveText("Submitted, in review");
});

test("a rejected client reads the reason and sends the case again, on a phone", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
  const errors = watchForErrors(context);
  const page = await context.newPage();
  const email = await registerClient(page, "Grace");
  await page.goto("/account/verification");
  await fillDetails(page);
  await upload(page, "identity document \\(front\\)", "passport.png", PNG, "image/png");
  await expect(page.getByTestId("slot-identity_front-file")).toContainText("passport.png");
  await upload(page, "proof of address", "bill.pdf", PDF, "application/pdf");
  await expect(page.getByTestId("slot-proof_of_address-file")).toContainText("bill.pdf");
  await page.getByRole("button", { name: "Send for review" }).click();
  await expect(page.getByTestId("verification-status-label")).toHaveText("Submitted, in review");

  await whileBusy(() =>
    executeStatements(
      [
        `UPDATE verification_cases SET status = 'rejected', review_note = 'The photo is too dark to read.',
                reviewed_at = CAST(unixepoch('subsec') * 1000 AS INTEGER)
         WHERE user_id = (SELECT id FROM users WHERE email = ${sqlValue(email)})`,
      ],
      e2eDatabase,
    ),
  );
  await page.goto("/dashboard");
  const card = page.getByTestId("verification-status");
  await expect(card).toContainText("Rejected");
  await expect(card).toContainText("Reason: The photo is too dark to read.");
  await card.getByRole("link", { name: "Correct and send again" }).click();
  expect(await seriousAccessibilityProblems(page)).toEqual([]);
  // Nothing is wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await upload(page, "identity document \\(front\\)", "brighter.png", PNG, "image/png");
  await expect(page.getByTestId("slot-identity_front-file")).toContainText("brighter.png");
  await page.getByRole("button", { name: "Send for review" }).click();
  await expect(page.getByTestId("verification-status-label")).toHaveText("Submitted, in review");
  expect(errors).toEqual([]);
  await context.close();
});
