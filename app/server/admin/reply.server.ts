/**
 * How the back office's actions answer (`AdminReply`): a reply stamped with the form (intent) it answers and when,
 * and a command's `FormOutcome` turned into one, its status, field and row taken from the outcome.
 */
import { data } from "@remix-run/cloudflare";
import type { AdminReply } from "~/components/admin/reply";
import type { FormOutcome } from "../commands.server";

export function adminReply(
  intent: string,
  tone: AdminReply["tone"],
  message: string,
  status = 200,
  field?: string,
  subject?: string,
) {
  return data<AdminReply>(
    { tone, message, at: Date.now(), intent, ...(field ? { field } : {}), ...(subject ? { subject } : {}) },
    { status },
  );
}

export function replyTo(intent: string, outcome: FormOutcome) {
  return outcome.ok
    ? adminReply(intent, "success", outcome.message)
    : adminReply(intent, "error", outcome.error, outcome.status, outcome.field, outcome.subject);
}
