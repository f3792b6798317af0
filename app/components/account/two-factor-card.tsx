import { Link } from "react-router";

/** The "Two-factor authentication" card of /account: whether it is on, and the way to its set-up page. */
export function TwoFactorCard({
  enabled,
  recoveryCodesLeft,
  passkeyOn = false,
}: {
  enabled: boolean;
  recoveryCodesLeft: number;
  /** The account holds a passkey: two-factor sign-in is on without the app (docs/product.md, "Passkeys"). */
  passkeyOn?: boolean;
}) {
  const on = enabled || passkeyOn;
  return (
    <article className="rounded-xl border border-border bg-surface p-6" aria-labelledby="two-factor-card-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="two-factor-card-title" className="text-lg font-semibold">
          Two-factor authentication
        </h2>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${
            on ? "bg-success/15 text-success" : "bg-pending/15 text-pending"
          }`}
        >
          {on ? "On" : "Off"}
        </span>
      </div>
      <p className="mt-2 text-sm text-ink-muted">
        {enabled
          ? `Signing in asks for a code from your authenticator app. ${recoveryCodesLeftText(recoveryCodesLeft)}`
          : passkeyOn
            ? "Signing in with your password asks for your passkey next. An authenticator app adds codes as another way."
            : "Add a code from an authenticator app to your password, so that your password alone no longer opens your account."}
      </p>
      <Link
        to="/account/two-factor"
        className="mt-4 inline-flex items-center justify-center rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand-hover focus:outline-none focus:ring-2 focus:ring-brand/60"
      >
        {enabled
          ? "Manage two-factor authentication"
          : passkeyOn
            ? "Add an authenticator app"
            : "Set up two-factor authentication"}
      </Link>
    </article>
  );
}

/** How many recovery codes are left, and what to do when none are: without one, a lost phone locks the owner out. */
function recoveryCodesLeftText(left: number): string {
  if (left === 0) return "You have no unused recovery codes: get new ones under Manage two-factor authentication.";
  return left === 1 ? "1 recovery code is unused." : `${left} recovery codes are unused.`;
}
