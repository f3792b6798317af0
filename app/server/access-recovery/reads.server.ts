/**
 * What the back office reads of access-recovery requests: the queue beside the verification queue, one request
 * with the client's verified case and documents on file beside the new photos, and a photo itself (each view
 * audited, as for identity documents).
 */
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { displayName } from "~/lib/person-name";
import { ACCESS_RECOVERY_FILE_KINDS, type DocumentContentType } from "../../../db/enums";
import { auditInsert } from "../audit.server";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import type { WorkerBindings } from "../env.server";
import { forbidden } from "../http.server";
import { assertMay, type BackOfficeActor } from "../permissions.server";
import { auditedFile, DOCUMENT_ID } from "../verification/admin-documents.server";
import { reviewCase } from "../verification/review-reads.server";

const { accessRecoveryRequests: requests, accessRecoveryFiles: files, users, profiles } = schema;
const firstApprover = alias(users, "first_approver");
const decider = alias(users, "decider");

/** The requests waiting for a decision, oldest first: the longest wait is decided first. */
export async function recoveryQueue(db: Db) {
  const rows = await db
    .select({
      id: requests.id,
      userId: requests.userId,
      status: requests.status,
      submittedAt: requests.submittedAt,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: users.email,
      firstApprovedBy: firstApprover.email,
    })
    .from(requests)
    .innerJoin(users, eq(users.id, requests.userId))
    .leftJoin(profiles, eq(profiles.userId, requests.userId))
    .leftJoin(firstApprover, eq(firstApprover.id, requests.firstApprovedBy))
    .where(inArray(requests.status, ["submitted", "first_approved"]))
    .orderBy(asc(requests.submittedAt), asc(requests.id))
    .limit(100);
  return rows.map((row) => ({
    id: row.id,
    userId: row.userId,
    status: row.status,
    submittedAt: row.submittedAt,
    email: row.email,
    firstApprovedBy: row.firstApprovedBy,
    name: displayName(row.firstName, row.lastName, row.email),
  }));
}

/** One request, its new photos, and the client's verified case with its documents on file; null if none. */
export async function recoveryReview(db: Db, requestId: number, introducedAt: number) {
  const request = await db
    .select({
      id: requests.id,
      userId: requests.userId,
      caseId: requests.caseId,
      status: requests.status,
      createdAt: requests.createdAt,
      submittedAt: requests.submittedAt,
      userAgent: requests.userAgent,
      country: requests.country,
      city: requests.city,
      firstApprovedById: requests.firstApprovedBy,
      firstApprovedBy: firstApprover.email,
      firstApprovedAt: requests.firstApprovedAt,
      decidedBy: decider.email,
      decidedAt: requests.decidedAt,
      refusalReason: requests.refusalReason,
    })
    .from(requests)
    .leftJoin(firstApprover, eq(firstApprover.id, requests.firstApprovedBy))
    .leftJoin(decider, eq(decider.id, requests.decidedBy))
    .where(eq(requests.id, requestId))
    .get();
  if (!request) return null;
  const [photos, onFile] = await Promise.all([
    db
      .select({
        id: files.id,
        kind: files.kind,
        fileName: files.fileName,
        contentType: files.contentType,
        sizeBytes: files.sizeBytes,
        sha256: files.sha256,
        uploadedAt: files.uploadedAt,
      })
      .from(files)
      .where(and(eq(files.requestId, requestId), isNull(files.replacedAt))),
    reviewCase(db, request.caseId, introducedAt),
  ]);
  return {
    request,
    photos: photos.toSorted(
      (a, b) => ACCESS_RECOVERY_FILE_KINDS.indexOf(a.kind) - ACCESS_RECOVERY_FILE_KINDS.indexOf(b.kind),
    ),
    onFile,
  };
}

/** One photo of a request for an admin: the audit row, then the file; null when there is none (nothing written). */
export async function viewRecoveryFile(
  context: { db: Db; bindings: Pick<WorkerBindings, "DOCUMENTS"> },
  admin: BackOfficeActor,
  fileId: string,
  now = Date.now(),
): Promise<Response | null> {
  if (!assertMay(admin, "restoreAccess").ok) forbidden();
  if (!DOCUMENT_ID.test(fileId)) return null;
  const file = await context.db
    .select({
      id: files.id,
      requestId: files.requestId,
      userId: files.userId,
      kind: files.kind,
      objectKey: files.objectKey,
      contentType: sql<DocumentContentType>`${files.contentType}`,
      sha256: files.sha256,
    })
    .from(files)
    .where(eq(files.id, fileId))
    .get();
  if (!file) return null;
  return auditedFile(
    context,
    file,
    auditInsert({
      actor: admin,
      action: "access_recovery.file_view",
      target: `access_recovery_file:${file.id}`,
      detail: { client: file.userId, request: file.requestId, file: file.kind, sha256: file.sha256 },
      at: now,
    }),
  );
}
