/**
 * The compliance queue's words and input rules (docs/product.md, "Transaction monitoring", "The alerts queue"): what
 * each decision asks for and what it answers. Browser-safe: the page shows the same limits its server checks.
 */
import { FORM_MESSAGES, hasForbiddenCharacters } from "~/lib/forms";
import { parseReason } from "~/lib/schemas/reason";

/** The three decisions an open alert takes, once: the form's intent and the alert's status after it. */
export const ALERT_DISPOSITIONS = {
  dismiss: "dismissed",
  escalate: "escalated",
  report: "reported",
} as const;

export type AlertDisposition = keyof typeof ALERT_DISPOSITIONS;

/** The queue's two views: what awaits a decision, and what was decided. */
export const ALERT_VIEWS = ["open", "decided"] as const;
export type AlertView = (typeof ALERT_VIEWS)[number];

export const alertViewOf = (value: string | null): AlertView => (value === "decided" ? "decided" : "open");

export const REPORT_REFERENCE_MAX_LENGTH = 100;

export const ALERT_MESSAGES = {
  reasonRequired: "Please give the reason for dismissing the alert.",
  noteRequired: "Please write a note for the escalation.",
  referenceRequired: "Please give the reference of the report filed.",
  referenceTooLong: FORM_MESSAGES.tooLong("Reference", REPORT_REFERENCE_MAX_LENGTH),
  referenceCharacters: FORM_MESSAGES.forbiddenCharacters("Reference"),
  notFound: "This alert does not exist.",
  alreadyDecided: "This alert was already decided.",
  grown: "This alert grew since the page showed it: look at its requests again before deciding.",
  clientDeleted: "This client's data was deleted, so no note can be written: dismiss the alert or file a report.",
  dismissed: "Alert dismissed",
  escalated: "Alert escalated: the client is on Watch",
  reported: "Report recorded",
  empty: "No open alerts. New ones appear here as the rules find them.",
  emptyDecided: "No decided alerts yet.",
} as const;

/** The field each decision asks for (its text kept on the alert), and its message when blank. */
export const DISPOSITION_FIELDS: Record<AlertDisposition, { name: string; label: string }> = {
  dismiss: { name: "reason", label: "Reason" },
  escalate: { name: "note", label: "Note" },
  report: { name: "reference", label: "Report reference" },
};

/** The escalation's note on the client, saying where it came from. */
export const escalationNoteText = (alertId: number, ruleName: string, note: string) =>
  `Escalated from monitoring alert #${alertId} (${ruleName}): ${note}`;

/**
 * A decision's text, or the first refusal: a dismissal's reason and an escalation's note are reasons (the one
 * reason parser, at most 500 characters); a report's reference is 1 to 100 characters on one line.
 */
export function parseDisposition(
  disposition: AlertDisposition,
  form: FormData,
): { ok: true; note: string | null; reference: string | null } | { ok: false; error: string; field: string } {
  const field = DISPOSITION_FIELDS[disposition].name;
  if (disposition === "report") {
    const raw = form.get(field);
    const reference = typeof raw === "string" ? raw.trim() : "";
    if (!reference) return { ok: false, error: ALERT_MESSAGES.referenceRequired, field };
    if (hasForbiddenCharacters(reference)) return { ok: false, error: ALERT_MESSAGES.referenceCharacters, field };
    if (reference.length > REPORT_REFERENCE_MAX_LENGTH)
      return { ok: false, error: ALERT_MESSAGES.referenceTooLong, field };
    return { ok: true, note: null, reference };
  }
  const required = disposition === "dismiss" ? ALERT_MESSAGES.reasonRequired : ALERT_MESSAGES.noteRequired;
  const reason = parseReason(form.get(field), required);
  return reason.ok ? { ok: true, note: reason.text, reference: null } : { ok: false, error: reason.error, field };
}
