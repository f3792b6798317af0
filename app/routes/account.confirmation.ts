import { redirect } from "react-router";
import { MESSAGES } from "~/lib/schemas/auth";
import { resendConfirmation } from "~/server/auth/email-confirmation.server";
import { readForm } from "~/server/form.server";
import { siteOrigin } from "~/server/http.server";
import { requireClient } from "~/server/session.server";
import { backWithOutcome } from "~/server/toast.server";
import type { Route } from "./+types/account.confirmation";

/** 'Send the link again' posts here; there is nothing to show. */
export async function loader() {
  return redirect("/account");
}

/**
 * A new e-mail confirmation link for the signed-in client, back to the page that asked (`redirectTo`, a path of
 * this site: the dashboard or Account Settings) with what happened as a toast.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const client = await requireClient(request, context);
  const form = await readForm(request);
  const result = await resendConfirmation(context, client, siteOrigin(context.env, request));
  return backWithOutcome(context.env, form, "/account", result, MESSAGES.confirmationSent);
}
