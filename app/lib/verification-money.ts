/**
 * What a client's verification level means for their money, in words the forms, pages and mails share
 * (docs/product.md, "Identity verification", "Money by level"). The rules themselves are in
 * app/lib/verification.ts; the limits are configuration (UNVERIFIED_DEPOSIT_LIMIT, WITHDRAWAL_LIMIT_DAY,
 * WITHDRAWAL_LIMIT_MONTH).
 */
import { formatCents } from "./format";

/** Where a client finishes their verification: every refusal about the level links here. */
export const VERIFICATION_PATH = "/account/verification";

/** The rolling windows a verified client's withdrawals are counted over. */
export type WithdrawalWindow = "day" | "month";

const WINDOW_WORDS: Record<WithdrawalWindow, string> = { day: "24 hours", month: "30 days" };

export const LEVEL_MONEY_MESSAGES = {
  /** An unverified client's deposits would pass UNVERIFIED_DEPOSIT_LIMIT: how much is still allowed. */
  depositLimit: (limitCents: number, remainingCents: number) =>
    `Until your identity is verified, your deposits may total at most ${formatCents(limitCents)}: you can still deposit ${formatCents(Math.max(0, remainingCents))}. Verify your identity to deposit more.`,
  /** A verified client's withdrawal would pass a rolling limit: how much is still allowed in that window. */
  withdrawalLimit: (window: WithdrawalWindow, limitCents: number, remainingCents: number) =>
    `This is over your withdrawal limit of ${formatCents(limitCents)} per ${WINDOW_WORDS[window]}: you can still withdraw ${formatCents(Math.max(0, remainingCents))} now.`,
  /** The desk approving (or proposing to approve) a withdrawal of a client who is not verified. */
  approvalNeedsVerifiedClient:
    "This client's identity is not verified: their withdrawal can be approved only once their verification is approved.",
  /** The desk posting (or proposing) a withdrawal entry on the account of a client who is not verified. */
  entryNeedsVerifiedClient:
    "This client's identity is not verified: no withdrawal can be recorded on their account until their verification is approved.",
} as const;

/** The line above the deposit form: what the client's level allows before they fill it in. */
export function depositAllowance(limitCents: number, remainingCents: number): string {
  return `Until your identity is verified, your deposits (awaiting review and approved) may total ${formatCents(limitCents)}. You can still deposit ${formatCents(Math.max(0, remainingCents))}.`;
}

/**
 * Whether the deposit forms are closed to the client: Restricted, or unverified with nothing left under the limit.
 * A form that could only be refused is not offered (the server refuses it all the same).
 */
export const depositFormClosed = (view: { level: string; remainingCents: number }) =>
  view.level === "restricted" || (view.level === "unverified" && view.remainingCents <= 0);

/** The line above the deposit form once an unverified client's deposits reach the limit: the form cannot be sent. */
export function depositLimitReached(limitCents: number): string {
  return `Your deposits (awaiting review and approved) have reached the ${formatCents(limitCents)} an account may hold before its identity is verified: no new deposit can be sent until it is.`;
}

/** The line above the withdrawal form: a verified client's rolling limits and what is left of each. */
export function withdrawalAllowance(limits: Record<WithdrawalWindow, { limitCents: number; remainingCents: number }>) {
  return (["day", "month"] as const).map(
    (window) =>
      `${formatCents(Math.max(0, limits[window].remainingCents))} of ${formatCents(limits[window].limitCents)} left per ${WINDOW_WORDS[window]}`,
  );
}
