import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { STEP_UP_MESSAGES } from "~/lib/step-up";
import { DOCUMENT_KIND_LABELS } from "~/lib/verification";
import { REVIEW_MESSAGES } from "~/lib/verification-review";
import {
  countRows,
  createUser,
  getPage,
  postForm,
  sessionCookieFor,
  signedInAdmin,
  totpCode,
} from "../support/fixtures";
import {
  alerts,
  cardTitled,
  fieldLabel,
  imageSource,
  linkHref,
  statuses as successes,
  termValue,
  testIdText,
} from "../support/places";
import { tableRows } from "../support/tables";
import { insertCase, submittedCase } from "../support/verification-fixtures";

let admin: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  admin = await signedInAdmin();
});

const viewsOf = (documentId: string) =>
  countRows("audit_log", "action = 'verification.document_view' AND target = ?", `document:${documentId}`);

async function caseRow(id: number) {
  return env.DB.prepare(
    "SELECT status, reviewed_by AS reviewedBy, review_note AS reviewNote, review_document_kind AS documentKind FROM verification_cases WHERE id = ?",
  )
    .bind(id)
    .first<{ status: string; reviewedBy: string | null; reviewNote: string | null; documentKind: string | null }>();
}

async function mailsTo(email: string) {
  const { results } = await env.DB.prepare(
    "SELECT payload FROM email_outbox WHERE to_address = ? AND template = 'verification_decided' ORDER BY id",
  )
    .bind(email)
    .all<{ payload: string }>();
  return results.map((row) => JSON.parse(row.payload) as Record<string, unknown>);
}

describe("the queue", () => {
  it("lists submitted cases oldest first, filters by status, and the desk counts those awaiting review", async () => {
    const older = await createUser({ firstName: "Olga" });
    const newer = await createUser({ firstName: "Nina" });
    const decided = await createUser({ firstName: "Dora" });
    const base = Date.now() - 3_600_000;
    await insertCase(newer.id, { submittedAt: base + 2_000, legalFirstName: "Newer" });
    await insertCase(older.id, { submittedAt: base + 1_000, legalFirstName: "Older" });
    await insertCase(decided.id, { status: "rejected", legalFirstName: "Decided" });
    const html = await (await getPage("/admin/verifications", admin.cookie)).text();
    const queue = (page: string) => tableRows(page, "verification-queue").map((cells) => cells.join(" | "));
    const rowOf = (page: string, name: string) => queue(page).findIndex((row) => row.includes(name));
    expect(rowOf(html, "Older Tester")).not.toBe(-1);
    expect(rowOf(html, "Older Tester")).toBeLessThan(rowOf(html, "Newer Tester"));
    expect(rowOf(html, "Decided Tester")).toBe(-1);

    const rejected = await (await getPage("/admin/verifications?status=rejected", admin.cookie)).text();
    expect(rowOf(rejected, "Decided Tester")).not.toBe(-1);
    expect(rowOf(rejected, "Older Tester")).toBe(-1);
    const bad = await (await getPage("/admin/verifications?status=bogus", admin.cookie)).text();
    expect(alerts(bad)).toContain(REVIEW_MESSAGES.statusFilter);

    const awaiting = await countRows("verification_cases", "status = 'submitted' AND ended_at IS NULL");
    const desk = await (await getPage("/admin", admin.cookie)).text();
    expect(testIdText(desk, "awaiting-review")).toBe(String(awaiting));
  });

  it("is for admins only", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    for (const path of ["/admin/verifications", "/admin/verifications/1"]) {
      expect((await getPage(path, cookie)).headers.get("Location")).toBe("/dashboard");
    }
  });
});

