/**
 * What a client reads about their own verification (the dashboard, Account Settings, /account/verification): the
 * level, the case's status, the reviewer's words when they matter, and the days left before deposits stop. Made
 * from the rules of `verification.ts`; browser-safe.
 */
import type { DocumentKind, VerificationStatus } from "../../db/enums";
import {
  DOCUMENT_KIND_LABELS,
  VERIFICATION_LEVEL_LABELS,
  VERIFICATION_STATUS_LABELS,
  type VerificationLevel,
  verificationDaysLeft,
  verificationLevel,
} from "./verification";

/** The stored facts a summary is made of: the account's registration and its live case, if any. */
export interface VerificationState {
  createdAt: number;
  status: VerificationStatus | null;
  reviewNote: string | null;
  reviewDocumentKind: DocumentKind | null;
}

export interface VerificationSummary {
  level: VerificationLevel;
  levelLabel: string;
  status: VerificationStatus | "none";
  statusLabel: string;
  /** Days before deposits stop, while not verified (0 once restricted); null when verified. */
  daysLeft: number | null;
  /** Rejected: the reviewer's reason. More information needed: their message. */
  reviewNote: string | null;
  /** More information needed: the document to send again, as the page names it. */
  reviewDocumentLabel: string | null;
}

/** The summary at `now`, verification having begun at `introducedAt` (the VERIFICATION_INTRODUCED_AT setting). */
export function summarizeVerification(
  state: VerificationState,
  now: number,
  introducedAt: number,
): VerificationSummary {
  const level = verificationLevel(state.status, state.createdAt, now, introducedAt);
  const status = state.status ?? "none";
  const decided = status === "rejected" || status === "more_info_needed";
  return {
    level,
    levelLabel: VERIFICATION_LEVEL_LABELS[level],
    status,
    statusLabel: VERIFICATION_STATUS_LABELS[status],
    daysLeft: level === "verified" ? null : verificationDaysLeft(state.createdAt, now, introducedAt),
    reviewNote: decided ? state.reviewNote : null,
    reviewDocumentLabel:
      status === "more_info_needed" && state.reviewDocumentKind ? DOCUMENT_KIND_LABELS[state.reviewDocumentKind] : null,
  };
}

/** '3 days left to verify your identity', '1 day left…'; past the deadline, what that means. */
export function daysLeftText(summary: VerificationSummary): string | null {
  if (summary.daysLeft === null) return null;
  if (summary.level === "restricted")
    return "Your verification deadline has passed: new deposits are paused until you are verified.";
  return `${summary.daysLeft} ${summary.daysLeft === 1 ? "day" : "days"} left to verify your identity.`;
}
