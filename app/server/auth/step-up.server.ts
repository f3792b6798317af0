/**
 * Step-up for money (docs/product.md, "Account security"; docs/decisions/0019): the actions that move money or
 * decide where it goes need a fresh second factor, a TOTP code entered in this session in the last 10 minutes
 * or typed into the same form (the field `stepUpCode`).
 *
 * - A client with two-factor sign-in on: a withdrawal request (which is also how a payout address is saved).
 * - An admin, always: saving deposit wallets, a ledger entry, approving a withdrawal, deleting a client's data,
 *   approving another admin's proposal (second approval).
 *   An admin without two-factor sign-in never reaches this (the guards send them to enrolment); were one to,
 *   no session of theirs is fresh and no code is right, so the action is still refused.
 *
 * Without a fresh factor the action answers with the code prompt and writes nothing. A wrong code answers
 * 'Invalid code' and spends one of the account's second-factor budget (`BUDGETS.secondFactorPerAccount`,
 * shared with the sign-in second step); a right code is spent (single use) and makes this session fresh.
 * Routes check before the command runs and hand a refusal back like any other.
 */
import { and, eq } from "drizzle-orm";
import { STEP_UP_FIELD, STEP_UP_MESSAGES } from "~/lib/step-up";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import type { AppEnv } from "../env.server";
import type { SessionUser } from "../session.server";
import { tryAuthenticatorCode } from "./two-factor.server";

/** How long a code entered in a session covers the money actions after it. */
export const STEP_UP_WINDOW_MS = 10 * 60 * 1000;

/** The actions behind step-up; every route that runs one names it. */
export type StepUpAction =
  | "withdrawal"
  | "depositWallets"
  | "ledgerEntry"
  | "withdrawalApproval"
  | "clientDeletion"
  | "proposalApproval";

export type StepUpCheck = { ok: true } | { ok: false; error: string; status: number; field?: typeof STEP_UP_FIELD };

type StepUpContext = { db: Db; env: AppEnv };

const PASSED: StepUpCheck = { ok: true };
const asked = (error: string, status: number): StepUpCheck => ({ ok: false, error, status, field: STEP_UP_FIELD });

/**
 * Who must step up for each action: anyone for the back office's (only admins reach them, and their actions move
 * every client's money), only someone with two-factor sign-in on for a withdrawal (a client without it has no
 * code to give).
 */
const REQUIRED_FOR: Record<StepUpAction, "always" | "withTwoFactor"> = {
  withdrawal: "withTwoFactor",
  depositWallets: "always",
  ledgerEntry: "always",
  withdrawalApproval: "always",
  clientDeletion: "always",
  // A second admin's approval is what makes a large move or a wallet change happen.
  proposalApproval: "always",
};

export function stepUpRequired(user: Pick<SessionUser, "role" | "twoFactorEnabled">, action: StepUpAction): boolean {
  return REQUIRED_FOR[action] === "always" || user.role === "admin" || user.twoFactorEnabled;
}

/** A code was entered in this session within the window. */
export function hasFreshSecondFactor(
  user: Pick<SessionUser, "twoFactorEnabled" | "secondFactorAt">,
  now = Date.now(),
): boolean {
  return user.twoFactorEnabled && user.secondFactorAt !== null && now - user.secondFactorAt < STEP_UP_WINDOW_MS;
}

/**
 * The step-up check of one action, before its command runs: passes when none is needed or the session is
 * fresh; otherwise checks the code of the form, if any.
 */
export async function checkStepUp(
  context: StepUpContext,
  user: SessionUser,
  form: FormData,
  action: StepUpAction,
  now = Date.now(),
): Promise<StepUpCheck> {
  if (!stepUpRequired(user, action)) return PASSED;
  if (hasFreshSecondFactor(user, now)) return PASSED;
  const code = codeOf(form);
  if (code === "") return asked(STEP_UP_MESSAGES.prompt, 401);
  return spendCode(context, user, code, now);
}

/**
 * An admin's decision: only approving a withdrawal needs step-up (rejecting moves no money; approving a
 * deposit credits what the client already sent). The row's type is read only when the session is not fresh.
 */
export async function checkDecisionStepUp(
  context: StepUpContext,
  admin: SessionUser,
  form: FormData,
  decision: { transactionId: number; userId: string; approve: boolean },
  now = Date.now(),
): Promise<StepUpCheck> {
  if (!decision.approve || hasFreshSecondFactor(admin, now)) return PASSED;
  const { transactions } = schema;
  const row = await context.db
    .select({ type: transactions.transactionType })
    .from(transactions)
    .where(and(eq(transactions.id, decision.transactionId), eq(transactions.userId, decision.userId)))
    .get();
  // Not this client's row: the decision itself answers that it was not found.
  if (row?.type !== "withdraw") return PASSED;
  return checkStepUp(context, admin, form, "withdrawalApproval", now);
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
  await context.db.update(schema.sessions).set({ secondFactorAt: now }).where(eq(schema.sessions.id, user.sessionId));
  return PASSED;
}
