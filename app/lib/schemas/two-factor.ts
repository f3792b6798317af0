import { formSchema, secret, text } from "~/lib/forms";
import { MESSAGES } from "./auth";

/**
 * Two-factor sign-in's forms and texts (docs/product.md, "Account security"), shared by the pages and the actions.
 * A code field takes the authenticator's 6 digits or, where offered, a recovery code; which one it is, and
 * whether it is right, only the server decides.
 */
export const TWO_FACTOR_MESSAGES = {
  codePrompt: "Enter the 6-digit code from your authenticator app",
  recoveryPrompt: "Enter one of your recovery codes",
  invalidCode: "Invalid code",
  locked: "Too many wrong codes. Code entry for this account is locked for 15 minutes: please try again later.",
  challengeExpired: "Your sign-in expired or did not start in this browser. Please sign in again.",
  passwordRequired: "Please enter your current password",
  passwordWrong: MESSAGES.currentPasswordWrong,
  setupExpired: "This set-up was replaced or has ended. Please start again.",
  alreadyOn: "Two-factor authentication is already on.",
  notOn: "Two-factor authentication is not on.",
  turnedOn: "Two-factor authentication is on. Save your recovery codes now: they are shown only this once.",
  turnedOff: "Two-factor authentication is off.",
  codesRegenerated:
    "New recovery codes are ready and the old ones no longer work. Save them now: they are shown only this once.",
  adminMustSetUp: "Administrators must use two-factor authentication. Set it up to continue.",
} as const;

/** Recovery codes per enrolment, each good for one sign-in. */
export const RECOVERY_CODE_COUNT = 10;

/** Long enough for a recovery code typed with spaces or dashes; anything longer is no code of ours. */
const CODE_MAX = 32;
const code = (value: unknown) => text(value, CODE_MAX);

/** The sign-in's second step: a code from the authenticator, or a recovery code instead. */
export const secondStepSchema = formSchema(
  (v) => ({ code: code(v.code), method: v.method === "recovery" ? ("recovery" as const) : ("totp" as const) }),
  [
    [
      (v) => v.code !== "",
      (v) => (v.method === "recovery" ? TWO_FACTOR_MESSAGES.recoveryPrompt : TWO_FACTOR_MESSAGES.codePrompt),
      "code",
    ],
  ],
);

/**
 * Confirming an enrolment: a current code proves the authenticator holds the secret, and the password (where the
 * account has one; the server knows) proves the owner is the one turning it on.
 */
export const confirmTwoFactorSchema = formSchema(
  (v) => ({ currentPassword: secret(v.currentPassword), code: code(v.code) }),
  [[(v) => v.code !== "", TWO_FACTOR_MESSAGES.codePrompt, "code"]],
);

/** Turning two-factor off and new recovery codes: the password and a current code (or a recovery code). */
export const manageTwoFactorSchema = formSchema(
  (v) => ({ currentPassword: secret(v.currentPassword), code: code(v.code) }),
  [
    [(v) => v.currentPassword !== "", TWO_FACTOR_MESSAGES.passwordRequired, "currentPassword"],
    [(v) => v.code !== "", TWO_FACTOR_MESSAGES.codePrompt, "code"],
  ],
);
