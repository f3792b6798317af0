import type { FormReply } from "~/lib/forms";

/**
 * What the back office's actions answer: the outcome's tone and message, the form (intent) it answers, when
 * (so a page reacts once per reply), for an error about one field, that field, and for an action on one row of
 * a list (a client to delete, a transaction to approve), that row's id, so the page asks for a code about it.
 */
export interface AdminReply {
  tone: "success" | "error";
  message: string;
  at: number;
  intent: string;
  field?: string;
  subject?: string;
}

/** The refusal a reply carries for one form (intent), as FormErrors takes it; nothing for another form's. */
export function refusalFor(reply: AdminReply | null | undefined, intent: string): FormReply {
  return reply?.tone === "error" && reply.intent === intent ? { error: reply.message, field: reply.field } : null;
}
