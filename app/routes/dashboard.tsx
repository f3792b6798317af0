import { Link } from "react-router";
import { ConfirmEmailNotice } from "~/components/account/confirm-email-notice";
import { TwoFactorSuggestion } from "~/components/account/two-factor-suggestion";
import { AccountCard } from "~/components/dashboard/account-card";
import { BalancePanel } from "~/components/dashboard/balance-panel";
import { FigureCards, MoneyInAndOut, StocksPanel } from "~/components/dashboard/figures";
import { Empty, Panel, ViewAll } from "~/components/dashboard/panels";
import { RecentActivity } from "~/components/dashboard/recent-activity";
import { TransactionList } from "~/components/dashboard/transaction-list";
import { IncomingPayments } from "~/components/incoming-payments";
import { OpenPositionsTable } from "~/components/orders/open-positions";
import { pageMeta, RouteError } from "~/components/route-error";
import { TradingViewWidget } from "~/components/trading-view-chart";
import { VerificationStatusCard } from "~/components/verification/verification-status-card";
import { marksOf } from "~/lib/holdings";
import { useFeed, useThrottledRevalidate } from "~/lib/use-feed";
import { useQuotes } from "~/lib/use-quotes";
import { summarizeVerification } from "~/lib/verification-summary";
import { suggestsTwoFactor, twoFactorSuggestionQuery } from "~/server/auth/two-factor.server";
import { incomingPayments } from "~/server/chain/incoming.server";
import { clientPayouts } from "~/server/chain/payouts.server";
import { dashboardData } from "~/server/ledger/reads.server";
import { quoteViews } from "~/server/quotes/views.server";
import { requireClient } from "~/server/session.server";
import { stateOf, verificationStateQuery } from "~/server/verification/cases.server";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: "Dashboard" }]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireClient(request, context, { signedOutTo: "/" });
  const { account, also, ...dashboard } = await dashboardData(context.db, user.id, {
    twoFactorSuggestion: twoFactorSuggestionQuery(context.db, user.id),
    verification: verificationStateQuery(context.db, user.id),
  });
  const verificationState = stateOf(also.verification);
  return {
    incoming: await incomingPayments(context.db, context.bindings, user.id),
    payouts: await clientPayouts(context, user.id, dashboard.recentActivity),
    // The open positions' first prices, right before hydration; the page asks for newer ones while it is open.
    quotes: await quoteViews(context.bindings, [...new Set(dashboard.openPositions.map((p) => p.symbol))]),
    suggestTwoFactor: suggestsTwoFactor(user, also.twoFactorSuggestion),
    verification: verificationState
      ? summarizeVerification(verificationState, Date.now(), context.env.VERIFICATION_INTRODUCED_AT)
      : null,
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

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const {
    account,
    summary,
    recentActivity,
    hasMoreActivity,
    openPositions,
    pendingAndDeclined,
    stocks,
    balanceLine,
    suggestTwoFactor,
    verification,
    incoming,
    payouts,
    quotes: firstQuotes,
  } = loaderData;
  const quotes = useQuotes([...new Set(openPositions.map((p) => p.symbol))], firstQuotes);
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

      <IncomingPayments payments={incoming} />
      <AccountCard account={account} />
      <FigureCards summary={summary} />
      <BalancePanel points={balanceLine} />

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
        <RecentActivity rows={recentActivity} hasMore={hasMoreActivity} payouts={payouts} />
        <Panel
          title="Open Positions"
          action={
            <Link
              to="/portfolio"
              aria-label="View all holdings"
              className="text-sm font-medium text-brand hover:underline"
            >
              View all
            </Link>
          }
        >
          {openPositions.length === 0 ? (
            <Empty>No recent open positions</Empty>
          ) : (
            <OpenPositionsTable positions={openPositions} marks={marksOf(quotes)} />
          )}
        </Panel>
        <MoneyInAndOut deposits={summary.deposits} withdrawals={summary.withdrawals} />
        <StocksPanel stocks={stocks} />
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
