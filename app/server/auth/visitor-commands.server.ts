/**
 * The commands of someone not signed in: register, ask for a password reset link, set a new password from one.
 * Each takes the form its route parsed and the request the visitor sent (their address, browser and device stand
 * in for a session's actor), runs the security check where the page has one, writes its batch, hands what follows
 * the commit (mail, closing sockets) to `afterCommit`, and answers with an outcome whose status the route sends.
 */

import { MESSAGES, type RegistrationInput } from "~/lib/schemas/auth";
import type { AppContext } from "~/load-context";
import { afterCommit, type Outcome } from "../commands.server";
import { siteOrigin } from "../http.server";
import { clientIp } from "../rate-limit.server";
import { passesChallenge } from "../turnstile.server";
import { clientMeta } from "./client-meta.server";
import { requestPasswordReset, resetPassword } from "./passwords.server";
import { registerClient } from "./registration.server";
import { deviceOf } from "./sign-in.server";

type VisitorContext = Pick<AppContext, "db" | "env" | "bindings" | "ctx" | "cf">;
/** A refusal names the field it is about, when there is one. */
type VisitorOutcome<T extends object = object> =
  | Outcome<T>
  | { ok: false; error: string; status: number; field?: string };

const challengeRefused = { ok: false, error: MESSAGES.challengeRequired, status: 403 } as const;

/** Registration: the security check, then the account, its first session and the welcome mail in one batch. */
export async function register(
  context: VisitorContext,
  request: Request,
  input: RegistrationInput & { challenge: string },
): Promise<VisitorOutcome<{ cookies: string[] }>> {
  if (!(await passesChallenge(context, request, input.challenge, "register"))) return challengeRefused;
  const device = await deviceOf(request, context.env);
  const result = await registerClient(context, input, siteOrigin(context.env, request), {
    ip: clientIp(request),
    meta: clientMeta(request, context.cf),
    deviceHash: device.hash,
  });
  if (!result.ok) return result;
  afterCommit(context, { emailIds: result.emailIds });
  return { ok: true, cookies: [result.setCookie, ...(device.setCookie ? [device.setCookie] : [])] };
}

/** Forgot password: the same answer whether or not the address has an account (the page says so either way). */
export async function forgotPassword(
  context: VisitorContext,
  request: Request,
  input: { email: string; challenge: string },
): Promise<VisitorOutcome> {
  if (!(await passesChallenge(context, request, input.challenge, "forgot-password"))) return challengeRefused;
  const { emailIds } = await requestPasswordReset(
    context,
    input.email,
    clientIp(request),
    siteOrigin(context.env, request),
  );
  afterCommit(context, { emailIds });
  return { ok: true };
}

/** A new password from a reset link: every session of the account ends, and its open sockets close now. */
export async function resetPasswordFromLink(
  context: VisitorContext,
  request: Request,
  input: { token: string; password: string },
): Promise<VisitorOutcome> {
  const reset = await resetPassword(context, input.token, input.password, { meta: clientMeta(request, context.cf) });
  if (!reset.changed) return { ok: false, error: MESSAGES.resetLinkInvalid, status: 410 };
  afterCommit(context, { emailIds: reset.emailIds, signedOut: [reset.userId] });
  return { ok: true };
}
