import { Link } from "react-router";

export interface DashboardAccount {
  id: string;
  email: string;
  phoneNumber: string;
  firstName: string;
  status: string;
  /** "Welcome" on the sign-in that began this profile, "Welcome back" after. */
  firstVisit: boolean;
}

/** The greeting and the account's identifiers, with the way to its statements. */
export function AccountCard({ account }: { account: DashboardAccount }) {
  const active = account.status === "active";
  return (
    <article className="rounded-xl border border-border bg-surface p-5">
      <p className="text-xl font-semibold" data-testid="greeting">
        {account.firstVisit ? "Welcome" : "Welcome back"}, {account.firstName}
      </p>
      {/* The Account ID column is as wide as the ID, so it never breaks inside it; the e-mail takes the rest. */}
      <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-[minmax(0,1fr)_max-content] sm:gap-x-6 lg:grid-cols-[max-content_max-content_minmax(0,1fr)_max-content]">
        <div>
          <dt className="text-ink-muted">Account status</dt>
          <dd className={`font-semibold capitalize ${active ? "text-success" : "text-danger"}`}>{account.status}</dd>
        </div>
        <div>
          <dt className="text-ink-muted">Account ID</dt>
          <dd className="font-medium sm:whitespace-nowrap" data-testid="account-id">
            {/* On the narrowest phones it may still wrap, but only after a hyphen. */}
            {account.id
              .split("-")
              .map((part, i, parts) =>
                i === parts.length - 1 ? part : [`${part}-`, <wbr key={`${String(i)}:${part}`} />],
              )}
          </dd>
        </div>
        <div>
          <dt className="text-ink-muted">Email</dt>
          <dd className="break-all font-medium">{account.email}</dd>
        </div>
        <div>
          <dt className="text-ink-muted">Phone</dt>
          <dd className="font-medium">{account.phoneNumber || "N/A"}</dd>
        </div>
      </dl>
      <Link to="/statements" className="mt-3 inline-block text-sm font-medium text-brand hover:underline">
        Statements
      </Link>
    </article>
  );
}
