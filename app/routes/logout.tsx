import { redirect } from "react-router";
import { signOut } from "~/server/auth/account-sessions.server";
import type { Route } from "./+types/logout";

export async function loader() {
  return redirect("/");
}

/** Sign Out: ends the session on the server, clears the cookie, returns home. */
export async function action({ request, context }: Route.ActionArgs) {
  const { clearCookie } = await signOut(context, request);
  return redirect("/", { headers: { "Set-Cookie": clearCookie } });
}
