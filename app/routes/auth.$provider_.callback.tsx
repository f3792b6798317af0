import { RouteError } from "~/components/route-error";
import { finishSignIn, offeredProvider } from "~/server/auth/oauth-flow.server";
import type { Route } from "./+types/auth.$provider_.callback";

/** Where the provider sends the browser back (the callback URL registered with it). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return finishSignIn(context, request, offeredProvider(context.env, params.provider));
}

/** Never rendered: the loader always answers with a redirect or throws. */
export default function ProviderRedirect() {
  return null;
}

/** A provider that is not configured here (a 404) shows the site's own "Page not found", like any unknown path. */
export function ErrorBoundary() {
  return <RouteError />;
}
