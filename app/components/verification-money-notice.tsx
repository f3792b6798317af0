import type { ReactNode } from "react";
import { Link } from "react-router";
import { VERIFICATION_LEVEL_LABELS, VERIFICATION_MESSAGES, type VerificationLevel } from "~/lib/verification";
import {
  depositAllowance,
  depositLimitReached,
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
  <Link to={VERIFICATION_PATH} className="inline-block font-medium text-brand underline hover:decoration-2">
    Verify your identity
  </Link>
);

/** Documents sent and not decided: the way forward is to wait, not a page that can change nothing. */
const InReview = () => <p>{VERIFICATION_MESSAGES.inReview}</p>;

export function DepositLevelNotice(view: {
  level: VerificationLevel;
  inReview: boolean;
  daysLeft: number;
  limitCents: number;
  remainingCents: number;
}) {
  if (view.level === "verified") return null;
  if (view.level === "restricted") {
    return (
      <LevelBox level="restricted" alert>
        <p>{VERIFICATION_MESSAGES.restricted}</p>
        {view.inReview ? <InReview /> : <VerifyLink />}
      </LevelBox>
    );
  }
  // At the limit, the form cannot be sent: the notice says why, as an alert.
  const atLimit = view.remainingCents <= 0;
  return (
    <LevelBox level="unverified" alert={atLimit}>
      <p>{atLimit ? depositLimitReached(view.limitCents) : depositAllowance(view.limitCents, view.remainingCents)}</p>
      {view.inReview ? (
        <InReview />
      ) : (
        <>
          <p>{`${view.daysLeft === 1 ? "1 day" : `${view.daysLeft} days`} left to verify your identity before new deposits stop.`}</p>
          <VerifyLink />
        </>
      )}
    </LevelBox>
  );
}

/** Before verification: the refusal and the way out, instead of a form that could not be sent. */
export function WithdrawalLevelNotice(view: {
  level: VerificationLevel;
  inReview: boolean;
  limits: Record<WithdrawalWindow, { limitCents: number; remainingCents: number }> | null;
}) {
  if (view.level !== "verified" || !view.limits) {
    return (
      <LevelBox level={view.level} alert>
        <p>{VERIFICATION_MESSAGES.verifyBeforeWithdrawing}</p>
        {view.inReview ? <InReview /> : <VerifyLink />}
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
