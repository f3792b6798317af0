import type { FormReply } from "./forms";

/**
 * What an action with several forms (intents) on one page answers: the outcome's tone and message, the form it
 * answers, when (so the page reacts once per reply), for an error about one field, that field, and for an act on
 * one row of a list (a client to delete, a transaction to approve), that row's id, so the page asks for a code
 * about it. Some forms add what only their answer carries (new recovery codes).
 */
export interface IntentReply {
  tone: "success" | "error";
  message: string;
  at: number;
  intent: string;
  field?: string;
  subject?: string;
}

/** The refusal a reply carries for one form (intent), as FormErrors takes it; nothing for another form's. */
export function refusalFor(reply: IntentReply | null | undefined, intent: string): FormReply {
  return reply?.tone === "error" && reply.intent === intent ? { error: reply.message, field: reply.field } : null;
}
