import { Link, useFetcher } from "react-router";

/** The dashboard's one suggestion to turn on two-factor sign-in; dismissed for good with one click. */
export function TwoFactorSuggestion() {
  const dismiss = useFetcher();
  // Gone at once: the server remembers the dismissal, the page need not wait for it.
  if (dismiss.state !== "idle" || dismiss.data !== undefined) return null;
  return (
    <aside
      aria-label="Two-factor authentication"
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-brand/40 bg-brand/10 p-4"
    >
      <p className="text-sm">
        Protect your account with two-factor authentication: a code from your phone at each sign-in, on top of your
        password.
      </p>
      <div className="flex items-center gap-3">
        <Link
          to="/account/two-factor"
          className="rounded-md bg-brand-strong px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-hover"
        >
          Set it up
        </Link>
        <dismiss.Form method="post" action="/dashboard/two-factor-suggestion">
          <input type="hidden" name="intent" value="dismiss" />
          <button type="submit" className="rounded-md px-3 py-1.5 text-sm font-medium text-ink-muted hover:text-ink">
            Dismiss
          </button>
        </dismiss.Form>
      </div>
    </aside>
  );
}
