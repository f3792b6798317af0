import { Link } from "react-router";
import { VERIFICATION_LEVEL_LABELS, VERIFICATION_STATUS_LABELS, type VerificationLevel } from "~/lib/verification";
import type { VerificationStatus } from "../../../db/enums";

const TONES: Record<VerificationLevel, string> = {
  verified: "bg-success/15 text-success",
  unverified: "bg-pending/15 text-pending",
  restricted: "bg-danger/15 text-danger",
};

/** A client's verification level as the back office shows it beside their name and their withdrawals. */
export function VerificationLevelBadge({ level }: { level: VerificationLevel }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${TONES[level]}`} data-testid="verification-level">
      {VERIFICATION_LEVEL_LABELS[level]}
    </span>
  );
}

/** The client page's identity line: the level, the case's state and the way to its review. */
export function ClientVerification({
  verification,
}: {
  verification: { level: VerificationLevel; status: VerificationStatus | null; caseId: number | null };
}) {
  const state = VERIFICATION_STATUS_LABELS[verification.status ?? "none"];
  return (
    <p className="mt-4 flex flex-wrap items-center gap-2 border-t border-border pt-3 text-sm">
      <span className="text-ink-muted">Identity</span>
      <VerificationLevelBadge level={verification.level} />
      {/* An approved case reads 'Verified', as its level already says. */}
      {state === VERIFICATION_LEVEL_LABELS[verification.level] ? null : <span>{state}</span>}
      {verification.caseId !== null && verification.status !== "draft" ? (
        <Link to={`/admin/verifications/${verification.caseId}`} className="text-brand hover:underline">
          Open the verification
        </Link>
      ) : null}
    </p>
  );
}
