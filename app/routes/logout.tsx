import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { signOut } from "~/server/auth/account-sessions.server";

export async function loader() {
  return redirect("/");
}

/** Sign Out: ends the session on the server, clears the cookie, returns home. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { clearCookie } = await signOut(context, request);
  return redirect("/", { headers: { "Set-Cookie": clearCookie } });
}
