import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { redirect } from "react-router";
import { PASSKEY_MESSAGES } from "~/lib/passkeys";
import { optionsJson, readCeremonyBody, refusalJson, signedInJson } from "~/server/auth/passkey-http.server";
import { proveWithPasskey, type SecondFactorAsker, secondFactorOptions } from "~/server/auth/passkey-sign-in.server";
import { openChallenge } from "~/server/auth/sign-in.server";
import { getSessionUser } from "~/server/session.server";
import type { Route } from "./+types/passkeys.verify";

/**
 * A passkey as the second factor (docs/product.md, "Passkeys"): for a signed-in session, step-up (the session is
 * fresh for 10 minutes, and the page sends its form again); for the browser's open sign-in second step, the
 * sign-in itself. Nothing to show.
 */
export async function loader() {
  return redirect("/login");
}

export async function action({ request, context }: Route.ActionArgs) {
  const body = await readCeremonyBody(request);
  const session = await getSessionUser(request, context);
  const challenge = session ? null : await openChallenge(context, request);
  const asker: SecondFactorAsker | null = session ? { session } : challenge ? { challenge } : null;
  if (!asker) return refusalJson({ error: PASSKEY_MESSAGES.expired, status: 401 });
  if (body.intent === "options") {
    const result = await secondFactorOptions(context, request, asker);
    return result.ok ? optionsJson(result.options) : refusalJson(result);
  }
  const result = await proveWithPasskey(
    context,
    request,
    asker,
    body.response as unknown as AuthenticationResponseJSON,
  );
  if (!result.ok) return refusalJson(result);
  return result.response ? signedInJson(result.response) : Response.json({ verified: true });
}
