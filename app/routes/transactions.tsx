import { Link, useNavigation } from "react-router";
import { CancelRequestButton } from "~/components/cancel-request-button";
import { Banner } from "~/components/form";
import { CLIENT_LINK_BUTTON, HistoryFilterForm } from "~/components/history-filter-form";
import { HistoryPageLinks } from "~/components/history-page-links";
import { IncomingPayments } from "~/components/incoming-payments";
import { Moment } from "~/components/moment";
import { OrderHistory } from "~/components/orders/order-history";
import { PayoutLine } from "~/components/payout-line";
import { pageMeta, RouteError } from "~/components/route-error";
import { SignedAmount } from "~/components/signed-amount";
import { LIST_ROWS, StackedTable } from "~/components/stacked-table";
import { TransactionStatusBadge } from "~/components/transaction-status";
import type { PayoutView } from "~/lib/chain/payouts";
import { hasHistoryFilters, historySearch } from "~/lib/history-filters";
import { typeLabel } from "~/lib/labels";
import { transactionReference } from "~/lib/reference";
import { offersCancel } from "~/lib/schemas/requests";
import { useFeed, useThrottledRevalidate } from "~/lib/use-feed";
import { incomingPayments } from "~/server/chain/incoming.server";
import { clientPayouts } from "~/server/chain/payouts.server";
import { clientHistory } from "~/server/ledger/client-history.server";
import { clientOrders } from "~/server/positions/order-history.server";
import { requireClient } from "~/server/session.server";
import type { Route } from "./+types/transactions";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: "History" }]);

/** The client's own transactions, filtered by the URL's query, 50 a page by keyset; their orders, paged apart. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireClient(request, context);
  const url = new URL(request.url);
  const history = await clientHistory(context.db, user.id, url);
  return {
    accountId: user.id,
    incoming: await incomingPayments(context.db, context.bindings, user.id),
    payouts: await clientPayouts(context, user.id, history.rows),
    orders: await clientOrders(context.db, user.id, url),
    ...history,
  };
}

const COLUMNS = ["Reference", "Date and time", "Type", "Stock or pair", "Amount", "Status", "Action"] as const;

/**
 * The client's list rows, and the reference on one line in monospace, set once on the table body. The monospace is
 * on a span inside the cell, whose line it makes a pixel taller than a monospace cell's: the rows keep their height.
 */
const ROWS_CLASS = `${LIST_ROWS} [&>tr>td:first-child]:whitespace-nowrap [&>tr>td:first-child>span]:font-mono`;

export default function TransactionHistory({ loaderData }: Route.ComponentProps) {
  const { accountId, incoming, payouts, orders, filters, submitted, errors, rows, next, previous } = loaderData;
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

      <IncomingPayments payments={incoming} />
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

        {/* Between the phone's stacked rows and a wide screen, the table scrolls inside the card, not the page. */}
        <div aria-busy={loading} className={`overflow-x-auto ${loading ? "opacity-60" : ""}`}>
          {rows.length === 0 ? (
            <div className="mt-6 text-sm text-ink-muted" data-testid="history-empty">
              {filters.reference ? (
                <p>{`No transaction of yours has the reference ${filters.reference}.`}</p>
              ) : filtered ? (
                <p>No transactions match these filters.</p>
              ) : (
                <p>
                  No transactions yet.{" "}
                  <Link to="/deposit" className="text-brand underline underline-offset-2 hover:decoration-2">
                    Fund your account
                  </Link>{" "}
                  to get started.
                </p>
              )}
            </div>
          ) : (
            <StackedTable
              caption="Your transactions, newest first"
              columns={COLUMNS}
              className="mt-4 w-full text-left text-sm"
              bodyClassName={ROWS_CLASS}
            >
              {rows.map((row) => (
                <tr key={row.id} data-testid="history-row" data-status={row.status}>
                  <td>
                    <span>{transactionReference(row.id)}</span>
                  </td>
                  <td>
                    <Moment at={row.createdAt} />
                  </td>
                  <td>
                    {typeLabel(row.transactionType)}
                    {row.memo ? (
                      <span className="block max-w-xs text-xs text-ink-muted">Reason: {row.memo}</span>
                    ) : null}
                    {payouts[row.id] ? <PayoutLine payout={payouts[row.id] as PayoutView} /> : null}
                  </td>
                  <td>{row.stock ?? row.tradingPair ?? "—"}</td>
                  <td>
                    <SignedAmount type={row.transactionType} status={row.status} cents={row.amountCents} />
                  </td>
                  <td>
                    <TransactionStatusBadge status={row.status} />
                  </td>
                  {/* Nothing to do on a decided row: the empty cell is left out at phone width. */}
                  <td>{offersCancel(row) ? <CancelRequestButton request={row} /> : null}</td>
                </tr>
              ))}
            </StackedTable>
          )}
        </div>

        <HistoryPageLinks look="client" filters={filters} previous={previous} next={next} />
      </article>

      <OrderHistory {...orders} />
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
