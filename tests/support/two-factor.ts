import { decodeBase32IgnorePadding, encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import { TOTP_PERIOD_SECONDS, totpCodeAt } from "~/server/auth/totp.server";
import { sha256Hex } from "~/server/crypto.server";
import { schema } from "~/server/db.server";
import { cookieFrom, db, getPage, postForm, TEST_PASSWORD } from "./fixtures";

/** Signing in with two-factor on, as a browser does it: the password, then the code on /login/two-factor. */

export const challengeCookieFrom = (response: Response) => cookieFrom(response, "sign-in-challenge");

/** The first step: with two-factor on, a redirect to the second step that carries its cookie. */
export const passwordStep = (email: string, password = TEST_PASSWORD, options: { ip?: string } = {}) =>
  postForm("/login", { email, password, redirectTo: "" }, options);

/** The second step, in the browser that holds the challenge cookie (or the password step's response). */
export function secondStep(
  challenge: string | Response,
  code: string,
  options: { method?: "totp" | "recovery"; ip?: string } = {},
) {
  const cookie = typeof challenge === "string" ? challenge : challengeCookieFrom(challenge);
  return postForm("/login/two-factor", { code, method: options.method ?? "totp" }, { cookie, ip: options.ip });
}

/** Password and current code: the response of the second step (a redirect with the session's cookie). */
export async function signInWithCode(email: string, secret: Uint8Array, at = Date.now()) {
  return secondStep(await passwordStep(email), totpCodeAt(secret, at));
}

const STEP_MS = TOTP_PERIOD_SECONDS * 1000;

/**
 * Waits for the next time step when this one ends within `marginMs`, so that the codes a test computes stay in
 * the step they were computed for until the server checks them.
 */
export async function steadyStep(marginMs = 3_000) {
  const left = STEP_MS - (Date.now() % STEP_MS);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** The setup key the set-up page shows (groups of four), as the secret's bytes. */
export function secretFromPage(html: string): Uint8Array {
  const key = /data-testid="totp-secret"[^>]*>([A-Z2-7 ]+)</.exec(html)?.[1];
  if (!key) throw new Error("no setup key on the page");
  return decodeBase32IgnorePadding(key.replaceAll(" ", ""));
}

/** The recovery codes a page lists (shown once, after enrolment or regeneration). */
export const recoveryCodesFrom = (html: string) => [
  ...new Set([...html.matchAll(/>([a-z2-7]{5}-[a-z2-7]{5})</g)].map((match) => match[1] ?? "")),
];

/**
 * Turns two-factor on through the pages, as a person does: start, read the key, confirm with the password (the
 * fixtures' `TEST_PASSWORD`) and a code. Returns
 * the secret and the recovery codes shown.
 */
export async function enrolThroughPages(cookie: string, at = Date.now()) {
  const started = await postForm("/account/two-factor", { intent: "start" }, { cookie });
  if (started.status !== 302) throw new Error(`start answered ${started.status}`);
  const secret = secretFromPage(await (await getPage("/account/two-factor", cookie)).text());
  const confirmed = await postForm(
    "/account/two-factor",
    { intent: "confirm", currentPassword: TEST_PASSWORD, code: totpCodeAt(secret, at) },
    { cookie },
  );
  const html = await confirmed.text();
  if (confirmed.status !== 200) throw new Error(`confirm answered ${confirmed.status}`);
  return { secret, recoveryCodes: recoveryCodesFrom(html) };
}

/**
 * Unused recovery codes for a user whose two-factor sign-in is on, stored as an enrolment stores them (the hash
 * of the characters alone), without going through the pages.
 */
export async function giveRecoveryCodes(userId: string, count = 3): Promise<string[]> {
  const codes = Array.from({ length: count }, () => {
    const characters = encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(7))).slice(0, 10);
    return `${characters.slice(0, 5)}-${characters.slice(5)}`;
  });
  await db.insert(schema.recoveryCodes).values(
    await Promise.all(
      codes.map(async (code) => ({
        userId,
        codeHash: await sha256Hex(code.replace("-", "")),
        createdAt: Date.now(),
      })),
    ),
  );
  return codes;
}

/** Password, then a recovery code instead of the authenticator's: the signed-in browser's Cookie header. */
export async function signInWithRecoveryCode(email: string, code: string, options: { ip?: string } = {}) {
  const signedIn = await secondStep(await passwordStep(email, TEST_PASSWORD, options), code, {
    method: "recovery",
    ip: options.ip,
  });
  if (signedIn.status !== 302) throw new Error(`the recovery code was refused (${signedIn.status})`);
  return cookieFrom(signedIn);
}

let addresses = 0;
/** Each sign-in from its own address of the documentation range, clear of the per-address sign-in budget. */
export const nextIp = () => `198.51.100.${(addresses++ % 250) + 1}`;
