/**
 * Step-up for money (docs/product.md, "Step-up for money"; docs/decisions/0019): the actions that move money or
 * decide where it goes need a fresh second factor, an authenticator's code entered (or a passkey used, through
 * /passkeys/verify) in this session in the last 10 minutes, or a code typed into the same form (the field
 * `stepUpCode`). A recovery code is never one: it proves the
 * person holds a sheet of paper, not the phone, and a session signed in with one is asked for a code at its
 * first money act, with a prompt that says why.
 *
 * Which acts need it, and from whom, is the acts table's (`freshCode` in app/lib/acts.ts), and its runner
 * (app/server/acts.server.ts) is the one caller. An
 * admin without two-factor sign-in never reaches this (the guards send them to enrolment); were one to, no
 * session of theirs is fresh and no code is right, so the action is still refused.
 *
 * Without a fresh factor the action answers with the code prompt and writes nothing. A wrong code answers
 * 'Invalid code' and spends one of the account's second-factor budget (`BUDGETS.secondFactorPerAccount`,
 * shared with the sign-in second step); a right code is spent (single use) and makes this session fresh.
 */
import { type ActName, freshCodeRequired } from "~/lib/acts";
import { RECOVERY_RESET_HOLD_MS, STEP_UP_FIELD, STEP_UP_MESSAGES } from "~/lib/step-up";
import type { SecondFactorMethod } from "../../../db/enums";
import type { Db } from "../db.server";
import type { AppEnv } from "../env.server";
import type { SessionUser } from "../session.server";
import { freshSecondFactor, tryAuthenticatorCode } from "./second-factor-proof.server";

/** How long a code entered in a session covers the money actions after it. */
export const STEP_UP_WINDOW_MS = 10 * 60 * 1000;

export type StepUpCheck = { ok: true } | { ok: false; error: string; status: number; field?: typeof STEP_UP_FIELD };

type StepUpContext = { db: Db; env: AppEnv };

const PASSED: StepUpCheck = { ok: true };
const asked = (error: string, status: number): StepUpCheck => ({ ok: false, error, status, field: STEP_UP_FIELD });

/** The proofs that make a session fresh for step-up: the authenticator's code or a passkey, not a recovery code. */
const STEP_UP_PROOFS: ReadonlySet<SecondFactorMethod> = new Set(["totp", "passkey"]);

/** An authenticator's code was entered, or a passkey used, in this session within the window. */
export function hasFreshSecondFactor(
  user: Pick<SessionUser, "twoFactorEnabled" | "secondFactorAt" | "secondFactorMethod">,
  now = Date.now(),
): boolean {
  return (
    user.twoFactorEnabled &&
    user.secondFactorAt !== null &&
    user.secondFactorMethod !== null &&
    STEP_UP_PROOFS.has(user.secondFactorMethod) &&
    now - user.secondFactorAt < STEP_UP_WINDOW_MS
  );
}

/**
 * What the prompt says: why a session that signed in with a recovery code is asked at all, else the plain one; a
 * passkey-only account is asked for its passkey, never for an app's code.
 */
function promptFor(user: Pick<SessionUser, "secondFactorMethod" | "hasPasskey" | "hasAuthenticatorApp">) {
  const recovery = user.secondFactorMethod === "recovery_code";
  if (user.hasPasskey && !user.hasAuthenticatorApp)
    return recovery ? STEP_UP_MESSAGES.afterRecoveryCodePasskey : STEP_UP_MESSAGES.passkeyPrompt;
  return recovery ? STEP_UP_MESSAGES.afterRecoveryCode : STEP_UP_MESSAGES.prompt;
}

/** The end of the hold after a two-factor reset with a recovery code, while it lasts; null otherwise. */
export function recoveryHoldUntil(user: Pick<SessionUser, "secondFactorResetAt">, now = Date.now()): number | null {
  if (user.secondFactorResetAt === null) return null;
  const until = user.secondFactorResetAt + RECOVERY_RESET_HOLD_MS;
  return now < until ? until : null;
}

/**
 * The step-up check of one action, before its command runs: refused during the hold after a two-factor reset
 * with a recovery code (whoever is asking, with two-factor on or off); else passes when none is needed or the
 * session is fresh; otherwise checks the code of the form, if any.
 */
export async function checkStepUp(
  context: StepUpContext,
  user: SessionUser,
  form: FormData,
  act: ActName,
  now = Date.now(),
): Promise<StepUpCheck> {
  const holdUntil = recoveryHoldUntil(user, now);
  if (holdUntil !== null) return { ok: false, error: STEP_UP_MESSAGES.resetHold(holdUntil), status: 403 };
  if (!freshCodeRequired(user, act)) return PASSED;
  if (hasFreshSecondFactor(user, now)) return PASSED;
  const code = codeOf(form);
  if (code === "") return asked(promptFor(user), 401);
  return spendCode(context, user, code, now);
}

/** The typed code, spaces removed (apps show "123 456"); an absurdly long value reads as a wrong code. */
function codeOf(form: FormData): string {
  const value = form.get(STEP_UP_FIELD);
  if (typeof value !== "string") return "";
  const code = value.replace(/\s/g, "");
  return code.length <= 16 ? code : "x";
}

/**
 * Checks a code against the account's budget of wrong codes and its authenticator (the same try as the sign-in's
 * second step: parallel guesses never get more than the budget's tries). A right code makes this session fresh.
 */
async function spendCode(context: StepUpContext, user: SessionUser, code: string, now: number): Promise<StepUpCheck> {
  const proof = await tryAuthenticatorCode(context, user.id, code, now);
  if (!proof.ok) {
    return proof.locked ? asked(STEP_UP_MESSAGES.locked, 429) : asked(STEP_UP_MESSAGES.invalidCode, 401);
  }
  await freshSecondFactor(context.db, user.sessionId, now);
  return PASSED;
}
