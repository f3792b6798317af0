import type { ReactNode } from "react";
import { formatCents, formatLongDate } from "~/lib/format";

interface ClientProfileView {
  username: string | null;
  name: string;
  email: string;
  country: string | null;
  phoneNumber: string | null;
  status: string;
}

interface ClientSummaryView {
  balanceCents: number;
  totalDepositsCents: number;
  stockBalanceCents: number;
  totalFeeDepositsCents: number;
  totalProfitCents: number;
  firstDeposit: { createdAt: number; amountCents: number } | null;
}

/**
 * The client page's Profile card: username, name, email, country and phone ("N/A" when blank), then what the page
 * adds under them (the identity verification line).
 */
export function ClientProfile({ profile, children }: { profile: ClientProfileView; children?: ReactNode }) {
  return (
    <article className="rounded-xl border border-border bg-surface p-5">
      <h2 className="text-lg font-semibold">Profile</h2>
      <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-5">
        {[
          ["Username", profile.username || "N/A"],
          ["Name", profile.name],
          ["Email", profile.email],
          ["Country", profile.country || "N/A"],
          ["Phone", profile.phoneNumber || "N/A"],
        ].map(([label, value]) => (
          <div key={label}>
            <dt className="text-ink-muted">{label}</dt>
            <dd className="break-all font-medium">{value}</dd>
          </div>
        ))}
      </dl>
      {children}
    </article>
  );
}

function Summary({ label, children, tone }: { label: string; children: ReactNode; tone?: "success" | "danger" }) {
  return (
    <div className="rounded-xl border border-border bg-surface p-4">
      <dt className="text-sm text-ink-muted">{label}</dt>
      <dd
        className={`mt-1 text-lg font-semibold tabular-nums ${tone === "success" ? "text-success" : tone === "danger" ? "text-danger" : ""}`}
      >
        {children}
      </dd>
    </div>
  );
}

/** The client page's figures: balance, totals, first deposit and status (green when active). */
export function ClientSummary({ summary, status }: { summary: ClientSummaryView; status: string }) {
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <Summary label="Balance">{formatCents(summary.balanceCents)}</Summary>
      <Summary label="Total Deposits">{formatCents(summary.totalDepositsCents)}</Summary>
      <Summary label="Stock Balance">{formatCents(summary.stockBalanceCents)}</Summary>
      <Summary label="Total Fee Deposits">{formatCents(summary.totalFeeDepositsCents)}</Summary>
      <Summary label="Total Profit" tone={summary.totalProfitCents < 0 ? "danger" : undefined}>
        {formatCents(summary.totalProfitCents)}
      </Summary>
      <Summary label="First Deposit">
        {summary.firstDeposit
          ? `${formatLongDate(summary.firstDeposit.createdAt)} - ${formatCents(summary.firstDeposit.amountCents)}`
          : "No deposits"}
      </Summary>
      <Summary label="Status" tone={status === "active" ? "success" : "danger"}>
        <span className="capitalize">{status}</span>
      </Summary>
    </dl>
  );
}
