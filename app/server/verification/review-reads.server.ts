/**
 * What the back office reads about identity verifications: the review queue (/admin/verifications) and one case
 * with everything its reviewer weighs (/admin/verifications/{id}), each in one round trip.
 */
import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import { figure } from "~/lib/money/rules";
import { displayName } from "~/lib/person-name";
import { DOCUMENT_KINDS, type VerificationStatus } from "../../../db/enums";
import { builtOnce } from "../built-once.server";
import type { Db } from "../db.server";
import { readTogether, schema } from "../db.server";
import { ledgerTotalsQuery, totalsOf } from "../ledger/figures.server";
import { keysetPage } from "../paging.server";
import { levelOf } from "./level-lists.server";

const { verificationCases: cases, verificationDocuments: documents, users, profiles } = schema;

export const QUEUE_PAGE = 50;

/** What a client declared on their case, and when it was sent and decided: their page and the review page read it. */
export const caseDetailColumns = {
  legalFirstName: cases.legalFirstName,
  legalLastName: cases.legalLastName,
  dateOfBirth: cases.dateOfBirth,
  country: cases.country,
  address: cases.address,
  documentType: cases.documentType,
  documentNumber: cases.documentNumber,
  submittedAt: cases.submittedAt,
  reviewedAt: cases.reviewedAt,
};

/** A queue page's boundary: the case's submission time (0 for one never sent) and its id. */
export interface QueueCursor {
  submittedAt: number;
  id: number;
}

export const encodeQueueCursor = (cursor: QueueCursor) => `${cursor.submittedAt}~${cursor.id}`;

export function decodeQueueCursor(text: string | null): QueueCursor | null {
  const match = /^(\d{1,16})~(\d{1,12})$/.exec(text ?? "");
  return match ? { submittedAt: Number(match[1]), id: Number(match[2]) } : null;
}

/**
 * The cases of one status, oldest submission first (so the longest wait is decided first), 50 a page, each with its
 * client's level (`introducedAt`: VERIFICATION_INTRODUCED_AT).
 */
export async function verificationQueue(
  db: Db,
  status: VerificationStatus,
  introducedAt: number,
  after: QueueCursor | null = null,
  now = Date.now(),
) {
  const sentAt = sql<number>`coalesce(${cases.submittedAt}, 0)`;
  const rows = await db
    .select({
      id: cases.id,
      userId: cases.userId,
      status: cases.status,
      legalFirstName: cases.legalFirstName,
      legalLastName: cases.legalLastName,
      country: cases.country,
      documentType: cases.documentType,
      submittedAt: cases.submittedAt,
      email: users.email,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      registeredAt: users.createdAt,
    })
    .from(cases)
    .innerJoin(users, eq(users.id, cases.userId))
    .leftJoin(profiles, eq(profiles.userId, cases.userId))
    .where(
      and(
        eq(cases.status, status),
        isNull(cases.endedAt),
        after ? sql`(${sentAt}, ${cases.id}) > (${after.submittedAt}, ${after.id})` : undefined,
      ),
    )
    .orderBy(asc(sentAt), asc(cases.id))
    .limit(QUEUE_PAGE + 1);
  const page = keysetPage(rows, { after }, QUEUE_PAGE, (row) =>
    encodeQueueCursor({ submittedAt: row.submittedAt ?? 0, id: row.id }),
  );
  return {
    cases: page.rows.map((row) => ({
      id: row.id,
      userId: row.userId,
      status: row.status,
      name: legalName(row) ?? displayName(row.firstName, row.lastName, row.email),
      email: row.email,
      country: row.country,
      documentType: row.documentType,
      submittedAt: row.submittedAt,
      registeredAt: row.registeredAt,
      level: levelOf({ caseStatus: row.status, createdAt: row.registeredAt }, now, introducedAt),
    })),
    next: page.next,
  };
}

const legalName = (row: { legalFirstName: string | null; legalLastName: string | null }) =>
  `${row.legalFirstName ?? ""} ${row.legalLastName ?? ""}`.trim() || null;

/** The client's live case (id and status), for their page's level; none until they start one. */
export const liveCaseQuery = (db: Db, userId: string) =>
  db
    .select({ id: cases.id, status: cases.status })
    .from(cases)
    .where(and(eq(cases.userId, userId), isNull(cases.endedAt)))
    .limit(1);

