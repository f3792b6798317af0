import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { VERIFICATION_FORM_MESSAGES } from "~/lib/schemas/verification";
import { VERIFICATION_MESSAGES } from "~/lib/verification";
import { daysLeftText, summarizeVerification } from "~/lib/verification-summary";
import { SAMPLE_FILES, storedObjectKeys, uploadDocument, verificationFields } from "../support/documents";
import { appEnv, countRows, createUser, getPage, postForm, sessionCookieFor } from "../support/fixtures";
import { alerts, cardTitled, fieldError, linkTexts, refusals, testIdText } from "../support/places";

async function signedInClient() {
  const client = await createUser();
  return { ...client, cookie: await sessionCookieFor(client.id) };
}

const submit = (cookie: string, fields: Record<string, string> = {}) =>
  postForm("/account/verification", verificationFields(fields), { cookie });

async function liveCase(userId: string) {
  return env.DB.prepare("SELECT * FROM verification_cases WHERE user_id = ? AND ended_at IS NULL")
    .bind(userId)
    .first<Record<string, string | number | null>>();
}

/** A client with a passport's front and a proof of address uploaded. */
async function clientWithPassportFiles() {
  const client = await signedInClient();
  await uploadDocument(client.cookie, "identity_front", SAMPLE_FILES.jpeg, { fileName: "passport.jpg" });
  await uploadDocument(client.cookie, "proof_of_address", SAMPLE_FILES.pdf, { fileName: "bill.pdf" });
  return client;
}

/** What a reviewer's decision leaves (the admin side writes it; here the row is set directly). */
async function decide(userId: string, status: string, note: string | null, kind: string | null = null) {
  await env.DB.prepare(
    "UPDATE verification_cases SET status = ?, review_note = ?, review_document_kind = ?, reviewed_at = ? WHERE user_id = ? AND ended_at IS NULL",
  )
    .bind(status, note, kind, Date.now(), userId)
    .run();
}

