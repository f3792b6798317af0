import { redirect } from "react-router";
import { endSessionsSchema, SESSION_MESSAGES } from "~/lib/schemas/sessions";
import { endOtherSessions, endSession } from "~/server/auth/account-sessions.server";
import { readValidForm } from "~/server/form.server";
import { requireUser } from "~/server/session.server";
import { toastingBackTo } from "~/server/toast.server";
import type { Route } from "./+types/account.sessions";

/** The sessions card's forms post here; there is nothing to show. */
export async function loader() {
  return redirect("/account");
}

/** End one session, or all but this one; back to /account with what happened. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await readValidForm(request, endSessionsSchema);
  const back = toastingBackTo(context.env, "/account");
  if (!form.ok) return back("error", form.error);

  if (form.data.intent === "end-others") {
    const { count } = await endOtherSessions(context, user);
    return back("success", count > 0 ? SESSION_MESSAGES.othersEnded(count) : SESSION_MESSAGES.noOthers);
  }
  const result = await endSession(context, user, form.data.sessionId);
  return result.ok ? back("success", SESSION_MESSAGES.ended) : back("error", result.error);
}
