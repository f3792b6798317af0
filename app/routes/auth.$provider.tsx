import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { offeredProvider, startSignIn } from "~/server/auth/oauth-flow.server";

/** "Continue with Google / GitHub": off to the provider (a GET link; why: oauth-flow.server.ts). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return startSignIn(context, request, offeredProvider(context.env, params.provider));
}

/** Only a link starts a sign-in. */
export async function action() {
  return new Response("Method Not Allowed", { status: 405, headers: { Allow: "GET" } });
}
