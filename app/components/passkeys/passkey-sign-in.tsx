import { browserSupportsWebAuthnAutofill } from "@simplewebauthn/browser";
import { useEffect } from "react";
import { runPasskey } from "~/lib/passkey-client";
import { UsePasskeyButton } from "./use-passkey-button";

/**
 * "Sign in with a passkey" on /login, and the browser's passkey autofill on the e-mail field (conditional
 * mediation, where the browser supports it: the field's autocomplete carries `webauthn`). Either way a passkey
 * signs the person in without a password or a code, and the page moves to where the server says.
 */
/** Where the page goes once signed in: the server's answer, which went through its own redirect rules. */
const go = (to: string | undefined) => window.location.assign(to ?? "/dashboard");

export function PasskeySignIn({ redirectTo }: { redirectTo: string }) {
  useEffect(() => {
    let stopped = false;
    void browserSupportsWebAuthnAutofill().then(async (supported) => {
      if (!supported || stopped) return;
      // Waits until the person picks a passkey in the e-mail field's suggestions; a refusal stays silent here
      // (the person may be typing a password instead).
      const outcome = await runPasskey("/passkeys/sign-in", redirectTo ? { redirectTo } : {}, true);
      if (outcome.ok && !stopped) go(outcome.redirectTo);
    });
    return () => {
      stopped = true;
    };
  }, [redirectTo]);
  return (
    <UsePasskeyButton
      url="/passkeys/sign-in"
      label="Sign in with a passkey"
      redirectTo={redirectTo || undefined}
      onVerified={(outcome) => go(outcome.redirectTo)}
      className="mt-4"
    />
  );
}
