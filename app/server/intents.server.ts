/**
 * The one way an action with several forms on one page (intents) picks what to do and answers. The form's
 * `intent` names its handler; a handler answers `done(message)` or `refused(refusal)`, and a refusal's HTTP status
 * is the one its command or check gave, never chosen by its text. An intent the page does not have is refused
 * with 400 and changes nothing.
 */
import { data } from "react-router";
import type { IntentReply } from "~/lib/intent-reply";
import type { FormOutcome } from "./commands.server";

/** A refusal as commands and checks return it: the message, the status (400 if it has none), its field or row. */
export interface Refusal {
  error: string;
  status?: number;
  field?: string | null;
  subject?: string;
}

export const UNKNOWN_INTENT = "Unknown action";

export function repliesTo<Extra extends object = object>(intent: string) {
  const answer = (reply: Omit<IntentReply, "at" | "intent">, status: number, extra?: Partial<Extra>) =>
    data<IntentReply & Partial<Extra>>({ ...reply, ...extra, intent, at: Date.now() } as IntentReply & Partial<Extra>, {
      status,
    });
  const done = (message: string, extra?: Partial<Extra>) => answer({ tone: "success", message }, 200, extra);
  const refused = ({ error, status = 400, field, subject }: Refusal) =>
    answer({ tone: "error", message: error, ...(field ? { field } : {}), ...(subject ? { subject } : {}) }, status);
  return {
    done,
    refused,
    /** A command's whole outcome: its success message, or its refusal with the status, field and row it gave. */
    outcome: (outcome: FormOutcome) => (outcome.ok ? done(outcome.message) : refused(outcome)),
  };
}

export type Replies<Extra extends object = object> = ReturnType<typeof repliesTo<Extra>>;
/** What a handler answers: a reply, success or refusal, of one shape for the whole page. */
export type ReplyData<Extra extends object = object> = ReturnType<Replies<Extra>["done"]>;

/**
 * Runs the handler the form's intent names. `fallback` is the intent of a form posted without one (a page whose
 * main form predates its others); any other unknown intent is refused (with `unknown`, the page's own words for a
 * stale or forged form, else 'Unknown action').
 */
export function dispatchIntent<Intent extends string, Extra extends object = object, Answer = ReplyData<Extra>>(
  form: FormData,
  handlers: Record<Intent, (reply: Replies<Extra>) => Promise<Answer> | Answer>,
  options: { fallback?: NoInfer<Intent>; unknown?: Refusal } = {},
) {
  const submitted = form.get("intent");
  const intent = submitted === null && options.fallback !== undefined ? options.fallback : String(submitted ?? "");
  const handler = Object.hasOwn(handlers, intent) ? handlers[intent as Intent] : undefined;
  const reply = repliesTo<Extra>(intent);
  return handler ? handler(reply) : reply.refused(options.unknown ?? { error: UNKNOWN_INTENT });
}
