/**
 * The back office's review of identity verifications (docs/product.md, "Identity verification"): the queue's
 * status filter as the URL carries it, the three decisions' forms and their messages, in the order they are
 * checked. Shared by the review page (its fields) and the action (the check that counts). Browser-safe.
 */
import { DOCUMENT_KINDS, type DocumentKind, VERIFICATION_STATUSES, type VerificationStatus } from "../../db/enums";
import { formSchema, formValues, type Parsed, text } from "./forms";
import { REASON_MAX_LENGTH } from "./schemas/reason";
import { VERIFICATION_MESSAGES } from "./verification";

export const REVIEW_DECISIONS = ["approve", "reject", "request_info"] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** What each decision makes of a submitted case. */
export const DECISION_STATUS: Record<ReviewDecision, Exclude<VerificationStatus, "draft" | "submitted">> = {
  approve: "approved",
  reject: "rejected",
  request_info: "more_info_needed",
};

export const REVIEW_MESSAGES = {
  reasonRequired: "Enter the reason for the rejection: the client reads it.",
  documentRequired: "Choose the document the client must send again.",
  messageRequired: "Write what the client must send: the client reads it.",
  notFound: "Verification case not found",
  /** A decision on a page whose case changed meanwhile (decided by someone else, or sent again by the client). */
  alreadyDecided: VERIFICATION_MESSAGES.alreadyDecided,
  approved: "Verification approved: the client is Verified.",
  rejected: "Verification rejected: the client was told why.",
  infoRequested: "More information requested: the client was told what to send.",
  statusFilter: "Unknown status filter: showing the cases awaiting review.",
} as const;

export const DECISION_DONE: Record<ReviewDecision, string> = {
  approve: REVIEW_MESSAGES.approved,
  reject: REVIEW_MESSAGES.rejected,
  request_info: REVIEW_MESSAGES.infoRequested,
};

/** The queue shows one status at a time; by default the cases awaiting review. */
export function parseQueueStatus(params: URLSearchParams): { status: VerificationStatus; error: string | null } {
  const value = params.get("status");
  if (!value) return { status: "submitted", error: null };
  if ((VERIFICATION_STATUSES as readonly string[]).includes(value)) {
    return { status: value as VerificationStatus, error: null };
  }
  return { status: "submitted", error: REVIEW_MESSAGES.statusFilter };
}

export interface DecisionInput {
  decision: ReviewDecision;
  /** The submission the page showed: a decision is about that one, never a later one. */
  submittedAt: number;
  note: string | null;
  documentKind: DocumentKind | null;
}

const decisionSchema = formSchema(
  (v) => ({
    decision: text(v.intent) as ReviewDecision,
    submittedAt: /^\d{1,16}$/.test(text(v.submittedAt)) ? Number(text(v.submittedAt)) : null,
    note: text(v.note),
    documentKind: text(v.documentKind) as DocumentKind,
  }),
  [
    // The decision and the submission come from the page itself: a wrong one means the page is stale or forged.
    [(v) => REVIEW_DECISIONS.includes(v.decision), REVIEW_MESSAGES.alreadyDecided],
    [(v) => v.submittedAt !== null, REVIEW_MESSAGES.alreadyDecided],
    [(v) => v.decision !== "reject" || v.note !== "", REVIEW_MESSAGES.reasonRequired, "note"],
    [
      (v) => v.decision !== "request_info" || DOCUMENT_KINDS.includes(v.documentKind),
      REVIEW_MESSAGES.documentRequired,
      "documentKind",
    ],
    [(v) => v.decision !== "request_info" || v.note !== "", REVIEW_MESSAGES.messageRequired, "note"],
  ],
  (v): DecisionInput => ({
    decision: v.decision,
    submittedAt: v.submittedAt as number,
    // An approval carries no text; only a request for information names a document.
    note: v.decision === "approve" ? null : v.note,
    documentKind: v.decision === "request_info" ? v.documentKind : null,
  }),
  { note: { label: "The reason or message", max: REASON_MAX_LENGTH } },
);

export function parseDecisionForm(form: FormData): Parsed<DecisionInput> {
  return decisionSchema.parse(formValues(form), undefined);
}
