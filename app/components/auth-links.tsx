import type { ReactNode } from "react";
import { Link } from "react-router";

/** The links under the account forms (sign-in, registration, the password pages). */
const LINK_CLASS = "text-brand underline underline-offset-2 hover:decoration-2";

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

/** A link on its own line under a form: the way back, or the way on. */
function LinkUnderForm({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p className="mt-6 text-center text-sm">
      <Link to={to} className={LINK_CLASS}>
        {children}
      </Link>
    </p>
  );
}

/** The way back from the password pages to the sign-in form. */
export function BackToSignIn() {
  return <LinkUnderForm to="/login">Back to sign in</LinkUnderForm>;
}

/** The way on from a page a mail's link opened (a confirmation, a cancel link) to the dashboard. */
export function GoToDashboard() {
  return <LinkUnderForm to="/dashboard">Go to your dashboard</LinkUnderForm>;
}
