import { Panel } from "~/components/dashboard/panels";
import { HoldingsTable } from "~/components/orders/holdings-table";
import { Result } from "~/components/orders/result";
import { BalanceChart } from "~/components/portfolio/balance-chart";
import { PositionsTable } from "~/components/portfolio/positions-table";
import { RangeSwitch } from "~/components/portfolio/range-switch";
import { ResultsChart } from "~/components/portfolio/results-chart";
import { pageMeta, RouteError } from "~/components/route-error";
import { formatCents } from "~/lib/format";
import { holdingViews, marksOf } from "~/lib/holdings";
import { parseRange, RANGE_LABELS, RANGE_REFUSAL } from "~/lib/portfolio";
import { useFeed, useThrottledRevalidate } from "~/lib/use-feed";
import { useQuotes } from "~/lib/use-quotes";
import { badRequest } from "~/server/http.server";
import { portfolioData } from "~/server/ledger/portfolio.server";
import { holdingRowsQuery } from "~/server/positions/reads.server";
import { quoteViews } from "~/server/quotes/views.server";
import { requireClient } from "~/server/session.server";
import type { Route } from "./+types/portfolio";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: "Portfolio" }]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireClient(request, context);
  const range = parseRange(new URL(request.url).searchParams.get("range"));
  if (!range) badRequest(RANGE_REFUSAL);
  const [portfolio, holdingRows] = await Promise.all([
    portfolioData(context.db, user.id, range),
    holdingRowsQuery(context.db, user.id),
  ]);
  // The holdings' first prices, right before hydration; the page asks for newer ones while it is open.
  const quotes = await quoteViews(
    context.bindings,
    holdingRows.map((row) => row.symbol),
  );
  return { userId: user.id, range, ...portfolio, holdingRows, quotes };
}

export default function Portfolio({ loaderData }: Route.ComponentProps) {
  const { userId, range, points, results, balanceCents, positions, holdingRows, quotes: firstQuotes } = loaderData;
  const symbols = holdingRows.map((row) => row.symbol);
  const quotes = useQuotes(symbols, firstQuotes);
  const { holdings, accountValueCents, unrealizedCents, complete } = holdingViews(
    holdingRows,
    marksOf(quotes),
    balanceCents,
  );
  // A decision on one of the client's requests moves the figures: the page follows it, as the dashboard does.
  const refresh = useThrottledRevalidate();
  useFeed(`/ws/clients/${userId}`, { onEvent: refresh, onReconnect: refresh });
  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Portfolio</h1>
          <p className="mt-2 text-ink-muted">
            Balance now: <span className="font-semibold text-ink tabular-nums">{formatCents(balanceCents)}</span>
          </p>
          {holdings.length > 0 ? (
            <p className="mt-1 text-ink-muted" data-testid="account-value">
              Account value:{" "}
              <span className="font-semibold text-ink tabular-nums">{formatCents(accountValueCents)}</span> (the balance
              and <Result cents={unrealizedCents} /> of unrealized results
              {complete ? "" : "; a holding without a price counts at its cost"})
            </p>
          ) : null}
        </div>
        <RangeSwitch current={range} />
      </div>
      <Panel title="Balance">
        <BalanceChart points={points} title={`Balance at the end of each day, ${RANGE_LABELS[range].toLowerCase()}`} />
      </Panel>
      <Panel title="Results by month">
        <ResultsChart results={results} title="Profit minus loss of each month" />
      </Panel>
      <Panel title="Holdings">
        <HoldingsTable holdings={holdings} />
      </Panel>
      <Panel title="Stock deposits">
        <PositionsTable positions={positions} />
      </Panel>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
