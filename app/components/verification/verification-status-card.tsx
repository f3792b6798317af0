import { Link } from "react-router";
import { daysLeftText, type VerificationSummary } from "~/lib/verification-summary";

const LEVEL_STYLES: Record<VerificationSummary["level"], string> = {
  verified: "bg-success/15 text-success",
  unverified: "bg-pending/15 text-pending",
  restricted: "bg-danger/15 text-danger",
};

/** What the client must do next, as the card's link says it; none once verified or while in review. */
function nextStep(summary: VerificationSummary): string | null {
  if (summary.status === "approved" || summary.status === "submitted") return null;
  if (summary.status === "rejected") return "Correct and send again";
  if (summary.status === "more_info_needed") return "Send what was asked";
  return "Verify your identity";
}

/**
 * The client's level and verification status, with the days left and the reviewer's words when there are any:
 * on the dashboard, in Account Settings and at the top of /account/verification (`withLink` off there).
 */
export function VerificationStatusCard({
  summary,
  withLink = true,
  title = "Identity verification",
}: {
  summary: VerificationSummary;
  withLink?: boolean;
  title?: string;
}) {
  const step = withLink ? nextStep(summary) : null;
  const deadline = daysLeftText(summary);
  return (
    <article
      className="rounded-xl border border-border bg-surface p-5"
      aria-labelledby="verification-card-title"
      data-testid="verification-status"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="verification-card-title" className="text-lg font-semibold">
          {title}
        </h2>
        <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${LEVEL_STYLES[summary.level]}`}>
          {summary.levelLabel}
        </span>
      </div>
      <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-ink-muted">Status</dt>
          <dd className="font-medium" data-testid="verification-status-label">
            {summary.statusLabel}
          </dd>
        </div>
        <div>
          <dt className="text-ink-muted">Level</dt>
          <dd className="font-medium">{summary.levelLabel}</dd>
        </div>
      </dl>
      {summary.status === "rejected" && summary.reviewNote ? (
        <p className="mt-3 text-sm">
          <span className="font-medium">Reason: </span>
          {summary.reviewNote}
        </p>
      ) : null}
      {summary.status === "more_info_needed" ? (
        <p className="mt-3 text-sm">
          {summary.reviewDocumentLabel ? (
            <>
              <span className="font-medium">Send again: </span>
              {summary.reviewDocumentLabel}.{" "}
            </>
          ) : null}
          {summary.reviewNote}
        </p>
      ) : null}
      {deadline ? (
        <p className={`mt-3 text-sm ${summary.level === "restricted" ? "text-danger" : "text-ink-muted"}`}>
          {deadline}
        </p>
      ) : null}
      {step ? (
        <Link
          to="/account/verification"
          className="mt-4 inline-flex items-center justify-center rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand-hover focus:outline-none focus:ring-2 focus:ring-brand/60"
        >
          {step}
        </Link>
      ) : null}
    </article>
  );
}