describe("the review page", () => {
  it("shows the declared data beside each document: the image inline, the PDF to download", async () => {
    const client = await createUser({ firstName: "Rita" });
    const kase = await submittedCase(client.id, { legalFirstName: "Margarita" });
    const html = await (await getPage(`/admin/verifications/${kase.id}`, admin.cookie)).text();
    expect(termValue(html, "Legal name")).toBe("Margarita Tester");
    expect(imageSource(html, `${DOCUMENT_KIND_LABELS.identity_front} as uploaded by the client`)).toBe(
      `/admin/documents/${kase.front.id}`,
    );
    expect(linkHref(html, `Download ${DOCUMENT_KIND_LABELS.proof_of_address} (PDF)`)).toBe(
      `/admin/documents/${kase.proof.id}`,
    );
    expect(cardTitled(html, DOCUMENT_KIND_LABELS.proof_of_address)).toContain(
      `Download ${DOCUMENT_KIND_LABELS.proof_of_address} (PDF)`,
    );
    expect(termValue(html, "Deposits approved")).toMatch(/^\$[\d,]+\.\d{2}$/);
    expect(cardTitled(html, "Approve")).toContain("Approve verification");
    // Showing the page is not a view of the files: only fetching a file is.
    expect(await viewsOf(kase.front.id)).toBe(0);
  });

  it("answers 404 for an unknown case", async () => {
    expect((await getPage("/admin/verifications/999999999", admin.cookie)).status).toBe(404);
    expect((await getPage("/admin/verifications/abc", admin.cookie)).status).toBe(404);
  });
});

