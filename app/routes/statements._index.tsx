import { Link } from "react-router";
import { pageMeta, RouteError } from "~/components/route-error";
import { monthLabel, yearsOf } from "~/lib/statement-month";
import { statementMonths } from "~/server/ledger/statements.server";
import { requireClient } from "~/server/session.server";
import type { Route } from "./+types/statements._index";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: "Statements" }]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireClient(request, context);
  const months = await statementMonths(context.db, user.id);
  return { months, years: yearsOf(months) };
}

export default function Statements({ loaderData }: Route.ComponentProps) {
  const { months, years } = loaderData;
  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-3xl font-bold">Statements</h1>
        <p className="mt-2 text-ink-muted">
          One statement for every month with activity: the money that moved, with your balance before and after, and the
          requests you made.
        </p>
      </div>
      {months.length === 0 ? (
        <p className="rounded-xl border border-border bg-surface p-5 text-ink-muted">
          No activity yet: your first statement appears once you make a request or money moves on your account.
        </p>
      ) : (
        <ul className="divide-y divide-border rounded-xl border border-border bg-surface">
          {months.map((month) => (
            <li key={month}>
              <Link
                to={`/statements/${month}`}
                className="flex items-center justify-between px-5 py-3 hover:bg-surface-raised"
              >
                <span className="font-medium">{monthLabel(month)}</span>
                <span className="text-sm text-brand">View statement</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {years.length > 0 ? (
        <section aria-labelledby="years-title" className="space-y-3">
          <h2 id="years-title" className="text-xl font-semibold">
            Yearly summaries
          </h2>
          <p className="text-ink-muted">
            For each year: deposits, fee deposits, withdrawals, profit and loss and the closing balance, month by month.
          </p>
          <ul className="divide-y divide-border rounded-xl border border-border bg-surface" data-testid="summary-years">
            {years.map((year) => (
              <li key={year} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 px-5 py-3">
                <Link to={`/statements/year/${year}`} className="font-medium text-brand hover:underline">
                  Yearly summary {year}
                </Link>
                <a href={`/statements/year/${year}.pdf`} download className="py-1 text-sm text-brand hover:underline">
                  Download PDF<span className="sr-only"> of the yearly summary {year}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
