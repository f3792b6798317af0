/**
 * A client's own verification case: what their pages read, and the submit command, which sends the case for
 * review (draft, rejected or more information needed → submitted) in one conditional statement that also checks
 * the files are there. While a case is in review or approved, nothing of it changes (docs/product.md, "Identity
 * verification").
 */
import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { VERIFICATION_FORM_MESSAGES, type VerificationDetails } from "~/lib/schemas/verification";
import {
  CLIENT_EDITABLE_STATUSES,
  DOCUMENT_KIND_LABELS,
  isEditableByClient,
  requiredDocumentKinds,
  VERIFICATION_MESSAGES,
} from "~/lib/verification";
import type { VerificationState } from "~/lib/verification-summary";
import type { DocumentKind, VerificationStatus } from "../../../db/enums";
import { afterCommit, type CommandContext, type Outcome } from "../commands.server";
import { type Db, readTogether, returning, schema, writeTogether } from "../db.server";
import { caseDetailColumns } from "./review-reads.server";

const { verificationCases: cases, verificationDocuments: documents, users } = schema;

const isLive = isNull(cases.endedAt);
const editableList = sql.raw(CLIENT_EDITABLE_STATUSES.map((status) => `'${status}'`).join(", "));

/** The client's live case while they may still change it, as rows to select from (`FROM …`, `SELECT id FROM …`). */
export const editableCaseOf = (clientId: string): SQL =>
  sql`verification_cases WHERE user_id = ${clientId} AND ended_at IS NULL AND status IN (${editableList})`;

/** The status of the client's live case, or null when they have none. */
export async function liveCaseStatus(db: Db, clientId: string): Promise<VerificationStatus | null> {
  const row = await db
    .select({ status: cases.status })
    .from(cases)
    .where(and(eq(cases.userId, clientId), isLive))
    .get();
  return row?.status ?? null;
}

/**
 * The facts a verification summary is made of (registration, the live case's status and review), as one query a
 * page adds to its batch.
 */
export function verificationStateQuery(db: Db, userId: string) {
  return db
    .select({
      createdAt: users.createdAt,
      status: cases.status,
      reviewNote: cases.reviewNote,
      reviewDocumentKind: cases.reviewDocumentKind,
    })
    .from(users)
    .leftJoin(cases, and(eq(cases.userId, users.id), isLive))
    .where(eq(users.id, userId))
    .limit(1);
}

/** The first row of `verificationStateQuery`, with no case read as none. */
export const stateOf = (rows: VerificationState[]): VerificationState | null => rows[0] ?? null;

const documentColumns = {
  kind: documents.kind,
  fileName: documents.fileName,
  contentType: documents.contentType,
  sizeBytes: documents.sizeBytes,
  uploadedAt: documents.uploadedAt,
};

/** /account/verification: the summary's facts, the live case's details and its current files, in one round trip. */
export async function verificationPageData(db: Db, clientId: string) {
  const { state, details, files } = await readTogether(db, {
    state: verificationStateQuery(db, clientId),
    details: db
      .select(caseDetailColumns)
      .from(cases)
      .where(and(eq(cases.userId, clientId), isLive))
      .limit(1),
    files: db
      .select(documentColumns)
      .from(documents)
      .innerJoin(cases, eq(cases.id, documents.caseId))
      .where(and(eq(cases.userId, clientId), isLive, isNull(documents.replacedAt))),
  });
  return { state: stateOf(state), details: details[0] ?? null, files };
}

/** The current file of one kind in a case, with the SQL of the case's row (`verification_cases`). */
const currentFile = (kind: DocumentKind | SQL, since?: SQL) =>
  sql`EXISTS (SELECT 1 FROM verification_documents AS d WHERE d.case_id = verification_cases.id AND d.kind = ${kind}
              AND d.replaced_at IS NULL ${since ? sql`AND d.uploaded_at > ${since}` : sql``})`;

