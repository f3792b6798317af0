/**
 * Identity verification's rules and words, shared by the server and the pages (docs/product.md, "Identity
 * verification"). The money limits that depend on the level are configuration (UNVERIFIED_DEPOSIT_LIMIT,
 * WITHDRAWAL_LIMIT_DAY, WITHDRAWAL_LIMIT_MONTH); everything else about verification is here.
 */
import type { DocumentContentType, DocumentKind, IdentityDocumentType, VerificationStatus } from "../../db/enums";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A document is at most 10 MB (10 × 1024 × 1024 bytes). */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** A client has this many days from registration to be verified before deposits stop. */
export const VERIFICATION_DEADLINE_DAYS = 14;
/** Reminder mails go out when this many days are left (each once). */
export const VERIFICATION_REMINDER_DAYS = [7, 1] as const;
/**
 * The day verification began in production, the VERIFICATION_INTRODUCED_AT setting's default: an account registered
 * before it has its 14 days from that day, not from its registration (it could not have verified earlier). The day
 * in force is the setting (`env.VERIFICATION_INTRODUCED_AT`), which a local run sets earlier so that an old
 * unverified account can be seen Restricted.
 */
export const DEFAULT_VERIFICATION_INTRODUCED_AT = Date.UTC(2026, 10, 25);
/** A proof of address must be issued within this many months. */
export const PROOF_OF_ADDRESS_MAX_AGE_MONTHS = 3;
/** Evidence of a verification is kept this many years after the account ends. */
export const VERIFICATION_RETENTION_YEARS = 5;
/** A client must be at least this old. */
export const MINIMUM_AGE_YEARS = 18;

export const VERIFICATION_ROLLING_DAY_MS = DAY_MS;
export const VERIFICATION_ROLLING_MONTH_MS = 30 * DAY_MS;

/**
 * When a client who registered at `createdAt` must be verified by, verification having begun at `introducedAt`
 * (the VERIFICATION_INTRODUCED_AT setting).
 */
export function verificationDueAt(createdAt: number, introducedAt: number): number {
  return Math.max(createdAt, introducedAt) + VERIFICATION_DEADLINE_DAYS * DAY_MS;
}

/** Whole days left before the deadline, rounded up (0 once it has passed). */
export function verificationDaysLeft(createdAt: number, now: number, introducedAt: number): number {
  return Math.max(0, Math.ceil((verificationDueAt(createdAt, introducedAt) - now) / DAY_MS));
}

/** When evidence of an account that ended at `endedAt` may be deleted: five years later, to the millisecond. */
export function retainUntil(endedAt: number): number {
  const until = new Date(endedAt);
  until.setUTCFullYear(until.getUTCFullYear() + VERIFICATION_RETENTION_YEARS);
  return until.getTime();
}

/**
 * A client's level: Verified once an admin approved their case; Restricted when unverified past the deadline
 * (new deposits stop; nothing in the ledger changes); Unverified before.
 */
export type VerificationLevel = "unverified" | "verified" | "restricted";

export function verificationLevel(
  status: VerificationStatus | null,
  createdAt: number,
  now: number,
  introducedAt: number,
): VerificationLevel {
  if (status === "approved") return "verified";
  return now >= verificationDueAt(createdAt, introducedAt) ? "restricted" : "unverified";
}

/**
 * The statuses in which the client may change their case (details and files) and send it: before it was sent, and
 * after a reviewer rejected it or asked for more. While it is in review, and once approved, it is locked.
 */
export const CLIENT_EDITABLE_STATUSES = [
  "draft",
  "rejected",
  "more_info_needed",
] as const satisfies readonly VerificationStatus[];

export const isEditableByClient = (status: VerificationStatus | null): boolean =>
  status === null || (CLIENT_EDITABLE_STATUSES as readonly VerificationStatus[]).includes(status);

export const VERIFICATION_LEVEL_LABELS: Record<VerificationLevel, string> = {
  unverified: "Unverified",
  verified: "Verified",
  restricted: "Restricted",
};

/** What the client and the desk read as the case's state; no case yet (or one not sent) is 'Not started'. */
export const VERIFICATION_STATUS_LABELS: Record<VerificationStatus | "none", string> = {
  none: "Not started",
  draft: "Not started",
  submitted: "Submitted, in review",
  approved: "Verified",
  rejected: "Rejected",
  more_info_needed: "More information needed",
};

export const IDENTITY_DOCUMENT_TYPE_LABELS: Record<IdentityDocumentType, string> = {
  passport: "Passport",
  national_id: "National identity card",
  driving_licence: "Driving licence",
};

export const DOCUMENT_KIND_LABELS: Record<DocumentKind, string> = {
  identity_front: "Identity document (front)",
  identity_back: "Identity document (back)",
  proof_of_address: "Proof of address",
};

/** What each document slot asks for. */
export const DOCUMENT_KIND_HINTS: Record<DocumentKind, string> = {
  identity_front: "The page or side with your photo. JPEG, PNG or PDF, at most 10 MB.",
  identity_back: "The other side of your card or licence. JPEG, PNG or PDF, at most 10 MB.",
  proof_of_address:
    "A utility bill, bank statement or tax letter with your name and address, issued in the last 3 months. JPEG, PNG or PDF, at most 10 MB.",
};

/** The files a case needs for its identity document type: a passport has no back. */
export function requiredDocumentKinds(documentType: IdentityDocumentType): DocumentKind[] {
  return documentType === "passport"
    ? ["identity_front", "proof_of_address"]
    : ["identity_front", "identity_back", "proof_of_address"];
}

/** The file extension a stored document is downloaded with. */
export const DOCUMENT_EXTENSIONS: Record<DocumentContentType, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "application/pdf": "pdf",
};

export const VERIFICATION_MESSAGES = {
  fileRefused: "Upload a JPEG, PNG or PDF file of at most 10 MB.",
  fileTooLarge: "This file is larger than 10 MB. Upload a JPEG, PNG or PDF file of at most 10 MB.",
  verifyBeforeWithdrawing: "Verify your identity before you withdraw.",
  inReview:
    "Your documents are being reviewed. We will e-mail you as soon as they are decided: there is nothing more to do.",
  restricted:
    "Your account is restricted: verify your identity to make new deposits. Finish your verification in Account Settings.",
  caseLocked: "Your documents are being reviewed and cannot be changed now.",
  submitted: "Thank you. Your documents were sent and are being reviewed.",
  alreadyDecided: "This case was already decided or sent again. Reload the page to see its current state.",
} as const;