describe("sending the case for review", () => {
  it("moves a complete case to submitted with the form's details, and the page says 'Submitted, in review'", async () => {
    const client = await clientWithPassportFiles();
    const response = await submit(client.cookie, { documentNumber: "ab 1234567" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/account/verification");
    expect(await liveCase(client.id)).toMatchObject({
      status: "submitted",
      legal_first_name: "Jamie",
      legal_last_name: "Rivera",
      date_of_birth: "1990-05-17",
      country: "United Kingdom",
      document_type: "passport",
      document_number: "AB 1234567",
    });
    expect((await liveCase(client.id))?.submitted_at).toEqual(expect.any(Number));
    const page = await (await getPage("/account/verification", client.cookie)).text();
    expect(testIdText(page, "verification-status-label")).toBe("Submitted, in review");
  });

  it.each([
    [{ legalFirstName: " " }, VERIFICATION_FORM_MESSAGES.legalNamesRequired],
    [{ dateOfBirth: "1990-02-30" }, VERIFICATION_FORM_MESSAGES.dateOfBirthInvalid],
    [
      { dateOfBirth: new Date(Date.now() - 17 * 366 * 86_400_000).toISOString().slice(0, 10) },
      VERIFICATION_FORM_MESSAGES.tooYoung,
    ],
    [{ country: "Atlantis" }, VERIFICATION_FORM_MESSAGES.countryRequired],
    [{ address: "" }, VERIFICATION_FORM_MESSAGES.addressRequired],
    [{ documentType: "library_card" }, VERIFICATION_FORM_MESSAGES.documentTypeRequired],
    [{ documentNumber: "<script>" }, VERIFICATION_FORM_MESSAGES.documentNumberInvalid],
  ])("refuses %j with its message next to the field, and changes nothing", async (fields, message) => {
    const client = await clientWithPassportFiles();
    const before = await liveCase(client.id);
    const response = await submit(client.cookie, fields);
    expect(response.status).toBe(400);
    expect(fieldError(await response.text(), Object.keys(fields)[0] ?? "")).toBe(message);
    expect(await liveCase(client.id)).toEqual(before);
  });

  it("names the missing file: the back of an identity card, a proof of address", async () => {
    const client = await signedInClient();
    await uploadDocument(client.cookie, "identity_front", SAMPLE_FILES.jpeg);
    const card = await submit(client.cookie, { documentType: "national_id" });
    expect(card.status).toBe(400);
    expect(refusals(await card.text())).toContain("Upload the identity document (back)");
    const passport = await submit(client.cookie);
    expect(refusals(await passport.text())).toContain("Upload the proof of address");
    expect((await liveCase(client.id))?.status).toBe("draft");
  });

  it("refuses a case with no file at all", async () => {
    const client = await signedInClient();
    const response = await submit(client.cookie);
    expect(refusals(await response.text())).toContain("Upload the identity document (front)");
    expect(await countRows("verification_cases", "user_id = ?", client.id)).toBe(0);
  });

  it("locks the case while it is in review and once approved: no new file, no second submission", async () => {
    const client = await clientWithPassportFiles();
    await submit(client.cookie);
    const objects = (await storedObjectKeys()).length;
    const upload = await uploadDocument(client.cookie, "identity_front", SAMPLE_FILES.png);
    expect(upload.status).toBe(409);
    expect(await upload.json()).toEqual({ error: VERIFICATION_MESSAGES.caseLocked });
    const again = await submit(client.cookie, { legalFirstName: "Someone" });
    expect(again.status).toBe(409);
    expect(alerts(await again.text())).toContain(VERIFICATION_MESSAGES.caseLocked);
    await decide(client.id, "approved", null);
    expect((await uploadDocument(client.cookie, "proof_of_address", SAMPLE_FILES.png)).status).toBe(409);
    expect((await submit(client.cookie)).status).toBe(409);
    expect(await liveCase(client.id)).toMatchObject({ status: "approved", legal_first_name: "Jamie" });
    expect((await storedObjectKeys()).length).toBe(objects);
  });

  it("lets a rejected client see the reason, correct the case and send it again", async () => {
    const client = await clientWithPassportFiles();
    await submit(client.cookie);
    await decide(client.id, "rejected", "The photo is too dark to read.");
    const page = await (await getPage("/account/verification", client.cookie)).text();
    expect(testIdText(page, "verification-status")).toContain("Reason: The photo is too dark to read.");
    expect((await uploadDocument(client.cookie, "identity_front", SAMPLE_FILES.png)).status).toBe(200);
    expect((await submit(client.cookie, { documentNumber: "987654321" })).status).toBe(302);
    expect(await liveCase(client.id)).toMatchObject({ status: "submitted", document_number: "987654321" });
  });

  it("asks for the document the reviewer named to be sent again before the case goes back", async () => {
    const client = await clientWithPassportFiles();
    await submit(client.cookie);
    await decide(client.id, "more_info_needed", "The bill is older than 3 months.", "proof_of_address");
    const page = await (await getPage("/account/verification", client.cookie)).text();
    expect(testIdText(page, "verification-status-label")).toBe("More information needed");
    expect(testIdText(page, "verification-status")).toContain(
      "Send again: Proof of address. The bill is older than 3 months.",
    );
    const early = await submit(client.cookie);
    expect(early.status).toBe(400);
    expect(refusals(await early.text())).toContain(VERIFICATION_FORM_MESSAGES.newDocumentNeeded("Proof of address"));
    await uploadDocument(client.cookie, "proof_of_address", SAMPLE_FILES.pdf, { fileName: "new-bill.pdf" });
    expect((await submit(client.cookie)).status).toBe(302);
    expect((await liveCase(client.id))?.status).toBe("submitted");
  });
});

describe("a client's case is their own", () => {
  it("ignores ids in forms and addresses: another client's case and files are never touched", async () => {
    const owner = await clientWithPassportFiles();
    const other = await signedInClient();
    const ownerCase = await liveCase(owner.id);
    const ownerFiles = await countRows("verification_documents", "user_id = ?", owner.id);
    // The other client names the owner's case and user in the form and the address.
    await postForm("/account/verification", verificationFields({ caseId: String(ownerCase?.id), userId: owner.id }), {
      cookie: other.cookie,
    });
    const upload = await uploadDocument(
      other.cookie,
      `identity_front?caseId=${ownerCase?.id}&userId=${owner.id}`,
      SAMPLE_FILES.png,
    );
    expect(upload.status).toBe(200);
    expect(await liveCase(owner.id)).toEqual(ownerCase);
    expect(await countRows("verification_documents", "user_id = ?", owner.id)).toBe(ownerFiles);
    expect(await countRows("verification_documents", "user_id = ?", other.id)).toBe(1);
    // Their page shows their own file only.
    const page = await (await getPage("/account/verification", other.cookie)).text();
    // The owner's file names are theirs alone: they reach the other client's page nowhere, its data included.
    expect(page).not.toContain("passport.jpg");
    expect(page).not.toContain("bill.pdf");
  });
});

describe("the client's level and status", () => {
  it("shows on the dashboard and in Account Settings, with the days left", async () => {
    const client = await signedInClient();
    for (const path of ["/dashboard", "/account"]) {
      const page = await (await getPage(path, client.cookie)).text();
      const card = cardTitled(page, "Identity verification");
      expect(testIdText(page, "verification-status")).toBe(card);
      expect(testIdText(page, "verification-status-label")).toBe("Not started");
      expect(card).toContain("Level Unverified");
      expect(card).toMatch(/1[34] days left to verify your identity/);
    }
  });

  it("reads Restricted past the deadline (a fixed clock), and the pages show Verified once approved", async () => {
    const introducedAt = appEnv.VERIFICATION_INTRODUCED_AT;
    const registered = introducedAt + 86_400_000;
    const state = { createdAt: registered, status: null, reviewNote: null, reviewDocumentKind: null };
    expect(summarizeVerification(state, registered + 13.5 * 86_400_000, introducedAt)).toMatchObject({
      level: "unverified",
      daysLeft: 1,
    });
    const late = summarizeVerification(state, registered + 14 * 86_400_000, introducedAt);
    expect(late).toMatchObject({ level: "restricted", levelLabel: "Restricted", daysLeft: 0 });
    expect(daysLeftText(late)).toBe(
      "Your verification deadline has passed: new deposits are paused until you are verified.",
    );

    const client = await signedInClient();
    await env.DB.prepare("INSERT INTO verification_cases (user_id, status) VALUES (?, 'approved')")
      .bind(client.id)
      .run();
    for (const path of ["/dashboard", "/account"]) {
      const page = await (await getPage(path, client.cookie)).text();
      const card = testIdText(page, "verification-status");
      expect(card).toContain("Level Verified");
      expect(card).not.toContain("left to verify");
      expect(linkTexts(page)).not.toContain("Verify your identity");
    }
  });

  it("is not shown to an admin", async () => {
    const admin = await createUser({ role: "admin" });
    const page = await (await getPage("/account", await sessionCookieFor(admin.id))).text();
    expect(testIdText(page, "verification-status")).toBeNull();
    expect(cardTitled(page, "Identity verification")).toBeNull();
  });
});
