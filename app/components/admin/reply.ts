import type { FormReply } from "~/lib/forms";

/**
 * What the back office's actions answer: the outcome's tone and message, the form (intent) it answers, when
 * (so a page reacts once per reply), and for an error about one field, that field.
 */
export interface AdminReply {
  tone: "success" | "error";
  message: string;
  at: number;
  intent: string;
  field?: string;
}

/** The refusal a reply carries for one form (intent), as FormErrors takes it; nothing for another form's. */
export function refusalFor(reply: AdminReply | null | undefined, intent: string): FormReply {
  return reply?.tone === "error" && reply.intent === intent ? { error: reply.message, field: reply.field } : null;
}
