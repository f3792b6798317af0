import { env, exports } from "cloudflare:workers";
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { expect } from "vitest";
import { getToast } from "~/server/toast.server";
import { appEnv, cookieFrom, countRows, createUser, ORIGIN, sessionCookieFor, TEST_PASSWORD } from "./fixtures";
import { SoftAuthenticator } from "./soft-authenticator";

/**
 * Passkeys through the routes, as the browser's passkey button does it: the ceremony's two JSON posts (options,
 * then the authenticator's answer), answered by the software authenticator.
 */

export const CHROME_ON_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

/** `origin` posts from another site (the browser then says so in Sec-Fetch-Site too). */
type JsonOptions = { cookie?: string; ip?: string; userAgent?: string; origin?: string };

/** A JSON POST from one of our pages (same origin, as the CSRF check wants), through the Worker. */
export function postJson(path: string, body: unknown, options: JsonOptions = {}) {
  return exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "Content-Type": "application/json",
        "Sec-Fetch-Site": options.origin ? "cross-site" : "same-origin",
        Origin: options.origin ?? ORIGIN,
        "CF-Connecting-IP": options.ip ?? "203.0.113.10",
        "User-Agent": options.userAgent ?? CHROME_ON_MAC,
        ...(options.cookie ? { Cookie: options.cookie } : {}),
      },
      body: JSON.stringify(body),
    }),
  );
}

/** The refusal's words, after checking its status. */
export async function refusedWith(response: Response, status: number): Promise<string> {
  expect(response.status).toBe(status);
  return ((await response.json()) as { error: string }).error;
}

/** The toast a redirect carries, as the next page shows it. */
export async function toastOf(response: Response) {
  const cookie = cookieFrom(response, "toast");
  const { toast } = await getToast(new Request(ORIGIN, { headers: { Cookie: cookie } }), appEnv);
  return toast ? { type: toast.type, description: toast.description } : null;
}

/** The add form's first post: its options, given the proof (the fixtures' password by default). */
export async function addingOptions(cookie: string, proof: { currentPassword?: string; code?: string } = {}) {
  const response = await postJson(
    "/account/passkeys",
    { intent: "options", currentPassword: TEST_PASSWORD, ...proof },
    { cookie },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as PublicKeyCredentialCreationOptionsJSON;
}

/** The add form's second post: the authenticator's answer (and a typed name, if any). */
export const finishAdding = (cookie: string, response: unknown, options: { name?: string; userAgent?: string } = {}) =>
  postJson("/account/passkeys", { intent: "verify", response, name: options.name }, { cookie, ...options });

/**
 * The answer to a stored passkey: the account's first second factor answers its 10 recovery codes as JSON (shown
 * once by the page); a later passkey goes back to /account. Fails the test for anything else; the codes, if any.
 */
export async function addedAnswer(response: Response): Promise<string[] | null> {
  if (response.status === 302) {
    expect(response.headers.get("Location")).toBe("/account");
    return null;
  }
  expect(response.status, await response.clone().text()).toBe(200);
  const { recoveryCodes } = (await response.json()) as { recoveryCodes: string[] };
  expect(recoveryCodes).toHaveLength(10);
  return recoveryCodes;
}

/** A new passkey added to the signed-in account, through both posts; fails the test unless it is stored. */
export async function addPasskey(cookie: string, options: { name?: string; proof?: { code?: string } } = {}) {
  const authenticator = await SoftAuthenticator.create();
  const answer = await authenticator.register(await addingOptions(cookie, options.proof));
  await addedAnswer(await finishAdding(cookie, answer, options));
  expect(await countRows("passkeys", "id = ?", authenticator.credentialId)).toBe(1);
  return authenticator;
}

/** A ceremony's options from a passkey route (sign-in or second factor). */
export async function requestOptions(path: string, options: JsonOptions = {}) {
  const response = await postJson(path, { intent: "options" }, options);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as PublicKeyCredentialRequestOptionsJSON;
}

type Assertion = Parameters<SoftAuthenticator["assert"]>[1];

/** Signing in with a passkey, as a signed-out visitor: options, then the answer; the verify post's response. */
export async function signInWithPasskey(
  authenticator: SoftAuthenticator,
  options: { ip?: string; lie?: Assertion; redirectTo?: string } = {},
) {
  const signIn = await requestOptions("/passkeys/sign-in", { ip: options.ip });
  const response = await authenticator.assert(signIn, options.lie);
  return postJson(
    "/passkeys/sign-in",
    { intent: "verify", response, redirectTo: options.redirectTo },
    { ip: options.ip },
  );
}

/** A passkey as the second factor (a signed-in session's step-up, or the sign-in's open second step). */
export async function verifyWithPasskey(authenticator: SoftAuthenticator, cookie: string, lie?: Assertion) {
  const options = await requestOptions("/passkeys/verify", { cookie });
  const response = await authenticator.assert(options, lie);
  return postJson("/passkeys/verify", { intent: "verify", response }, { cookie });
}

/** The sessions an account has, with how each began and how its second factor was proved. */
export const sessionsOf = async (userId: string) =>
  (
    await env.DB.prepare(
      "SELECT sign_in_method AS signIn, second_factor_method AS secondFactor FROM sessions WHERE user_id = ? ORDER BY created_at",
    )
      .bind(userId)
      .all<{ signIn: string | null; secondFactor: string | null }>()
  ).results;

/** The audit rows of one action about one account. */
export const auditsOf = (userId: string, action: string) =>
  countRows("audit_log", "target = ? AND action = ?", `user:${userId}`, action);

/** The security notices of one event queued to one address. */
export const noticesOf = (email: string, event: string) =>
  countRows(
    "email_outbox",
    "to_address = ? AND template = 'security_notice' AND json_extract(payload, '$.event') = ?",
    email,
    event,
  );

/** Moves a stored challenge past its end, as 5 minutes would. */
export const expireChallenge = (challenge: string) =>
  env.DB.prepare("UPDATE webauthn_challenges SET expires_at = ? WHERE challenge = ?")
    .bind(Date.now() - 1, challenge)
    .run();

/** A signed-in person (a client without two-factor unless told) who has added one passkey through the routes. */
export async function personWithPasskey(options: Parameters<typeof createUser>[0] = {}) {
  const person = await createUser(options);
  const cookie = await sessionCookieFor(person.id);
  return { ...person, cookie, authenticator: await addPasskey(cookie) };
}