/** The first refusal a case's files give, for the message and the field it names. */
function missingFile(
  details: VerificationDetails,
  current: Array<{ kind: DocumentKind; uploadedAt: number }>,
  review: { status: VerificationStatus | null; reviewDocumentKind: DocumentKind | null; reviewedAt: number | null },
): { error: string; field: string } | null {
  for (const kind of requiredDocumentKinds(details.documentType)) {
    if (!current.some((file) => file.kind === kind))
      return {
        error: VERIFICATION_FORM_MESSAGES.missingDocument(DOCUMENT_KIND_LABELS[kind]),
        field: `document-${kind}`,
      };
  }
  const asked = review.status === "more_info_needed" ? review.reviewDocumentKind : null;
  if (asked && !current.some((file) => file.kind === asked && file.uploadedAt > (review.reviewedAt ?? 0)))
    return {
      error: VERIFICATION_FORM_MESSAGES.newDocumentNeeded(DOCUMENT_KIND_LABELS[asked]),
      field: `document-${asked}`,
    };
  return null;
}

/**
 * Sends the client's case for review with the details of the form. Refused, changing nothing: a case in review or
 * approved (409, 'Your documents are being reviewed…'), a missing file (400, naming it), the file the reviewer
 * asked for not sent again since (400). The statement itself re-checks all of it, so a second tab or a late
 * upload cannot slip past.
 */
export async function submitVerification(
  context: CommandContext,
  clientId: string,
  details: VerificationDetails,
  now = Date.now(),
): Promise<Outcome<{ caseId: number; submittedAt: number }> & { field?: string }> {
  const { review, current } = await readTogether(context.db, {
    review: context.db
      .select({ status: cases.status, reviewDocumentKind: cases.reviewDocumentKind, reviewedAt: cases.reviewedAt })
      .from(cases)
      .where(and(eq(cases.userId, clientId), isLive))
      .limit(1),
    current: context.db
      .select({ kind: documents.kind, uploadedAt: documents.uploadedAt })
      .from(documents)
      .innerJoin(cases, eq(cases.id, documents.caseId))
      .where(and(eq(cases.userId, clientId), isLive, isNull(documents.replacedAt))),
  });
  const live = review[0] ?? { status: null, reviewDocumentKind: null, reviewedAt: null };
  if (!isEditableByClient(live.status)) return { ok: false, error: VERIFICATION_MESSAGES.caseLocked, status: 409 };
  const missing = missingFile(details, current, live);
  if (missing) return { ok: false, ...missing, status: 400 };

  const filesPresent = requiredDocumentKinds(details.documentType).map((kind) => currentFile(kind));
  const { sent } = await writeTogether(context.db, {
    sent: returning<{ id: number; submittedAt: number }>(
      sql`UPDATE verification_cases
          SET legal_first_name = ${details.legalFirstName}, legal_last_name = ${details.legalLastName},
              date_of_birth = ${details.dateOfBirth}, country = ${details.country}, address = ${details.address},
              document_type = ${details.documentType}, document_number = ${details.documentNumber},
              status = 'submitted', submitted_at = ${now}, updated_at = ${now}
          WHERE user_id = ${clientId} AND ended_at IS NULL AND status IN (${editableList})
            AND ${sql.join(filesPresent, sql` AND `)}
            AND (status <> 'more_info_needed' OR review_document_kind IS NULL
                 OR ${currentFile(sql`verification_cases.review_document_kind`, sql`verification_cases.reviewed_at`)})
          RETURNING id, submitted_at AS submittedAt`,
    ),
  });
  const row = sent[0];
  if (!row) return { ok: false, error: VERIFICATION_MESSAGES.caseLocked, status: 409 };
  // The desk's count of cases awaiting review and its queue follow at once.
  afterCommit(context, { deskEvents: [{ type: "verification.changed", userId: clientId }] });
  return { ok: true, caseId: row.id, submittedAt: row.submittedAt };
}
