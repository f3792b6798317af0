import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** The links under the account forms (sign-in, registration, the password pages). */
const LINK_CLASS = "text-brand underline underline-offset-2 hover:no-underline";

/** The line that leads from one account form to the other: "Don't have an account? Register". */
export function OtherAccountForm({ question, to, children }: { question: string; to: string; children: ReactNode }) {
  return (
    <p className="mt-6 text-center text-sm text-ink-muted">
      {question}{" "}
      <Link to={to} className={LINK_CLASS}>
        {children}
      </Link>
    </p>
  );
}

/** The way back from the password pages to the sign-in form. */
export function BackToSignIn() {
  return (
    <p className="mt-6 text-center text-sm">
      <Link to="/login" className={LINK_CLASS}>
        Back to sign in
      </Link>
    </p>
  );
}

/** The way on from a page a mail's link opened (a confirmation, a cancel link) to the dashboard. */
export function GoToDashboard() {
  return (
    <p className="mt-6 text-center text-sm">
      <Link to="/dashboard" className={LINK_CLASS}>
        Go to your dashboard
      </Link>
    </p>
  );
}
