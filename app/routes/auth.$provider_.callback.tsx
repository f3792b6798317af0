import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { finishSignIn, offeredProvider } from "~/server/auth/oauth-flow.server";

/** Where the provider sends the browser back (the callback URL registered with it). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return finishSignIn(context, request, offeredProvider(context.env, params.provider));
}
