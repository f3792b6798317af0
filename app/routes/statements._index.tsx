import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { pageMeta, RouteError } from "~/components/route-error";
import { monthLabel } from "~/lib/statement-month";
import { statementMonths } from "~/server/ledger/statements.server";
import { requireClient } from "~/server/session.server";

export const meta: MetaFunction = pageMeta(() => [{ title: "Statements" }]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireClient(request, context);
  return { months: await statementMonths(context.db, user.id) };
}

export default function Statements() {
  const { months } = useLoaderData<typeof loader>();
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
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
