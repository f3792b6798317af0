import { Link } from "react-router";

/** The registration forms' "I accept the Terms of Service and the Privacy Policy", with its error under it. */
export function TermsCheckbox({ error }: { error: string | undefined }) {
  return (
    <>
      <div className="flex items-start gap-2 text-sm">
        <input
          id="terms"
          name="terms"
          type="checkbox"
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "terms-error" : undefined}
          className="mt-1 h-4 w-4 accent-brand"
        />
        <label htmlFor="terms" className="text-ink-muted">
          I accept the{" "}
          <Link to="/terms-of-service" className="text-brand underline underline-offset-2 hover:decoration-2">
            Terms of Service
          </Link>{" "}
          and the{" "}
          <Link to="/privacy" className="text-brand underline underline-offset-2 hover:decoration-2">
            Privacy Policy
          </Link>
        </label>
      </div>
      {error ? (
        <p id="terms-error" className="-mt-3 text-sm text-danger">
          {error}
        </p>
      ) : null}
    </>
  );
}
