/**
 * Step-up for money (docs/product.md, "Account security"): the form field a second-factor code travels in and
 * the messages of the check, shared by the server's rule (app/server/auth/step-up.server.ts) and the field the
 * forms show when the server asks for a code (app/components/step-up.tsx). Browser-safe.
 */

import { formatDateTimeUtc } from "./format";
import { TWO_FACTOR_MESSAGES } from "./schemas/two-factor";

/** The field of the same form the code is typed into, next to the action's own fields. */
export const STEP_UP_FIELD = "stepUpCode";

/**
 * How long money stays put after two-factor sign-in was turned off with a recovery code. Password and recovery
 * codes (a downloaded file, a printed sheet) could otherwise replace the authenticator and then pass step-up with
 * the new one; the owner, mailed at each step, has this long to notice and call the desk.
 */
export const RECOVERY_RESET_HOLD_MS = 24 * 60 * 60 * 1000;

/** The sign-in's second step and step-up say the same things: one lock, one prompt. */
export const STEP_UP_MESSAGES = {
  /** The prompt, and the code field's label. */
  prompt: TWO_FACTOR_MESSAGES.codePrompt,
  /** The prompt of a session signed in with a recovery code, which never counts for step-up. */
  afterRecoveryCode: "You signed in with a recovery code: enter a code from your authenticator app to continue.",
  /** The prompt of a passkey-only account, which has no app to take a code from. */
  passkeyPrompt: "Confirm it is you with your passkey to continue.",
  afterRecoveryCodePasskey: "You signed in with a recovery code: confirm it is you with your passkey to continue.",
  invalidCode: TWO_FACTOR_MESSAGES.invalidCode,
  locked: TWO_FACTOR_MESSAGES.locked,
  /** The hold after two-factor sign-in was turned off with a recovery code; `until` is when money may move again. */
  resetHold: (until: number) =>
    `Two-factor sign-in was reset recently, so money cannot move from this account until ${formatDateTimeUtc(until)}. If this was not you, contact support now.`,
} as const;

/** The answers that ask for a code without anything being wrong: shown as a hint, not as an error. */
export const isStepUpPrompt = (message: string | null | undefined) =>
  message === STEP_UP_MESSAGES.prompt || message === STEP_UP_MESSAGES.afterRecoveryCode || isPasskeyPrompt(message);

/** A prompt to a passkey-only account: its passkey answers, and no code field is shown. */
export const isPasskeyPrompt = (message: string | null | undefined) =>
  message === STEP_UP_MESSAGES.passkeyPrompt || message === STEP_UP_MESSAGES.afterRecoveryCodePasskey;

/** A reply (an action's `{ error, field }`, or the back office's reply) that asks for a code, or refuses one. */
export function asksForCode(reply: { field?: string | null } | null | undefined): boolean {
  return reply?.field === STEP_UP_FIELD;
}