/** The client's level and where their case is reviewed, for the back office's client page. */
export function clientVerification(
  rows: Array<{ id: number; status: VerificationStatus }>,
  registeredAt: number,
  introducedAt: number,
  now = Date.now(),
) {
  const live = rows[0] ?? null;
  return {
    level: levelOf({ caseStatus: live?.status ?? null, createdAt: registeredAt }, now, introducedAt),
    status: live?.status ?? null,
    caseId: live?.id ?? null,
  };
}

/** The cases awaiting review, for the desk's count: the queue's own index answers it. */
export const awaitingReviewQuery = builtOnce((db) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(cases)
    .where(sql`${cases.status} = 'submitted' AND ${cases.endedAt} IS NULL`),
);

/**
 * One case as its reviewer sees it: what the client declared, their current files (a replaced file stays stored
 * as evidence but is not what is reviewed), the client's account (registration, country given at sign-up, e-mail,
 * status) and their deposits so far (approved and pending), and who decided it last.
 */
export async function reviewCase(db: Db, caseId: number, introducedAt: number, now = Date.now()) {
  const reviewer = sql<string | null>`(SELECT email FROM users r WHERE r.id = ${cases.reviewedBy})`.as("reviewer");
  const { found, files, totals } = await readTogether(db, {
    found: db
      .select({
        id: cases.id,
        userId: cases.userId,
        status: cases.status,
        ...caseDetailColumns,
        reviewNote: cases.reviewNote,
        reviewDocumentKind: cases.reviewDocumentKind,
        endedAt: cases.endedAt,
        reviewer,
        email: users.email,
        registeredAt: users.createdAt,
        firstName: profiles.firstName,
        lastName: profiles.lastName,
        // Aliased: D1 keys a batch's rows by column name, and the case has a country and a status too.
        signUpCountry: sql<string | null>`${profiles.country}`.as("sign_up_country"),
        profileStatus: sql<string | null>`${profiles.status}`.as("profile_status"),
      })
      .from(cases)
      .innerJoin(users, eq(users.id, cases.userId))
      .leftJoin(profiles, eq(profiles.userId, cases.userId))
      .where(eq(cases.id, caseId))
      .limit(1),
    files: db
      .select({
        id: documents.id,
        kind: documents.kind,
        fileName: documents.fileName,
        contentType: documents.contentType,
        sizeBytes: documents.sizeBytes,
        sha256: documents.sha256,
        uploadedAt: documents.uploadedAt,
      })
      .from(documents)
      .where(and(eq(documents.caseId, caseId), isNull(documents.replacedAt)))
      .orderBy(desc(documents.uploadedAt)),
    totals: ledgerTotalsQuery(db, sql`(SELECT user_id FROM verification_cases WHERE id = ${caseId})`),
  });
  const row = found[0];
  if (!row) return null;
  const ledger = totalsOf(totals);
  return {
    case: {
      id: row.id,
      userId: row.userId,
      status: row.status,
      legalName: legalName(row),
      dateOfBirth: row.dateOfBirth,
      country: row.country,
      address: row.address,
      documentType: row.documentType,
      documentNumber: row.documentNumber,
      submittedAt: row.submittedAt,
      reviewedAt: row.reviewedAt,
      reviewer: row.reviewer,
      reviewNote: row.reviewNote,
      reviewDocumentKind: row.reviewDocumentKind,
      ended: row.endedAt !== null,
    },
    client: {
      id: row.userId,
      name: displayName(row.firstName, row.lastName, row.email),
      email: row.email,
      registeredAt: row.registeredAt,
      signUpCountry: row.signUpCountry,
      suspended: row.profileStatus === "suspended",
      level: levelOf(
        { caseStatus: row.endedAt === null ? row.status : null, createdAt: row.registeredAt },
        now,
        introducedAt,
      ),
      approvedDepositsCents: figure(ledger, "deposits"),
      pendingDepositsCents: figure(ledger, "pendingIn"),
    },
    // In the order a person reads a case: the document's front, its back, then the proof of address.
    documents: files.toSorted((a, b) => DOCUMENT_KINDS.indexOf(a.kind) - DOCUMENT_KINDS.indexOf(b.kind)),
  };
}
