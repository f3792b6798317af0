/**
 * The browser's side of the passkey ceremonies (docs/product.md, "Passkeys"): ask our route for options, let the
 * browser make or use the passkey (@simplewebauthn/browser), send its answer back. Every failure comes back as
 * words for the page, never a stack: the browser's (cancelled, no authenticator) and the server's refusals alike.
 */
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from "@simplewebauthn/browser";
import { PASSKEY_MESSAGES } from "./passkeys";

export type CeremonyOutcome =
  | { ok: true; redirectTo?: string; recoveryCodes?: string[] }
  | { ok: false; error: string; field?: string; cancelled?: boolean };

/** The browser's failure in words. */
function browserFailure(error: unknown): CeremonyOutcome {
  if (error instanceof WebAuthnError) {
    if (error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED")
      return { ok: false, error: PASSKEY_MESSAGES.alreadyRegistered };
    if (error.code === "ERROR_CEREMONY_ABORTED")
      return { ok: false, error: PASSKEY_MESSAGES.cancelled, cancelled: true };
  }
  const name = error instanceof Error ? error.name : "";
  // NotAllowedError: the person cancelled, the time ran out, or no authenticator holds a passkey for this site.
  if (name === "NotAllowedError" || name === "AbortError")
    return { ok: false, error: PASSKEY_MESSAGES.cancelled, cancelled: true };
  if (name === "NotSupportedError") return { ok: false, error: PASSKEY_MESSAGES.unsupported };
  if (name === "InvalidStateError") return { ok: false, error: PASSKEY_MESSAGES.alreadyRegistered };
  return { ok: false, error: PASSKEY_MESSAGES.browserFailed };
}

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
    // Adding answers a redirect with its toast: followed by the page, not by fetch (which would spend the toast).
    redirect: "manual",
  });
}

/** The server's answer: its options or outcome as JSON, a redirect as success, anything else as a refusal. */
async function answerOf<T>(response: Response): Promise<{ ok: true; body: T } | (CeremonyOutcome & { ok: false })> {
  if (response.type === "opaqueredirect") return { ok: true, body: {} as T };
  const body = (await response.json().catch(() => null)) as (T & { error?: string; field?: string }) | null;
  if (!response.ok || !body || body.error)
    return { ok: false, error: body?.error ?? PASSKEY_MESSAGES.failed, field: body?.field };
  return { ok: true, body };
}

export const passkeysSupported = () => typeof window !== "undefined" && browserSupportsWebAuthn();

/** Uses a passkey against `url` (/passkeys/sign-in or /passkeys/verify); `autofill` waits on the e-mail field. */
export async function runPasskey(
  url: string,
  extra: { redirectTo?: string } = {},
  autofill = false,
): Promise<CeremonyOutcome> {
  if (!passkeysSupported()) return { ok: false, error: PASSKEY_MESSAGES.unsupported };
  const options = await answerOf<Parameters<typeof startAuthentication>[0]["optionsJSON"]>(
    await post(url, { intent: "options" }),
  );
  if (!options.ok) return options;
  let response: Awaited<ReturnType<typeof startAuthentication>>;
  try {
    response = await startAuthentication({ optionsJSON: options.body, useBrowserAutofill: autofill });
  } catch (error) {
    return browserFailure(error);
  }
  const verified = await answerOf<{ redirectTo?: string }>(await post(url, { intent: "verify", response, ...extra }));
  return verified.ok ? { ok: true, redirectTo: verified.body.redirectTo } : verified;
}

/** Adds a passkey to the signed-in account: the proof with the options' request, then the new passkey's answer. */
export async function addPasskey(proof: { currentPassword?: string; code?: string }, name: string) {
  if (!passkeysSupported()) return { ok: false, error: PASSKEY_MESSAGES.unsupported } as CeremonyOutcome;
  const url = "/account/passkeys";
  const options = await answerOf<Parameters<typeof startRegistration>[0]["optionsJSON"]>(
    await post(url, { intent: "options", ...proof }),
  );
  if (!options.ok) return options;
  let response: Awaited<ReturnType<typeof startRegistration>>;
  try {
    response = await startRegistration({ optionsJSON: options.body });
  } catch (error) {
    return browserFailure(error);
  }
  // The account's first second factor answers with its recovery codes, to be shown once.
  const added = await answerOf<{ recoveryCodes?: string[] }>(await post(url, { intent: "verify", response, name }));
  return added.ok ? ({ ok: true, recoveryCodes: added.body.recoveryCodes } as CeremonyOutcome) : added;
}
