import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { pageMeta, RouteError } from "~/components/route-error";
import { StatementHeader } from "~/components/statement/statement-header";
import { StatementPanels } from "~/components/statement/statement-panels";
import { monthLabel, STATEMENT_REFUSALS } from "~/lib/statement-month";
import { notFound } from "~/server/http.server";
import { clientStatement, parseStatementMonth } from "~/server/ledger/statements.server";
import { requireClient } from "~/server/session.server";
import printStylesheet from "~/styles/statement-print.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: printStylesheet }];

export const meta: MetaFunction<typeof loader> = pageMeta(({ data }) => [
  { title: data ? `Statement ${monthLabel(data.month)}` : "Statement" },
]);

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireClient(request, context);
  const now = Date.now();
  const period = parseStatementMonth(params.month ?? "", now);
  if (typeof period === "string") notFound(STATEMENT_REFUSALS[period]);
  return clientStatement(context.db, user, period, now);
}

export default function Statement() {
  const s = useLoaderData<typeof loader>();
  return (
    <article className="space-y-6 print:space-y-4 print:text-sm">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to="/statements" className="text-sm text-brand hover:underline">
          All statements
        </Link>
        <div className="flex flex-wrap gap-2">
          <a
            href={`/statements/${s.month}.csv`}
            download
            className="rounded-md border border-border px-4 py-2 font-medium hover:bg-surface-raised"
          >
            Download CSV
          </a>
          <a
            href={`/statements/${s.month}.pdf`}
            download
            className="rounded-md border border-border px-4 py-2 font-medium hover:bg-surface-raised"
          >
            Download PDF
          </a>
          <button
            type="button"
            onClick={() => window.print()}
            className="rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand-hover"
          >
            Print
          </button>
        </div>
      </div>

      <StatementHeader title={`Statement for ${monthLabel(s.month)}`} s={s} />

      <StatementPanels s={s} />
    </article>
  );
}

/** A month with no statement says why (not a month, or not begun), with the way back to the list. */
export function ErrorBoundary() {
  const error = useRouteError();
  const text = isRouteErrorResponse(error) && typeof error.data === "string" ? error.data : null;
  return (
    <RouteError
      notFound={{ title: "No statement for this month", text }}
      back={{ to: "/statements", label: "All statements" }}
    />
  );
}
