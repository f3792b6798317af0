/**
 * The one runner of the acts table (app/lib/acts.ts): every back-office act and every client money act runs
 * through it, and it asks, in this order, whether the actor may (the row's permission: 403 and the one message),
 * what must hold before a code is spent (the row the act is about, the fields a refusal should name first), and a
 * fresh second factor (the row's `freshCode`, through the step-up check). The body then runs with what the row
 * says of a second admin; the database checks the act again in its own statement or triggers (the row's
 * `triggers`, `statement`). No route or command asks for the fresh code itself.
 */
import { ACTS, type ActName, type ActRow, needsSecondAdmin } from "~/lib/acts";
import { may, PERMISSION_MESSAGES } from "~/lib/permissions";
import { checkStepUp } from "./auth/step-up.server";
import type { CommandContext } from "./commands.server";
import type { Refusal, Replies } from "./intents.server";
import type { SessionUser } from "./session.server";

/** A refusal the runner (or a `before` step) answers: 400 unless it says otherwise, with its field or row. */
export type ActRefusal = { ok: false; error: string; status?: number; field?: string; subject?: string };

/** What a `before` step answers: what it read (a form's fields, a row), or its refusal. */
export type Checked<T> = { ok: true; data: T } | ActRefusal;

/** What the body is told: which act runs, and whether an amount of it waits for a second admin. */
export interface Granted {
  act: ActName;
  secondAdmin: (amountCents?: number) => boolean;
}

export interface ActSteps<Before, Answer> {
  /** The form the fresh code is typed into (an act that needs none may leave it out). */
  form?: FormData;
  /** The row the act is about: the code's prompt and refusals name it, so the page shows them there. */
  subject?: string;
  /** What must hold before a code is asked (and, for an act named by its row, the row that names it). */
  before?: () => Promise<Checked<Before>> | Checked<Before>;
  run: (before: Before, granted: Granted) => Promise<Answer> | Answer;
}

type ActContext = Pick<CommandContext, "db" | "env">;

const FORBIDDEN: ActRefusal = { ok: false, error: PERMISSION_MESSAGES.forbidden, status: 403 };

/** Whether the actor is who the row names: an admin holding its permission, or a client for their own money. */
function allowed(actor: SessionUser, row: ActRow): boolean {
  if (row.who === "client") return actor.role === "user";
  return actor.role === "admin" && may(actor.roles, row.who);
}

/**
 * Runs one act. `act` is the row's name, or, for an act its row decides (a request's approval is the operators'
 * or the approvers' by the request's type), a function of what `before` read; its permission is then asked once
 * that row is read.
 */
export async function runAct<Before = undefined, Answer = unknown>(
  context: ActContext,
  actor: SessionUser,
  act: ActName | ((before: Before) => ActName),
  steps: ActSteps<Before, Answer>,
): Promise<{ refused: ActRefusal } | { answer: Answer }> {
  const { subject } = steps;
  if (typeof act === "string" && !allowed(actor, ACTS[act])) return { refused: FORBIDDEN };
  const before = steps.before ? await steps.before() : { ok: true as const, data: undefined as Before };
  if (!before.ok) return { refused: before };
  const name = typeof act === "string" ? act : act(before.data);
  if (typeof act !== "string" && !allowed(actor, ACTS[name])) return { refused: FORBIDDEN };
  // Only a step-up act asks: the check also holds such acts during the 24 hours after a two-factor reset, and that
  // hold must not stop what needs no code (cancelling a request, rejecting one, suspending a client).
  if (ACTS[name].freshCode !== "never") {
    const fresh = await checkStepUp(context, actor, steps.form ?? new FormData(), name);
    if (!fresh.ok) return { refused: subject ? { ...fresh, subject } : fresh };
  }
  const granted: Granted = {
    act: name,
    secondAdmin: (amountCents = 0) => needsSecondAdmin(name, context.env.FOUR_EYES_THRESHOLD, amountCents),
  };
  return { answer: await steps.run(before.data, granted) };
}

/**
 * The acts of one page's forms, for `dispatchIntent`: `act(name, body)` or `act(name, steps)` is the handler of an
 * intent, its refusals answered as the page's replies. A test reads every route's intents and fails on one whose
 * handler is not made here.
 */
export function actsOf<Extra extends object = object>(context: ActContext, actor: SessionUser, form: FormData) {
  return function act<Before = undefined, Answer = unknown>(
    name: ActName | ((before: Before) => ActName),
    steps:
      | ((reply: Replies<Extra>, granted: Granted) => Promise<Answer> | Answer)
      | (Omit<ActSteps<Before, Answer>, "run" | "form"> & {
          run: (reply: Replies<Extra>, before: Before, granted: Granted) => Promise<Answer> | Answer;
        }),
  ) {
    // A bare body is an act with nothing to check first.
    const { run, ...rest } =
      typeof steps === "function"
        ? { run: (reply: Replies<Extra>, _before: Before, granted: Granted) => steps(reply, granted) }
        : steps;
    return async (reply: Replies<Extra>) => {
      const outcome = await runAct<Before, Answer>(context, actor, name, {
        ...rest,
        form,
        run: (before, granted) => run(reply, before, granted),
      });
      return "refused" in outcome ? reply.refused(outcome.refused as Refusal) : outcome.answer;
    };
  };
}
