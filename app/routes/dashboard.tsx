import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useFetcher, useLoaderData } from "@remix-run/react";
import { type ReactNode, useEffect, useState } from "react";
import { ConfirmEmailNotice } from "~/components/account/confirm-email-notice";
import { TwoFactorSuggestion } from "~/components/account/two-factor-suggestion";
import { CancelRequestButton } from "~/components/cancel-request-button";
import { pageMeta, RouteError } from "~/components/route-error";
import { SignedAmount } from "~/components/signed-amount";
import { TradingViewWidget } from "~/components/trading-view-chart";
import { VerificationStatusCard } from "~/components/verification/verification-status-card";
import { formatCents, formatMediumDate } from "~/lib/format";
import { historySearch } from "~/lib/history-filters";
import { dashboardTypeLabel } from "~/lib/ledger";
import { transactionReference } from "~/lib/reference";
import { isCancellable } from "~/lib/schemas/requests";
import { useFeed, useThrottledRevalidate } from "~/lib/use-feed";
import { summarizeVerification } from "~/lib/verification-summary";
import { suggestsTwoFactor } from "~/server/auth/two-factor.server";
import { dashboardData } from "~/server/ledger/reads.server";
import { requireClient } from "~/server/session.server";
import { stateOf, verificationStateQuery } from "~/server/verification/cases.server";
import type { loader as activityLoader } from "./dashboard.activity";

export const meta: MetaFunction = pageMeta(() => [{ title: "Dashboard" }]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireClient(request, context, { signedOutTo: "/" });
  const [{ account, ...dashboard }, suggestTwoFactor, verification] = await Promise.all([
    dashboardData(context.db, user.id),
    suggestsTwoFactor(context.db, user),
    verificationStateQuery(context.db, user.id),
  ]);
  const verificationState = stateOf(verification);
  return {
    suggestTwoFactor,
    verification: verificationState ? summarizeVerification(verificationState, Date.now()) : null,
    account: {
      id: user.id,
      email: user.email,
      phoneNumber: account?.phoneNumber ?? "",
      firstName: account?.firstName ?? "",
      status: account?.status ?? "unknown",
      emailConfirmed: account?.emailConfirmedAt != null,
      // "Welcome" on the sign-in that began this profile (registration, or the first one after the client's data
      // was deleted), "Welcome back" after.
      firstVisit:
        account?.lastLoginAt != null &&
        (account.lastLoginAt === account.createdAt || account.lastLoginAt === account.profileCreatedAt),
    },
    ...dashboard,
  };
}

type Row = Awaited<ReturnType<typeof loader>>["recentActivity"][number];

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <article className="rounded-xl border border-border bg-surface p-5">
      <h2 className="text-sm font-medium text-ink-muted">{title}</h2>
      <div className="mt-2">{children}</div>
    </article>
  );
}

function Panel({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <article className="rounded-xl border border-border bg-surface p-5">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{title}</h2>
        {action}
      </div>
      <div className="mt-4">{children}</div>
    </article>
  );
}

/** 'View all': the full history, filtered to what the panel shows. */
function ViewAll({ filters, what }: { filters: Parameters<typeof historySearch>[0]; what: string }) {
  return (
    <Link
      to={`/transactions${historySearch(filters)}`}
      aria-label={`View all ${what}`}
      className="text-sm font-medium text-brand hover:underline"
    >
      View all
    </Link>
  );
}

const Empty = ({ children }: { children: ReactNode }) => <p className="text-sm text-ink-muted">{children}</p>;

const STATUS_STYLES: Record<string, string> = {
  approved: "bg-success/15 text-success",
  pending: "bg-pending/15 text-pending",
  rejected: "bg-danger/15 text-danger",
  cancelled: "bg-ink-muted/15 text-ink-muted",
};

/** A badge's words where they differ from the status: the panel says 'declined', and 'Cancelled' as a label. */
const STATUS_LABELS: Record<string, string> = { rejected: "declined", cancelled: "Cancelled" };

