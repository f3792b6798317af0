import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { dismissTwoFactorSuggestion } from "~/server/auth/two-factor.server";
import { readForm } from "~/server/form.server";
import { requireClient } from "~/server/session.server";

export async function loader() {
  return redirect("/dashboard");
}

/** Dismiss on the dashboard's two-factor suggestion: it is not shown again. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireClient(request, context, { signedOutTo: "/" });
  await readForm(request);
  await dismissTwoFactorSuggestion(context.db, user.id).run();
  return redirect("/dashboard");
}
