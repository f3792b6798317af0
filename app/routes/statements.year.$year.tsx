import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { pageMeta, RouteError } from "~/components/route-error";
import { StatementHeader } from "~/components/statement/statement-header";
import { YearlySummaryPanels } from "~/components/statement/yearly-summary-panels";
import { SUMMARY_REFUSALS } from "~/lib/statement-month";
import { notFound } from "~/server/http.server";
import { parseSummaryYear, yearlySummary } from "~/server/ledger/yearly-summary.server";
import { requireClient } from "~/server/session.server";
import printStylesheet from "~/styles/statement-print.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: printStylesheet }];

export const meta: MetaFunction<typeof loader> = pageMeta(({ data }) => [
  { title: data ? `Yearly summary ${data.year}` : "Yearly summary" },
]);

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireClient(request, context);
  const now = Date.now();
  const year = parseSummaryYear(params.year ?? "", now);
  if (typeof year === "string") notFound(SUMMARY_REFUSALS[year]);
  return yearlySummary(context.db, user, year, now);
}

export default function YearlySummary() {
  const s = useLoaderData<typeof loader>();
  return (
    <article className="space-y-6 print:space-y-4 print:text-sm">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to="/statements" className="text-sm text-brand hover:underline">
          All statements
        </Link>
        <a
          href={`/statements/year/${s.year}.pdf`}
          download
          className="rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand-hover"
        >
          Download PDF
        </a>
      </div>
      <StatementHeader title={`Yearly summary ${s.year}`} s={s} />
      <YearlySummaryPanels s={s} />
    </article>
  );
}

/** A year with no summary says why (not a year, or not begun), with the way back to the list. */
export function ErrorBoundary() {
  const error = useRouteError();
  const text = isRouteErrorResponse(error) && typeof error.data === "string" ? error.data : null;
  return (
    <RouteError
      notFound={{ title: "No summary for this year", text }}
      back={{ to: "/statements", label: "All statements" }}
    />
  );
}
