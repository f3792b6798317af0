import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { redirect } from "react-router";
import { safeRedirect } from "~/lib/safe-redirect";
import { optionsJson, readCeremonyBody, refusalJson, signedInJson } from "~/server/auth/passkey-http.server";
import { passkeySignInOptions, signInWithPasskey } from "~/server/auth/passkey-sign-in.server";
import type { Route } from "./+types/passkeys.sign-in";

/** Signing in with a passkey (docs/product.md, "Passkeys"): the ceremony's two posts; nothing to show. */
export async function loader() {
  return redirect("/login");
}

export async function action({ request, context }: Route.ActionArgs) {
  const body = await readCeremonyBody(request);
  if (body.intent === "options") {
    const result = await passkeySignInOptions(context, request);
    return result.ok ? optionsJson(result.options) : refusalJson(result);
  }
  const result = await signInWithPasskey(context, request, {
    response: body.response as unknown as AuthenticationResponseJSON,
    redirectTo: body.redirectTo ? safeRedirect(body.redirectTo, "/dashboard") : null,
  });
  return result.ok ? signedInJson(result.response) : refusalJson(result);
}
