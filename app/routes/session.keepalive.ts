import { getSessionUser } from "~/server/session.server";
import type { Route } from "./+types/session.keepalive";

/**
 * The activity tracker's heartbeat: a signed-in user who is active in the page (reading, scrolling)
 * without navigating keeps the server-side idle window open. 204 while signed in, 401 after.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await getSessionUser(request, context);
  return new Response(null, { status: user ? 204 : 401, headers: { "Cache-Control": "no-store" } });
}