describe("decisions", () => {
  const decide = (id: number, fields: Record<string, string>, cookie = admin.cookie) =>
    postForm(`/admin/verifications/${id}`, fields, { cookie });

  it("approve asks for a fresh code, then makes the client Verified with an audit row and a mail", async () => {
    const reviewer = await createUser({ role: "admin" });
    const staleCookie = await sessionCookieFor(reviewer.id, Date.now(), { freshSecondFactor: false });
    const client = await createUser();
    const kase = await submittedCase(client.id);
    const fields = { intent: "approve", submittedAt: String(kase.submittedAt) };

    const asked = await decide(kase.id, fields, staleCookie);
    expect(asked.status).toBe(401);
    expect(fieldLabel(await asked.text(), "stepUpCode")).toBe(STEP_UP_MESSAGES.prompt);
    expect((await caseRow(kase.id))?.status).toBe("submitted");

    const done = await decide(
      kase.id,
      { ...fields, stepUpCode: totpCode(reviewer.totpSecret as Uint8Array) },
      staleCookie,
    );
    expect(done.status).toBe(200);
    expect(successes(await done.text())).toContain(REVIEW_MESSAGES.approved);
    expect(await caseRow(kase.id)).toMatchObject({ status: "approved", reviewedBy: reviewer.id });
    expect(
      await countRows("audit_log", "action = 'verification.approve' AND target = ?", `verification:${kase.id}`),
    ).toBe(1);
    const [mail] = await mailsTo(client.email);
    expect(mail).toMatchObject({ decision: "approved", name: "Pat" });

    const user = await (await getPage(`/user/${client.id}`, admin.cookie)).text();
    expect(user).toMatch(/data-testid="verification-level"[^>]*>Verified</);
  });

  it("reject needs a reason, which the client is mailed", async () => {
    const client = await createUser();
    const kase = await submittedCase(client.id);
    const fields = { intent: "reject", submittedAt: String(kase.submittedAt) };
    const refused = await decide(kase.id, { ...fields, note: "  " });
    expect(refused.status).toBe(400);
    expect(alerts(await refused.text())).toContain(REVIEW_MESSAGES.reasonRequired);
    expect((await caseRow(kase.id))?.status).toBe("submitted");
    expect(await mailsTo(client.email)).toEqual([]);

    const done = await decide(kase.id, { ...fields, note: "The photo is blurred." });
    expect(successes(await done.text())).toContain(REVIEW_MESSAGES.rejected);
    expect(await caseRow(kase.id)).toMatchObject({ status: "rejected", reviewNote: "The photo is blurred." });
    expect(await mailsTo(client.email)).toEqual([
      expect.objectContaining({ decision: "rejected", note: "The photo is blurred." }),
    ]);
    const audit = await env.DB.prepare(
      "SELECT detail FROM audit_log WHERE action = 'verification.reject' AND target = ?",
    )
      .bind(`verification:${kase.id}`)
      .first<{ detail: string }>();
    expect(JSON.parse(audit?.detail ?? "{}")).toMatchObject({
      before: "submitted",
      after: "rejected",
      reason: "The photo is blurred.",
    });
  });

  it("more information needs the document and a message", async () => {
    const client = await createUser();
    const kase = await submittedCase(client.id);
    const fields = { intent: "request_info", submittedAt: String(kase.submittedAt) };
    const noDocument = await decide(kase.id, { ...fields, note: "Send a recent bill." });
    expect(alerts(await noDocument.text())).toContain(REVIEW_MESSAGES.documentRequired);
    const noMessage = await decide(kase.id, { ...fields, documentKind: "proof_of_address" });
    expect(alerts(await noMessage.text())).toContain(REVIEW_MESSAGES.messageRequired);
    const badDocument = await decide(kase.id, { ...fields, documentKind: "selfie", note: "x" });
    expect(alerts(await badDocument.text())).toContain(REVIEW_MESSAGES.documentRequired);
    // The case is a passport's: it has no back to send again.
    const noSuchSide = await decide(kase.id, { ...fields, documentKind: "identity_back", note: "Send the back." });
    expect(noSuchSide.status).toBe(400);
    expect(alerts(await noSuchSide.text())).toContain(REVIEW_MESSAGES.documentRequired);
    expect((await caseRow(kase.id))?.status).toBe("submitted");

    const done = await decide(kase.id, { ...fields, documentKind: "proof_of_address", note: "Send a recent bill." });
    expect(successes(await done.text())).toContain(REVIEW_MESSAGES.infoRequested);
    expect(await caseRow(kase.id)).toMatchObject({ status: "more_info_needed", documentKind: "proof_of_address" });
    expect(await mailsTo(client.email)).toEqual([
      expect.objectContaining({ decision: "more_info_needed", documentKind: "proof_of_address" }),
    ]);
  });

  it("is taken once when admins decide in parallel: one decision, one audit row, one mail", async () => {
    const admins = await Promise.all([1, 2, 3, 4, 5].map(() => signedInAdmin()));
    const client = await createUser();
    const kase = await submittedCase(client.id);
    const forms: Array<Record<string, string>> = [
      { intent: "approve" },
      { intent: "reject", note: "No." },
      { intent: "request_info", documentKind: "identity_front", note: "Again." },
      { intent: "approve" },
      { intent: "reject", note: "Still no." },
    ];
    const replies = await Promise.all(
      forms.map((form, i) =>
        decide(kase.id, { ...form, submittedAt: String(kase.submittedAt) }, admins[i]?.cookie as string),
      ),
    );
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(4);
    for (const reply of replies)
      if (reply.status === 409) expect(alerts(await reply.text())).toContain(REVIEW_MESSAGES.alreadyDecided);
    expect(
      await countRows(
        "audit_log",
        "action LIKE 'verification.%' AND action <> 'verification.document_view' AND target = ?",
        `verification:${kase.id}`,
      ),
    ).toBe(1);
    expect(await mailsTo(client.email)).toHaveLength(1);
  });

  it("refuses a decision from a page older than the client's latest submission", async () => {
    const client = await createUser();
    const kase = await submittedCase(client.id);
    // The client was asked for more, and sent the case again after the reviewer's page was loaded.
    await env.DB.prepare("UPDATE verification_cases SET submitted_at = ? WHERE id = ?")
      .bind(kase.submittedAt + 5_000, kase.id)
      .run();
    const stale = await decide(kase.id, { intent: "reject", note: "Blurred", submittedAt: String(kase.submittedAt) });
    expect(stale.status).toBe(409);
    expect((await caseRow(kase.id))?.status).toBe("submitted");
    expect(await mailsTo(client.email)).toEqual([]);
  });

  it("refuses a decision on a case that is not submitted, or that does not exist", async () => {
    const client = await createUser();
    const draft = await insertCase(client.id, { status: "draft" });
    const onDraft = await decide(draft.id, { intent: "reject", note: "x", submittedAt: "0" });
    expect(onDraft.status).toBe(409);
    const missing = await decide(999_999_999, { intent: "reject", note: "x", submittedAt: "1" });
    expect(missing.status).toBe(404);
  });
});
