import { pageMeta } from "~/components/route-error";
import { StatementHeader } from "~/components/statement/statement-header";
import { StatementNotFound, StatementToolbar } from "~/components/statement/statement-page-parts";
import { StatementPanels } from "~/components/statement/statement-panels";
import { monthLabel } from "~/lib/statement-month";
import { requireStatementMonth } from "~/server/ledger/statement-address.server";
import { clientStatement } from "~/server/ledger/statements.server";
import printStylesheet from "~/styles/statement-print.css?url";
import type { Route } from "./+types/statements.$month";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: printStylesheet }];

export const meta: Route.MetaFunction = pageMeta(({ loaderData: data }) => [
  { title: data ? `Statement ${monthLabel(data.month)}` : "Statement" },
]);

export async function loader(args: Route.LoaderArgs) {
  const { user, period, now } = await requireStatementMonth(args);
  return clientStatement(args.context.db, user, period, now);
}

export default function Statement({ loaderData: s }: Route.ComponentProps) {
  return (
    <article className="space-y-6 print:space-y-4 print:text-sm">
      <StatementToolbar>
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
      </StatementToolbar>

      <StatementHeader title={`Statement for ${monthLabel(s.month)}`} s={s} />

      <StatementPanels s={s} />
    </article>
  );
}

/** A month with no statement says why (not a month, or not begun), with the way back to the list. */
export function ErrorBoundary() {
  return <StatementNotFound title="No statement for this month" />;
}
