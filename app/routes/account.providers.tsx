import { redirect } from "react-router";
import { OAUTH_MESSAGES, PROVIDER_NAMES, unlinkSchema } from "~/lib/schemas/oauth";
import { unlinkProvider } from "~/server/auth/oauth-links.server";
import { readValidForm } from "~/server/form.server";
import { requireUser } from "~/server/session.server";
import { toastingBackTo } from "~/server/toast.server";
import type { Route } from "./+types/account.providers";

/** The providers card's Unlink posts here; there is nothing to show. */
export async function loader() {
  return redirect("/account");
}

/** Unlink one provider, while a password or another provider remains; back to /account with what happened. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await readValidForm(request, unlinkSchema);
  const back = toastingBackTo(context.env, "/account");
  if (!form.ok) return back("error", form.error);
  const result = await unlinkProvider(context, request, user, form.data.provider);
  return result.ok
    ? back("success", OAUTH_MESSAGES.unlinked(PROVIDER_NAMES[form.data.provider]))
    : back("error", result.error);
}
