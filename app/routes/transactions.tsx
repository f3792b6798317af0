import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { Moment, StackedCell, StackedTable, stackedRowClass } from "~/components/account/stacked-table";
import { CancelRequestButton } from "~/components/cancel-request-button";
import { Banner } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { SignedAmount } from "~/components/signed-amount";
import { STATUS_LABELS, TransactionStatusBadge, TYPE_LABELS } from "~/components/transaction-status";
import { hasHistoryFilters, historySearch } from "~/lib/history-filters";
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from "~/lib/ledger";
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

const fieldClass = "w-full rounded-md border border-border bg-canvas px-3 py-2 text-sm";
const linkButtonClass =
  "rounded-md border border-border px-3 py-2 text-sm font-medium hover:bg-surface-raised focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand";

function Field({ id, label, wide, children }: { id: string; label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? "col-span-2 lg:col-span-1" : undefined}>
      <label htmlFor={id} className="block text-xs font-medium text-ink-muted">
        {label}
      </label>
      <div className="mt-1">{children}</div>
    </div>
  );
}

type Submitted = ReturnType<typeof useLoaderData<typeof loader>>["submitted"];

/** GET, so the filtered view is a URL to bookmark; a new filter starts again at the first page. */
function Filters({ submitted }: { submitted: Submitted }) {
  return (
    <Form
      method="get"
      role="search"
      aria-label="Filter transactions"
      className="grid grid-cols-2 gap-3 lg:grid-cols-[repeat(5,minmax(0,1fr))_auto]"
    >
      <Field id="history-type" label="Type">
        <select id="history-type" name="type" defaultValue={submitted.type ?? ""} className={fieldClass}>
          <option value="">All types</option>
          {TRANSACTION_TYPES.map((type) => (
            <option key={type} value={type}>
              {TYPE_LABELS[type]}
            </option>
          ))}
        </select>
      </Field>
      <Field id="history-status" label="Status">
        <select id="history-status" name="status" defaultValue={submitted.status ?? ""} className={fieldClass}>
          <option value="">All statuses</option>
          {TRANSACTION_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </Field>
      <Field id="history-from" label="From (UTC)">
        <input id="history-from" name="from" type="date" defaultValue={submitted.from} className={fieldClass} />
      </Field>
      <Field id="history-to" label="To (UTC, included)">
        <input id="history-to" name="to" type="date" defaultValue={submitted.to} className={fieldClass} />
      </Field>
      <Field id="history-reference" label="Reference" wide>
        <input
          id="history-reference"
          name="reference"
          type="search"
          defaultValue={submitted.reference}
          placeholder="TX-7Q2M9K"
          autoComplete="off"
          spellCheck={false}
          className={`${fieldClass} font-mono uppercase`}
        />
      </Field>
      <div className="col-span-2 flex items-end gap-2 lg:col-span-1">
        <button
          type="submit"
          className="rounded-md bg-brand-strong px-4 py-2 text-sm font-semibold text-white hover:bg-brand-hover"
        >
          Apply
        </button>
        <Link to="/transactions" className={linkButtonClass}>
          Clear
        </Link>
      </div>
    </Form>
  );
}

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
        <a href={`/transactions.csv${historySearch(filters)}`} download className={linkButtonClass}>
          Download CSV
        </a>
      </div>

      <article className="rounded-xl border border-border bg-surface p-5">
        <Filters submitted={submitted} />
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
                  <StackedCell label="Type">{TYPE_LABELS[row.transactionType]}</StackedCell>
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

        {previous || next ? (
          <nav aria-label="Pages" className="mt-4 flex justify-between gap-2">
            {previous ? (
              <Link to={`/transactions${historySearch(filters, { before: previous })}`} className={linkButtonClass}>
                Previous
              </Link>
            ) : (
              <span />
            )}
            {next ? (
              <Link to={`/transactions${historySearch(filters, { after: next })}`} className={linkButtonClass}>
                Next
              </Link>
            ) : null}
          </nav>
        ) : null}
      </article>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
