import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { pageMeta, RouteError } from "~/components/route-error";
import { StatementPanels } from "~/components/statement/statement-panels";
import { useBrand } from "~/lib/brand";
import { formatLongDate } from "~/lib/format";
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
  const brand = useBrand();
  return (
    <article className="space-y-6 print:space-y-4 print:text-sm">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to="/statements" className="text-sm text-brand hover:underline">
          All statements
        </Link>
        <div className="flex gap-2">
          <a
            href={`/statements/${s.month}.csv`}
            download
            className="rounded-md border border-border px-4 py-2 font-medium hover:bg-surface-raised"
          >
            Download CSV
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

      <header className="flex flex-wrap items-start justify-between gap-4 border-b border-border pb-4">
        <div>
          <p className="text-lg font-bold">{brand}</p>
          <h1 className="text-2xl font-bold">Statement for {monthLabel(s.month)}</h1>
          <p className="text-ink-muted">
            Period: {formatLongDate(s.periodStart)} – {formatLongDate(s.periodEnd)} (UTC)
          </p>
        </div>
        <dl className="text-sm sm:text-right">
          <dt className="text-ink-muted">Account holder</dt>
          <dd className="font-medium">{s.holder}</dd>
          <dt className="mt-2 text-ink-muted">Account ID</dt>
          <dd className="break-all font-medium">{s.accountId}</dd>
        </dl>
      </header>

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
