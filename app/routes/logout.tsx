import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { afterCommit } from "~/server/commands.server";
import { destroySession, getSessionUser } from "~/server/session.server";

export async function loader() {
  return redirect("/");
}

/** Sign Out: ends the session on the server, clears the cookie, returns home. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await getSessionUser(request, context);
  const clearCookie = await destroySession(request, context);
  if (user) afterCommit(context, { endedSession: { userId: user.id, sessionId: user.sessionId } });
  return redirect("/", { headers: { "Set-Cookie": clearCookie } });
}
