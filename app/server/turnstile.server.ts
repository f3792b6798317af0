import { sha256Hex } from "./crypto.server";
import type { Db } from "./db.server";
import { type AppEnv, isProduction, isTurnstileTestKey, TURNSTILE_TEST_KEYS } from "./env.server";
import { BUDGETS, clientIp, isOverBudget, recordAttempt } from "./rate-limit.server";

/**
 * The security check (Cloudflare Turnstile) of the sign-in, registration and forgot-password forms: the page's
 * widget puts a token in the form (`CHALLENGE_FIELD`), and the action asks Cloudflare's siteverify whether it
 * is good. A token passes when siteverify says success, it was solved on this request's host and for this
 * form, and it was not used before: siteverify reports a spent token, and the tokens we have sent it are
 * remembered for their lifetime too. See docs/decisions/0017.
 */
export const SITEVERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";
/** Where the widget's script and frame come from (allowed by the CSP when a real site key is configured). */
export const TURNSTILE_ORIGIN = "https://challenges.cloudflare.com";

/** The forms that carry the check; the name is the widget's `data-action`, which siteverify reports back. */
export type ChallengeAction = "login" | "register" | "forgot-password";

/** What a page needs to show the widget. The script loads only where the CSP allows its host (a real key). */
export interface ChallengeWidget {
  siteKey: string;
  loadScript: boolean;
}

export function challengeWidget(env: AppEnv): ChallengeWidget {
  return { siteKey: env.TURNSTILE_SITE_KEY, loadScript: !isTurnstileTestKey(env.TURNSTILE_SITE_KEY) };
}

/**
 * With Cloudflare's always-pass test secret (local development, CI, the browser tests: all offline) every
 * check passes without a call. Production always asks siteverify, whatever the secret.
 */
function asksCloudflare(env: AppEnv): boolean {
  return isProduction(env) || env.TURNSTILE_SECRET_KEY !== TURNSTILE_TEST_KEYS.secretPasses;
}

let warned = false;
function warnTestSecretOnce() {
  if (warned) return;
  warned = true;
  console.error("TURNSTILE_SECRET_KEY is one of Cloudflare's test keys: set the real secret (wrangler secret put).");
}

interface SiteverifyAnswer {
  success?: boolean;
  "error-codes"?: string[];
  hostname?: string;
  action?: string;
}

/** Error codes that mean our configuration is wrong, not the visitor's token. */
const CONFIGURATION_FAULTS = new Set(["missing-input-secret", "invalid-input-secret"]);
const SITEVERIFY_TIMEOUT_MS = 5_000;

/**
 * One verification, tried twice when Cloudflare cannot be reached or fails (a 5xx): the idempotency key makes
 * the second try answer like the first instead of reporting the token as spent. Null when there is no answer.
 */
async function siteverify(secret: string, token: string, remoteip: string): Promise<SiteverifyAnswer | null> {
  const body = JSON.stringify({
    secret,
    response: token,
    ...(remoteip === "unknown" ? {} : { remoteip }),
    idempotency_key: crypto.randomUUID(),
  });
  let failure: unknown;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const response = await fetch(SITEVERIFY_URL, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
        signal: AbortSignal.timeout(SITEVERIFY_TIMEOUT_MS),
      });
      if (response.ok) return (await response.json()) as SiteverifyAnswer;
      failure = `HTTP ${response.status}`;
      if (response.status < 500) break;
    } catch (error) {
      failure = error;
    }
  }
  console.error("Turnstile siteverify gave no answer; the form is refused:", failure);
  return null;
}

/**
 * Whether the form's token passes the check for this form. Outside production with the always-pass test
 * secret, always (no call). A missing token fails without a call.
 */
export async function passesChallenge(
  { db, env }: { db: Db; env: AppEnv },
  request: Request,
  token: string,
  action: ChallengeAction,
  now = Date.now(),
): Promise<boolean> {
  if (!asksCloudflare(env)) return true;
  if (isProduction(env) && isTurnstileTestKey(env.TURNSTILE_SECRET_KEY)) warnTestSecretOnce();
  if (token === "") return false;

  const seen = await sha256Hex(token);
  if (await isOverBudget(db, BUDGETS.challengeToken, seen, now)) return false;
  await recordAttempt(db, BUDGETS.challengeToken, seen, now);

  const answer = await siteverify(env.TURNSTILE_SECRET_KEY, token, clientIp(request));
  if (!answer) return false;
  const codes = answer["error-codes"] ?? [];
  if (codes.some((code) => CONFIGURATION_FAULTS.has(code))) {
    console.error(`Turnstile siteverify refuses our secret (${codes.join(", ")}): check TURNSTILE_SECRET_KEY`);
  }
  return answer.success === true && answer.hostname === new URL(request.url).hostname && answer.action === action;
}
