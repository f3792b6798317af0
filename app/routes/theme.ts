import { data, redirect } from "react-router";
import { safeRedirect } from "~/lib/safe-redirect";
import { isThemeChoice } from "~/lib/theme";
import { readForm } from "~/server/form.server";
import { themeSetCookie } from "~/server/theme.server";
import type { Route } from "./+types/theme";

export async function loader() {
  return redirect("/");
}

/**
 * The header's theme switch: remembers the choice in a cookie, which the root loader reads. Without JavaScript
 * the switch is a plain form that names the page it was on (`returnTo`), and goes back there; with it, a fetcher
 * posts the choice alone and the page stays as it is. Another site cannot post here: the Worker's CSRF check.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const theme = form.get("theme");
  if (!isThemeChoice(theme)) return data({ error: "Choose System, Light or Dark." }, { status: 400 });
  const headers = { "Set-Cookie": themeSetCookie(context.env, theme) };
  const returnTo = form.get("returnTo");
  if (typeof returnTo === "string") return redirect(safeRedirect(returnTo, "/"), { headers });
  return data({ theme }, { headers });
}
