import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { auditFacts, auditTarget, factsText } from "~/lib/audit-details";
import { DOCUMENT_CSP } from "~/server/verification/admin-documents.server";
import { countRows, createUser, getPage, sessionCookieFor, signedInAdmin } from "../support/fixtures";
import { submittedCase } from "../support/verification-fixtures";

/** An identity document as the back office sees it: only admins, inert, uncached, every view audited. */

let admin: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  admin = await signedInAdmin();
});

const viewsOf = (documentId: string) =>
  countRows("audit_log", "action = 'verification.document_view' AND target = ?", `document:${documentId}`);

describe("the admin document route", () => {
  it("sends the stored bytes to an admin, inert and uncached, and audits the view", async () => {
    const client = await createUser();
    const kase = await submittedCase(client.id);
    const response = await getPage(`/admin/documents/${kase.front.id}`, admin.cookie);
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(kase.front.bytes);
    expect(response.headers.get("Content-Type")).toBe("image/png");
    expect(response.headers.get("Content-Disposition")).toBe(`inline; filename="identity_front-${kase.front.id}.png"`);
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    // The page policy (with its nonce and script hosts) is replaced by the document's own, under which nothing runs.
    expect(response.headers.get("Content-Security-Policy")).toBe(DOCUMENT_CSP);
    expect(DOCUMENT_CSP).toContain("sandbox");
    expect(DOCUMENT_CSP).not.toMatch(/script-src/);
    expect(await viewsOf(kase.front.id)).toBe(1);
  });

  it("audits every view: who, which document, when", async () => {
    const client = await createUser();
    const kase = await submittedCase(client.id);
    for (let i = 0; i < 3; i++) {
      const response = await getPage(`/admin/documents/${kase.proof.id}`, admin.cookie);
      await response.arrayBuffer();
    }
    expect(await viewsOf(kase.proof.id)).toBe(3);
    const row = await env.DB.prepare(
      "SELECT actor_id AS actorId, detail, created_at AS at FROM audit_log WHERE target = ? ORDER BY id DESC",
    )
      .bind(`document:${kase.proof.id}`)
      .first<{ actorId: string; detail: string; at: number }>();
    expect(row?.actorId).toBe(admin.id);
    expect(JSON.parse(row?.detail ?? "{}")).toMatchObject({
      by: admin.email,
      client: client.id,
      case: kase.id,
      document: "proof_of_address",
    });
    expect(Date.now() - (row?.at ?? 0)).toBeLessThan(60_000);
    // The audit log reads it to people by name.
    const record = {
      action: "verification.document_view",
      target: `document:${kase.proof.id}`,
      detail: JSON.parse(row?.detail ?? "{}"),
    };
    expect(auditTarget(record.target)).toBe(`Document ${kase.proof.id}`);
    expect(factsText(auditFacts(record))).toContain(`Verification case: #${kase.id} · Document: Proof of address`);
  });

  it("downloads a PDF rather than showing it, with the same headers", async () => {
    const client = await createUser();
    const kase = await submittedCase(client.id);
    const response = await getPage(`/admin/documents/${kase.proof.id}`, admin.cookie);
    await response.arrayBuffer();
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="proof_of_address-/);
    expect(response.headers.get("Content-Security-Policy")).toBe(DOCUMENT_CSP);
  });

  it("is closed to clients (even the document's owner) and visitors, and nothing is audited", async () => {
    const client = await createUser();
    const kase = await submittedCase(client.id);
    const owner = await getPage(`/admin/documents/${kase.front.id}`, await sessionCookieFor(client.id));
    expect(owner.status).toBe(302);
    expect(owner.headers.get("Location")).toBe("/dashboard");
    const visitor = await getPage(`/admin/documents/${kase.front.id}`);
    expect(visitor.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
    expect(await viewsOf(kase.front.id)).toBe(0);
  });

  it("answers 404 for a document that does not exist, and audits nothing", async () => {
    const before = await countRows("audit_log", "action = 'verification.document_view'");
    for (const id of ["nope", "..%2F..%2Fsecret", "a".repeat(65)]) {
      expect((await getPage(`/admin/documents/${id}`, admin.cookie)).status).toBe(404);
    }
    expect(await countRows("audit_log", "action = 'verification.document_view'")).toBe(before);
  });
});
