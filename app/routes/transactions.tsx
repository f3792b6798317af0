import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useNavigation } from "@remix-run/react";
import { StackedCell, StackedTable, stackedRowClass } from "~/components/account/stacked-table";
import { CancelRequestButton } from "~/components/cancel-request-button";
import { Banner } from "~/components/form";
import { CLIENT_LINK_BUTTON, HistoryFilterForm } from "~/components/history-filter-form";
import { HistoryPageLinks } from "~/components/history-page-links";
import { Moment } from "~/components/moment";
import { pageMeta, RouteError } from "~/components/route-error";
import { SignedAmount } from "~/components/signed-amount";
import { TransactionStatusBadge } from "~/components/transaction-status";
import { hasHistoryFilters, historySearch } from "~/lib/history-filters";
import { typeLabel } from "~/lib/ledger";
import { transactionReference } from "~/lib/reference";
import { isCancellable } from "~/lib/schemas/requests";
import { useFeed, useThrottledRevalidate } from "~/lib/use-feed";
import { clientHistory } from "~/server/ledger/client-history.server";
import { requireClient } from "~/server/session.server";

export const meta: MetaFunction = pageMeta(() => [{ title: "History" }]);

/** The client's own transactions, filtered by the URL's query, 50 a page by keyset. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireClient(request, context);
  return { accountId: user.id, ...(await clientHistory(context.db, user.id, new URL(request.url))) };
}

const COLUMNS = ["Reference", "Date and time", "Type", "Stock or pair", "Amount", "Status", "Action"] as const;

export default function TransactionHistory() {
  const { accountId, filters, submitted, errors, rows, next, previous } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  // An admin's decision on a request shown here changes its status without a reload, as on the dashboard.
  const refresh = useThrottledRevalidate();
  useFeed(`/ws/clients/${accountId}`, { onEvent: refresh, onReconnect: refresh });
  const filtered = hasHistoryFilters(filters);
  const loading = navigation.state === "loading" && navigation.location.pathname === "/transactions";
  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">History</h1>
        {/* A document download, not a client-side navigation: the browser saves the file. */}
        <a href={`/transactions.csv${historySearch(filters)}`} download className={CLIENT_LINK_BUTTON}>
          Download CSV
        </a>
      </div>

      <article className="rounded-xl border border-border bg-surface p-5">
        <HistoryFilterForm look="client" idPrefix="history" submitted={submitted} clearTo="/transactions" />
        {errors.length > 0 ? (
          <div className="mt-4">
            <Banner tone="error">
              {errors.map((message) => (
                <p key={message}>{message}</p>
              ))}
              <p>Showing all your transactions instead.</p>
            </Banner>
          </div>
        ) : null}

        <div aria-busy={loading} className={loading ? "opacity-60" : ""}>
          {rows.length === 0 ? (
            <div className="mt-6 text-sm text-ink-muted" data-testid="history-empty">
              {filters.reference ? (
                <p>{`No transaction of yours has the reference ${filters.reference}.`}</p>
              ) : filtered ? (
                <p>No transactions match these filters.</p>
              ) : (
                <p>
                  No transactions yet.{" "}
                  <Link to="/deposit" className="text-brand underline underline-offset-2 hover:no-underline">
                    Fund your account
                  </Link>{" "}
                  to get started.
                </p>
              )}
            </div>
          ) : (
            <StackedTable caption="Your transactions, newest first" columns={COLUMNS}>
              {rows.map((row) => (
                <tr key={row.id} data-testid="history-row" data-status={row.status} className={stackedRowClass}>
                  <StackedCell label="Reference">
                    <span className="whitespace-nowrap font-mono">{transactionReference(row.id)}</span>
                  </StackedCell>
                  <StackedCell label="Date and time">
                    <Moment at={row.createdAt} />
                  </StackedCell>
                  <StackedCell label="Type">{typeLabel(row.transactionType)}</StackedCell>
                  <StackedCell label="Stock or pair">{row.stock ?? row.tradingPair ?? "—"}</StackedCell>
                  <StackedCell label="Amount">
                    <SignedAmount type={row.transactionType} status={row.status} cents={row.amountCents} />
                  </StackedCell>
                  <StackedCell label="Status">
                    <TransactionStatusBadge status={row.status} />
                  </StackedCell>
                  {row.status === "pending" && isCancellable(row.transactionType) ? (
                    <StackedCell label="Action">
                      <CancelRequestButton request={row} />
                    </StackedCell>
                  ) : (
                    // Nothing to do on this row: at phone width no empty 'Action' line.
                    <td className="hidden sm:table-cell" />
                  )}
                </tr>
              ))}
            </StackedTable>
          )}
        </div>

        <HistoryPageLinks look="client" filters={filters} previous={previous} next={next} />
      </article>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
