import { RouteError } from "~/components/route-error";
import { offeredProvider, startSignIn } from "~/server/auth/oauth-flow.server";
import type { Route } from "./+types/auth.$provider";

/** "Continue with Google / GitHub": off to the provider (a GET link; why: oauth-flow.server.ts). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return startSignIn(context, request, offeredProvider(context.env, params.provider));
}

/** Only a link starts a sign-in. Thrown, so that no loader runs (it would start one) and the shell shows why. */
export async function action() {
  throw new Response("Method Not Allowed", { status: 405, headers: { Allow: "GET" } });
}

/** Never rendered: the loader always answers with a redirect or throws. */
export default function ProviderRedirect() {
  return null;
}

/** A provider that is not configured here (a 404) shows the site's own "Page not found", like any unknown path. */
export function ErrorBoundary() {
  return <RouteError />;
}
