import { pageMeta } from "~/components/route-error";
import { StatementHeader } from "~/components/statement/statement-header";
import { StatementNotFound, StatementToolbar } from "~/components/statement/statement-page-parts";
import { YearlySummaryPanels } from "~/components/statement/yearly-summary-panels";
import { requireSummaryYear } from "~/server/ledger/statement-address.server";
import { yearlySummary } from "~/server/ledger/yearly-summary.server";
import printStylesheet from "~/styles/statement-print.css?url";
import type { Route } from "./+types/statements.year.$year";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: printStylesheet }];

export const meta: Route.MetaFunction = pageMeta(({ loaderData: data }) => [
  { title: data ? `Yearly summary ${data.year}` : "Yearly summary" },
]);

export async function loader(args: Route.LoaderArgs) {
  const { user, year, now } = await requireSummaryYear(args);
  return yearlySummary(args.context.db, user, year, now);
}

export default function YearlySummary({ loaderData: s }: Route.ComponentProps) {
  return (
    <article className="space-y-6 print:space-y-4 print:text-sm">
      <StatementToolbar>
        <a
          href={`/statements/year/${s.year}.pdf`}
          download
          className="rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand-hover"
        >
          Download PDF
        </a>
      </StatementToolbar>
      <StatementHeader title={`Yearly summary ${s.year}`} s={s} />
      <YearlySummaryPanels s={s} />
    </article>
  );
}

/** A year with no summary says why (not a year, or not begun), with the way back to the list. */
export function ErrorBoundary() {
  return <StatementNotFound title="No summary for this year" />;
}
