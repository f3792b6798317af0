/**
 * Passkeys (docs/product.md, "Passkeys"): the figures and texts the server and the browser share.
 */
import { describeBrowser } from "./user-agent";

/** How many passkeys one account may hold. */
export const MAX_PASSKEYS = 10;
/** A passkey's name: what the person calls it on the Passkeys card. */
export const PASSKEY_NAME_MAX = 64;
/** How long a ceremony's challenge may be answered. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;

export const PASSKEY_MESSAGES = {
  added: "Passkey added.",
  renamed: "Passkey renamed.",
  removed: "Passkey removed.",
  tooMany: `You can add at most ${MAX_PASSKEYS} passkeys. Remove one first.`,
  nameRequired: "Please enter a name for the passkey.",
  nameTooLong: `Please use at most ${PASSKEY_NAME_MAX} characters.`,
  notFound: "That passkey is not on your account.",
  lastWayIn: "This passkey is your only way to sign in. Set a password or link a sign-in provider before removing it.",
  adminNeedsSecondFactor:
    "Administrators must keep two-factor sign-in: set up an authenticator app before removing your last passkey.",
  lastSecondFactor:
    "This is your last passkey: removing it turns two-factor sign-in off, and your recovery codes stop working. Confirm to remove it.",
  removedLast: "Passkey removed. Two-factor sign-in is off.",
  expired: "This passkey request has expired or was already used. Please try again.",
  notRecognised: "This passkey is not registered for this account. Try another passkey or sign in another way.",
  failed: "The passkey could not be verified. Please try again.",
  counterWentBack:
    "This passkey was refused: its signature count went backwards, which can mean it was copied. Sign in another way and contact support.",
  tooManyOpen: "Too many passkey requests from this address. Please wait a few minutes and try again.",
  noPasskey: "There is no passkey on this account.",
  // What the browser reports, in words (the ceremony never shows a stack).
  cancelled: "The passkey request was cancelled or timed out.",
  unsupported: "This browser does not support passkeys. Sign in another way.",
  alreadyRegistered: "This passkey is already registered. Use another one, or remove it first.",
  confirmFirst:
    "Confirm it is you first (a code from your authenticator app or a passkey, below), then remove the passkey.",
  confirmed: "Confirmed: for the next 10 minutes you may add and remove passkeys.",
  confirmToAdd:
    "Confirm it is you first (a code from your authenticator app or a passkey, below), then add the passkey.",
  browserFailed: "The browser could not use a passkey. Please try again.",
} as const;

/** The name a new passkey gets unless the person types one: the browser and system it was made in. */
export const defaultPasskeyName = (userAgent: string | null | undefined) =>
  describeBrowser(userAgent).slice(0, PASSKEY_NAME_MAX);

/** A typed name, trimmed: null when acceptable, else what is wrong. */
export function passkeyNameProblem(name: string): string | null {
  if (name.trim() === "") return PASSKEY_MESSAGES.nameRequired;
  if (name.trim().length > PASSKEY_NAME_MAX) return PASSKEY_MESSAGES.nameTooLong;
  return null;
}
