import { redirect } from "react-router";
import { dismissTwoFactorSuggestion } from "~/server/auth/two-factor.server";
import { readForm } from "~/server/form.server";
import { requireClient } from "~/server/session.server";
import type { Route } from "./+types/dashboard.two-factor-suggestion";

export async function loader() {
  return redirect("/dashboard");
}

/** Dismiss on the dashboard's two-factor suggestion: it is not shown again. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireClient(request, context, { signedOutTo: "/" });
  await readForm(request);
  await dismissTwoFactorSuggestion(context.db, user.id).run();
  return redirect("/dashboard");
}
