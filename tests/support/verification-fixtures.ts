import { env } from "cloudflare:workers";
import { schema } from "~/server/db.server";
import type { DocumentContentType, DocumentKind, IdentityDocumentType, VerificationStatus } from "../../db/enums";
import { db } from "./fixtures";

/**
 * Identity verification cases and their files as the client's upload and submit leave them: rows written
 * directly, and the bytes put into the real local R2 bucket (env.DOCUMENTS), for the back office's tests.
 */

/** The smallest files whose first bytes say what they are. */
export const SAMPLE_FILES: Record<DocumentContentType, Uint8Array<ArrayBuffer>> = {
  "image/png": Uint8Array.from([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00, 0x0d, 0x49,
    0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x60, 0x60, 0x60, 0xf8, 0x0f, 0x00, 0x01, 0x04, 0x01, 0x00, 0x5f, 0xe5, 0xc3,
    0x4b, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
  ]),
  "image/jpeg": Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]),
  "application/pdf": new TextEncoder().encode(
    "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
  ),
};

let submissions = 0;

/**
 * A client's live case. A submitted case has a distinct `submittedAt` (a decision names it) unless one is given.
 */
export async function insertCase(
  userId: string,
  options: {
    status?: VerificationStatus;
    submittedAt?: number | null;
    documentType?: IdentityDocumentType;
    legalFirstName?: string;
    country?: string;
  } = {},
) {
  const status = options.status ?? "submitted";
  const submittedAt =
    options.submittedAt !== undefined
      ? options.submittedAt
      : status === "draft"
        ? null
        : Date.now() - 60_000 + ++submissions;
  const row = await db
    .insert(schema.verificationCases)
    .values({
      userId,
      status,
      legalFirstName: options.legalFirstName ?? "Pat",
      legalLastName: "Tester",
      dateOfBirth: "1990-04-01",
      country: options.country ?? "GB",
      address: "1 Test Street, London",
      documentType: options.documentType ?? "passport",
      documentNumber: "123456789",
      submittedAt,
    })
    .returning({ id: schema.verificationCases.id, submittedAt: schema.verificationCases.submittedAt })
    .get();
  return { id: row.id, submittedAt: row.submittedAt };
}

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** A file of a case: its bytes in the bucket under a random key, its row in D1. */
export async function insertDocument(
  kase: { id: number },
  userId: string,
  options: {
    kind?: DocumentKind;
    contentType?: DocumentContentType;
    bytes?: Uint8Array<ArrayBuffer>;
    fileName?: string;
  } = {},
) {
  const contentType = options.contentType ?? "image/png";
  const bytes = options.bytes ?? SAMPLE_FILES[contentType];
  const id = crypto.randomUUID().replaceAll("-", "");
  const objectKey = `documents/${crypto.randomUUID()}`;
  await env.DOCUMENTS.put(objectKey, bytes);
  await db.insert(schema.verificationDocuments).values({
    id,
    caseId: kase.id,
    userId,
    kind: options.kind ?? "identity_front",
    objectKey,
    fileName: options.fileName ?? "scan.png",
    contentType,
    sizeBytes: bytes.byteLength,
    sha256: hex(await crypto.subtle.digest("SHA-256", bytes)),
  });
  return { id, objectKey, bytes };
}

/** A submitted passport case with its two files (front as PNG, proof of address as PDF). */
export async function submittedCase(userId: string, options: Parameters<typeof insertCase>[1] = {}) {
  const kase = await insertCase(userId, { ...options, status: "submitted" });
  const front = await insertDocument(kase, userId, { kind: "identity_front", contentType: "image/png" });
  const proof = await insertDocument(kase, userId, {
    kind: "proof_of_address",
    contentType: "application/pdf",
    fileName: "bill.pdf",
  });
  return { ...kase, submittedAt: kase.submittedAt as number, front, proof };
}