function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium capitalize ${STATUS_STYLES[status] ?? ""}`}>
      {STATUS_LABELS[status] ?? status}
    </span>
  );
}

function TransactionList({
  rows,
  showStatus = false,
  cancellable = false,
}: {
  rows: Row[];
  showStatus?: boolean;
  /** Pending rows get the client's 'Cancel' (the Pending & Declined panel). */
  cancellable?: boolean;
}) {
  return (
    <ul className="divide-y divide-border">
      {rows.map((row) => (
        <li
          key={row.id}
          data-status={row.status}
          className={`flex flex-wrap items-center justify-between gap-3 py-2 text-sm ${row.status === "cancelled" ? "opacity-60" : ""}`}
        >
          <div className="min-w-0">
            <p className="font-medium">
              {dashboardTypeLabel(row.transactionType)}
              {row.tradingPair ? <span className="ml-2 text-ink-muted">{row.tradingPair}</span> : null}
              {row.stock ? <span className="ml-2 text-ink-muted">{row.stock}</span> : null}
            </p>
            <p className="text-xs text-ink-muted">
              {formatMediumDate(row.createdAt)}
              <span className="ml-2 font-mono">{transactionReference(row.id)}</span>
            </p>
          </div>
          <div className="flex shrink-0 items-center gap-2">
            {showStatus ? <StatusBadge status={row.status} /> : null}
            <SignedAmount type={row.transactionType} status={row.status} cents={row.amountCents} />
            {cancellable && row.status === "pending" && isCancellable(row.transactionType) ? (
              <CancelRequestButton request={row} />
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Recent Activity: the latest 5; "Show All" pages through the rest on demand, 20 at a time. */
function RecentActivity({ rows, hasMore }: { rows: Row[]; hasMore: boolean }) {
  const [expanded, setExpanded] = useState(false);
  const pages = useFetcher<typeof activityLoader>();
  const [all, setAll] = useState<Row[]>([]);

  useEffect(() => {
    const page = pages.data;
    if (!page) return;
    setAll((current) => {
      const seen = new Set(current.map((row) => row.id));
      return [...current, ...page.rows.filter((row) => !seen.has(row.id))];
    });
  }, [pages.data]);

  const nextCursor = pages.data?.nextCursor ?? null;
  const loading = pages.state !== "idle";
  const toggle = hasMore ? (
    <button
      type="button"
      className="text-sm font-medium text-brand hover:underline"
      aria-expanded={expanded}
      onClick={() => {
        if (!expanded && all.length === 0) pages.load("/dashboard/activity");
        setExpanded(!expanded);
      }}
    >
      {expanded ? "Show Less" : "Show All"}
    </button>
  ) : null;

  return (
    <Panel
      title="Recent Activity"
      action={
        <div className="flex items-center gap-3">
          {toggle}
          <ViewAll filters={{ status: "approved" }} what="completed activity" />
        </div>
      }
    >
      {rows.length === 0 ? <Empty>No recent completed activity</Empty> : null}
      {rows.length > 0 ? <TransactionList rows={expanded && all.length > 0 ? all : rows} /> : null}
      {expanded && nextCursor ? (
        <button
          type="button"
          className="mt-3 text-sm font-medium text-brand hover:underline"
          onClick={() => pages.load(`/dashboard/activity?before=${nextCursor}`)}
          disabled={loading}
        >
          {loading ? "Loading..." : "Load more"}
        </button>
      ) : null}
    </Panel>
  );
}

export default function Dashboard() {
  const {
    account,
    summary,
    recentActivity,
    hasMoreActivity,
    openPositions,
    pendingAndDeclined,
    stocks,
    suggestTwoFactor,
    verification,
  } = useLoaderData<typeof loader>();
  const active = account.status === "active";
  // An admin's decision on one of the client's requests refreshes the cards and lists without a reload.
  const refresh = useThrottledRevalidate();
  useFeed(`/ws/clients/${account.id}`, { onEvent: refresh, onReconnect: refresh });
  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">Dashboard</h1>
        <Link
          to="/deposit"
          className="rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand-hover"
        >
          Fund Account
        </Link>
      </div>

      {account.emailConfirmed ? null : <ConfirmEmailNotice redirectTo="/dashboard" />}
      {suggestTwoFactor ? <TwoFactorSuggestion /> : null}
      {verification ? <VerificationStatusCard summary={verification} /> : null}

      <article className="rounded-xl border border-border bg-surface p-5">
        <p className="text-xl font-semibold">
          {account.firstVisit ? "Welcome" : "Welcome back"}, {account.firstName}
        </p>
        {/* The Account ID column is as wide as the ID, so it never breaks inside it; the e-mail takes the rest. */}
        <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-[minmax(0,1fr)_max-content] sm:gap-x-6 lg:grid-cols-[max-content_max-content_minmax(0,1fr)_max-content]">
          <div>
            <dt className="text-ink-muted">Account status</dt>
            <dd className={`font-semibold capitalize ${active ? "text-success" : "text-danger"}`}>{account.status}</dd>
          </div>
          <div>
            <dt className="text-ink-muted">Account ID</dt>
            <dd className="font-medium sm:whitespace-nowrap" data-testid="account-id">
              {/* On the narrowest phones it may still wrap, but only after a hyphen. */}
              {account.id
                .split("-")
                .map((part, i, parts) =>
                  i === parts.length - 1 ? part : [`${part}-`, <wbr key={`${String(i)}:${part}`} />],
                )}
            </dd>
          </div>
          <div>
            <dt className="text-ink-muted">Email</dt>
            <dd className="break-all font-medium">{account.email}</dd>
          </div>
          <div>
            <dt className="text-ink-muted">Phone</dt>
            <dd className="font-medium">{account.phoneNumber || "N/A"}</dd>
          </div>
        </dl>
        <Link to="/statements" className="mt-3 inline-block text-sm font-medium text-brand hover:underline">
          Statements
        </Link>
      </article>

      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Card title="Balance">
          <p className="text-2xl font-semibold tabular-nums" data-testid="balance-available">
            {formatCents(summary.available)}
          </p>
          <p className="text-xs text-ink-muted">Available</p>
          <p className="mt-2 font-medium tabular-nums" data-testid="balance-gross">
            {formatCents(summary.gross)}
          </p>
          <p className="text-xs text-ink-muted">Gross</p>
        </Card>
        <Card title="Total Trades">
          <p className="text-2xl font-semibold tabular-nums">{summary.totalTrades}</p>
        </Card>
        <Card title="Total Profit">
          <p className={`text-2xl font-semibold tabular-nums ${summary.totalProfit < 0 ? "text-danger" : ""}`}>
            {formatCents(summary.totalProfit)}
          </p>
        </Card>
        <Card title="Win Rate">
          <p className="text-2xl font-semibold tabular-nums">{summary.winRate.toFixed(1)}%</p>
        </Card>
      </div>

      <TradingViewWidget
        title="EUR/USD market chart"
        script="embed-widget-advanced-chart.js"
        height={500}
        config={{
          symbol: "FX:EURUSD",
          interval: "D",
          theme: "dark",
          style: "1",
          locale: "en",
          autosize: true,
          allow_symbol_change: true,
        }}
      />

      <div className="grid gap-4 lg:grid-cols-2">
        <RecentActivity rows={recentActivity} hasMore={hasMoreActivity} />
        <Panel title="Open Positions">
          {openPositions.length === 0 ? (
            <Empty>No recent open positions</Empty>
          ) : (
            <TransactionList rows={openPositions} />
          )}
        </Panel>
        <Panel title="Total Withdrawals & Deposits">
          {summary.deposits === 0 && summary.withdrawals === 0 ? (
            <Empty>No completed deposits or withdrawals</Empty>
          ) : (
            <dl className="grid grid-cols-2 gap-4">
              <div>
                <dt className="text-sm text-ink-muted">Total Deposits</dt>
                <dd className="text-xl font-semibold tabular-nums text-success">{formatCents(summary.deposits)}</dd>
              </div>
              <div>
                <dt className="text-sm text-ink-muted">Total Withdrawals</dt>
                <dd className="text-xl font-semibold tabular-nums text-danger">{formatCents(summary.withdrawals)}</dd>
              </div>
            </dl>
          )}
        </Panel>
        <Panel
          title="Stocks"
          action={<ViewAll filters={{ type: "stock_deposit", status: "approved" }} what="stock deposits" />}
        >
          {stocks.length === 0 ? (
            <Empty>No recent stock deposits</Empty>
          ) : (
            <ul className="divide-y divide-border">
              {stocks.map((s) => (
                <li key={s.stock} className="flex items-center justify-between py-2 text-sm">
                  <span className="font-medium">{s.stock}</span>
                  <span className="tabular-nums">
                    {formatCents(s.cents)} <span className="text-ink-muted">({s.count})</span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <Panel
          title="Pending & Declined Transactions"
          action={<ViewAll filters={{ status: "pending" }} what="pending transactions" />}
        >
          {pendingAndDeclined.length === 0 ? (
            <Empty>No pending or declined transactions</Empty>
          ) : (
            <TransactionList rows={pendingAndDeclined} showStatus cancellable />
          )}
        </Panel>
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
