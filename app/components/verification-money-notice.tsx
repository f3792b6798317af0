import type { ReactNode } from "react";
import { Link } from "react-router";
import { VERIFICATION_LEVEL_LABELS, VERIFICATION_MESSAGES, type VerificationLevel } from "~/lib/verification";
import {
  depositAllowance,
  VERIFICATION_PATH,
  type WithdrawalWindow,
  withdrawalAllowance,
} from "~/lib/verification-money";

/**
 * What the client's verification level allows, shown above a money form before they fill it in (docs/product.md,
 * "Identity verification"). A refusal the form cannot get past is an alert with the way to verify.
 */
function LevelBox({ level, alert, children }: { level: VerificationLevel; alert?: boolean; children: ReactNode }) {
  return (
    <div
      role={alert ? "alert" : "status"}
      data-testid="verification-level"
      className={`mt-6 rounded-xl border p-4 text-sm ${alert ? "border-danger/50 bg-danger/10" : "border-border bg-surface"}`}
    >
      <p className="font-semibold">{`Account level: ${VERIFICATION_LEVEL_LABELS[level]}`}</p>
      <div className="mt-1 space-y-1">{children}</div>
    </div>
  );
}

const VerifyLink = () => (
  <Link to={VERIFICATION_PATH} className="inline-block font-medium text-brand underline hover:no-underline">
    Verify your identity
  </Link>
);

export function DepositLevelNotice(view: {
  level: VerificationLevel;
  daysLeft: number;
  limitCents: number;
  remainingCents: number;
}) {
  if (view.level === "verified") return null;
  if (view.level === "restricted") {
    return (
      <LevelBox level="restricted" alert>
        <p>{VERIFICATION_MESSAGES.restricted}</p>
        <VerifyLink />
      </LevelBox>
    );
  }
  return (
    <LevelBox level="unverified">
      <p>{depositAllowance(view.limitCents, view.remainingCents)}</p>
      <p>{`${view.daysLeft === 1 ? "1 day" : `${view.daysLeft} days`} left to verify your identity before new deposits stop.`}</p>
      <VerifyLink />
    </LevelBox>
  );
}

/** Before verification: the refusal and the way out, instead of a form that could not be sent. */
export function WithdrawalLevelNotice(view: {
  level: VerificationLevel;
  limits: Record<WithdrawalWindow, { limitCents: number; remainingCents: number }> | null;
}) {
  if (view.level !== "verified" || !view.limits) {
    return (
      <LevelBox level={view.level} alert>
        <p>{VERIFICATION_MESSAGES.verifyBeforeWithdrawing}</p>
        <VerifyLink />
      </LevelBox>
    );
  }
  return (
    <LevelBox level="verified">
      <p>Withdrawal limits (awaiting review and approved count):</p>
      <ul className="list-disc pl-5">
        {withdrawalAllowance(view.limits).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </LevelBox>
  );
}
