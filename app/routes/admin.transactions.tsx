import { Link } from "react-router";
import { WatchBadge } from "~/components/admin/client-flags";
import { AdminPageHeader } from "~/components/admin/page-header";
import { VerificationLevelBadge } from "~/components/admin/verification-level";
import { Banner } from "~/components/form";
import { HistoryFilterForm } from "~/components/history-filter-form";
import { HistoryPageLinks } from "~/components/history-page-links";
import { useListNavigation } from "~/components/list-navigation";
import { Moment } from "~/components/moment";
import { pageMeta, RouteError } from "~/components/route-error";
import { StackedTable } from "~/components/stacked-table";
import { adminFilterParams, parseAdminTransactionFilters } from "~/lib/admin-transaction-filters";
import { formatCents } from "~/lib/format";
import { historySearch } from "~/lib/history-filters";
import { typeLabel } from "~/lib/labels";
import { adminPageTitle } from "~/lib/navigation";
import { may } from "~/lib/permissions";
import { transactionReference } from "~/lib/reference";
import { adminTransactionsPage } from "~/server/admin/transactions.server";
import { parseCursor } from "~/server/paging.server";
import { requirePermission } from "~/server/session.server";
import type { Route } from "./+types/admin.transactions";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: adminPageTitle("Transactions") }]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requirePermission(request, context, "readClients");
  const params = new URL(request.url).searchParams;
  const { filters, submitted, errors } = parseAdminTransactionFilters(params);
  // A bad filter shows its message over the unfiltered first page.
  const position =
    errors.length > 0 ? {} : { after: parseCursor(params.get("after")), before: parseCursor(params.get("before")) };
  const page = await adminTransactionsPage(context.db, filters, position, context.env.VERIFICATION_INTRODUCED_AT);
  return { ...page, filters, submitted, errors, mayExport: may(admin.roles, "exportData") };
}

/**
 * What the rows' cells share, set once on the table body rather than on each of the 350 cells (padding, the
 * reference's monospace on one line, the amount's figures, the links' colour, the status's case and colour by the
 * row's `data-status`): the page is this table, and every attribute repeated per row is rendered and sent 50 times.
 */
const ROWS_CLASS = [
  "divide-y divide-border [&>tr>td]:py-2 [&>tr>td]:pr-4",
  "[&>tr>td:first-child]:font-mono [&>tr>td:first-child]:whitespace-nowrap",
  "[&>tr>td:nth-child(5)]:tabular-nums [&>tr>td:last-child]:capitalize",
  "[&_a]:text-brand [&_a:hover]:underline",
  "[&>[data-status=pending]>td:last-child]:text-pending [&>[data-status=approved]>td:last-child]:text-success",
  "[&>[data-status=rejected]>td:last-child]:text-danger [&>[data-status=cancelled]>td:last-child]:text-ink-muted",
].join(" ");

export default function AdminTransactions({ loaderData }: Route.ComponentProps) {
  const { rows, next, previous, filters, submitted, errors, mayExport } = loaderData;
  const extra = adminFilterParams(filters);
  const pendingOnly = filters.status === "pending";
  const followLink = useListNavigation();
  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <AdminPageHeader title="Transactions">Every client's transactions, newest first.</AdminPageHeader>
        <div className="flex flex-wrap gap-3">
          <Link
            to={pendingOnly ? "/admin/transactions" : "/admin/transactions?status=pending"}
            aria-current={pendingOnly ? "page" : undefined}
            className="rounded-md border border-border px-4 py-2 font-medium hover:bg-surface-raised"
          >
            {pendingOnly ? "All transactions" : "Pending only"}
          </Link>
          {mayExport ? (
            <a
              href={`/admin/transactions.csv${historySearch(filters, {}, extra)}`}
              className="rounded-md border border-border px-4 py-2 font-medium hover:bg-surface-raised"
            >
              Download CSV
            </a>
          ) : null}
        </div>
      </div>
      <HistoryFilterForm
        look="desk"
        idPrefix="admin-tx"
        submitted={submitted}
        clearTo="/admin/transactions"
        withClientAndAmount
      />
      {errors.length > 0 ? <Banner tone="error">{errors.join(" ")}</Banner> : null}
      <article className="rounded-xl border border-border bg-surface p-5">
        <div className="overflow-x-auto">
          {/* The client links share one handler (see useListNavigation). */}
          <StackedTable
            columns={["Reference", "Client", "Type", "Pair/Stock", "Amount", "Date", "Status"]}
            className="w-full text-left text-sm sm:min-w-[52rem]"
            bodyClassName={ROWS_CLASS}
            onBodyClick={followLink}
          >
            {rows.map((tx) => (
              <tr key={tx.id} data-status={tx.status}>
                <td>{transactionReference(tx.id)}</td>
                <td>
                  <a href={`/user/${tx.userId}`}>{tx.client}</a>
                </td>
                <td>{typeLabel(tx.transactionType)}</td>
                <td>{tx.tradingPair ?? tx.stock ?? "—"}</td>
                <td>
                  {formatCents(tx.amountCents)}
                  {tx.watched ? <WatchBadge /> : null}
                </td>
                <td>
                  <Moment at={tx.createdAt} />
                </td>
                <td>
                  {tx.status}
                  {tx.level ? (
                    <span className="ml-2">
                      <VerificationLevelBadge level={tx.level} />
                    </span>
                  ) : null}
                </td>
              </tr>
            ))}
          </StackedTable>
          {rows.length === 0 ? <p className="py-4 text-sm text-ink-muted">No transactions found</p> : null}
        </div>
        <HistoryPageLinks look="desk" filters={filters} extra={extra} previous={previous} next={next} />
      </article>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
