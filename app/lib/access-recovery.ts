/**
 * Access recovery (docs/product.md, "Access recovery"): the words and labels of a client's request to get back into
 * an account whose every second factor is lost, shared by the client's page, the back office and the server.
 * Browser-safe.
 */
import type { AccessRecoveryFileKind, AccessRecoveryStatus } from "../../db/enums";
import { formatDateTimeUtc } from "./format";
import { parseReason } from "./schemas/reason";

/** How long the browser that started a request can follow it without signing in (its cookie, and the server's check). */
export const ACCESS_RECOVERY_COOKIE_DAYS = 30;
/**
 * How long a sent request waits before its second approval can restore access: the owner, mailed with a cancel link
 * when it was sent, has a day to stop a request they did not make.
 */
export const ACCESS_RECOVERY_WAIT_MS = 24 * 60 * 60 * 1000;

export const ACCESS_RECOVERY_FILE_LABELS: Record<AccessRecoveryFileKind, string> = {
  identity_photo: "Photo of your identity document",
  selfie: "Selfie holding the document",
};

export const ACCESS_RECOVERY_FILE_HINTS: Record<AccessRecoveryFileKind, string> = {
  identity_photo:
    "The same document you verified with, the page or side with your photo, taken today. JPEG, PNG or PDF, at most 10 MB.",
  selfie: "Your face and the document's photo page side by side, both readable. JPEG, PNG or PDF, at most 10 MB.",
};

/** The back office's names for the same files. */
export const ACCESS_RECOVERY_FILE_ADMIN_LABELS: Record<AccessRecoveryFileKind, string> = {
  identity_photo: "New photo of the identity document",
  selfie: "Selfie holding the document",
};

export const ACCESS_RECOVERY_STATUS_LABELS: Record<AccessRecoveryStatus, string> = {
  open: "Being prepared",
  submitted: "Waiting for a first approval",
  first_approved: "Waiting for a second approval",
  approved: "Approved: access restored",
  refused: "Refused",
  cancelled: "Cancelled",
};

export const ACCESS_RECOVERY_MESSAGES = {
  notVerified:
    "We can restore access only by checking your identity against the documents you verified with us, and this account has not completed identity verification.",
  adminsAsk:
    "An administrator's two-factor sign-in is reset on the team page, by two owners: ask an owner of your team.",
  filesMissing: "Please upload both photos before sending the request.",
  submitted: "Request sent. We will e-mail you when it is decided.",
  cancelled: "Request cancelled.",
  notOpen: "This request can no longer be changed.",
  gone: "This request is not open any more. Sign in again to start a new one.",
  invalidLink: "This link is not valid. Use the link in the latest e-mail, or sign in again.",
  notFound: "Request not found",
  firstApproved: "First approval recorded. A second admin must approve before access is restored.",
  approved: "Approved. The client's second factors are removed and money acts are held for 24 hours.",
  refused: "Request refused. The client has been told.",
  ownFirstApproval: "You gave the first approval: a second admin must approve this request.",
  alreadySent:
    "A request to restore access to this account is already with our compliance team. We e-mailed the account when it was sent; its link cancels it.",
  tooEarly: (from: number) =>
    `The second approval opens ${formatDateTimeUtc(from)}: the client has a day after sending to cancel a request that was not theirs.`,
  decidedMeanwhile: "This request was decided or cancelled meanwhile. Reload to see it.",
  reasonRequired: "Please give the reason the client will read.",
} as const;

export type RecoveryDecisionInput =
  | { decision: "approve"; seenStatus: "submitted" | "first_approved" }
  | { decision: "refuse"; seenStatus: "submitted" | "first_approved"; reason: string };

/**
 * A decision form: its intent, the status the admin's page showed (so an approval never counts for a step it did
 * not see), and for a refusal the reason the client reads.
 */
export function parseRecoveryDecision(
  form: FormData,
): { ok: true; data: RecoveryDecisionInput } | { ok: false; error: string; status: number; field?: string } {
  const intent = form.get("intent");
  const seen = form.get("seenStatus");
  if ((intent !== "approve" && intent !== "refuse") || (seen !== "submitted" && seen !== "first_approved"))
    return { ok: false, error: ACCESS_RECOVERY_MESSAGES.decidedMeanwhile, status: 400 };
  if (intent === "approve") return { ok: true, data: { decision: "approve", seenStatus: seen } };
  const reason = parseReason(form.get("reason"), ACCESS_RECOVERY_MESSAGES.reasonRequired);
  if (!reason.ok) return { ok: false, error: reason.error, status: 400, field: "reason" };
  return { ok: true, data: { decision: "refuse", seenStatus: seen, reason: reason.text } };
}
