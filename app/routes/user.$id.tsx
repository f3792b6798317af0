import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import {
  Form,
  isRouteErrorResponse,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  useRouteError,
  useSearchParams,
} from "@remix-run/react";
import { type ReactNode, useEffect, useState } from "react";
import { toast } from "sonner";
import { Banner } from "~/components/form";
import { formatCents, formatLongDate } from "~/lib/format";
import { TRANSACTION_TYPES, type TransactionType } from "~/lib/ledger";
import { type FeedTransaction, mergeTransactions } from "~/lib/realtime";
import { ENTRY_MESSAGES, parseLedgerEntryForm, TYPE_LABELS } from "~/lib/schemas/admin";
import { idempotencyKeyOf } from "~/lib/schemas/money";
import { STOCKS, TRADING_PAIRS } from "~/lib/stocks";
import { useFeed, useThrottledRevalidate } from "~/lib/use-feed";
import { changeClientStatus, clientDetail } from "~/server/admin/clients.server";
import { decide } from "~/server/admin/decisions.server";
import { postEntry } from "~/server/admin/entries.server";
import { parseCursor } from "~/server/paging.server";
import { requireAdmin } from "~/server/session.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.profile.name} · Client` : "Client" },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const cursor = parseCursor(new URL(request.url).searchParams.get("before"));
  const detail = await clientDetail(context.db, params.id ?? "", cursor);
  if (!detail) throw data({ message: "User not found" }, { status: 404 });
  return { ...detail, idempotencyKey: crypto.randomUUID() };
}

type Reply = { tone: "success" | "error"; message: string; at: number; intent: string };

export async function action({ request, params, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const userId = params.id ?? "";
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const reply = (tone: Reply["tone"], message: string, status = 200) =>
    data<Reply>({ tone, message, at: Date.now(), intent }, { status });

  if (intent === "approve" || intent === "reject") {
    const transactionId = Number(form.get("transactionId"));
    if (!Number.isInteger(transactionId)) return reply("error", ENTRY_MESSAGES.failed, 400);
    // The id must be this client's: an admin page never decides another client's row by accident.
    const decision = intent === "approve" ? "approved" : "rejected";
    const result = await decide(context, admin, { transactionId, decision, userId });
    if (!result.ok) return reply("error", result.error, result.status);
    return reply("success", intent === "approve" ? "Transaction approved" : "Transaction rejected");
  }
  if (intent === "entry") {
    const parsed = parseLedgerEntryForm(form);
    if (!parsed.ok) return reply("error", parsed.error, 400);
    const idempotencyKey = idempotencyKeyOf(form);
    if (!idempotencyKey) return reply("error", ENTRY_MESSAGES.failed, 400);
    const result = await postEntry(context, admin, userId, { ...parsed.data, idempotencyKey });
    if (!result.ok) return reply("error", result.error, result.status);
    return reply("success", `${TYPE_LABELS[parsed.data.type]} of ${formatCents(parsed.data.amountCents)} recorded`);
  }
  if (intent === "suspend" || intent === "activate") {
    const status = intent === "suspend" ? "suspended" : "active";
    const result = await changeClientStatus(context, admin, userId, status);
    if (!result.ok) return reply("error", `Failed to ${intent} user: ${result.error}`, result.status);
    return reply("success", intent === "suspend" ? "User suspended" : "User activated");
  }
  return reply("error", ENTRY_MESSAGES.failed, 400);
}

const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

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

function EntryPanel({
  type,
  idempotencyKey,
  onCancel,
}: {
  type: TransactionType;
  idempotencyKey: string;
  onCancel: () => void;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "entry";
  return (
    <Form
      method="post"
      className="mt-4 grid gap-4 rounded-xl border border-border bg-surface-raised p-4 sm:grid-cols-4"
    >
      <input type="hidden" name="intent" value="entry" />
      <input type="hidden" name="type" value={type} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <div>
        <label htmlFor="entry-amount" className="block text-sm font-medium">
          {TYPE_LABELS[type]} amount
        </label>
        <input
          id="entry-amount"
          name="amount"
          type="number"
          step="0.01"
          min="0.01"
          inputMode="decimal"
          required
          className="mt-1 w-full rounded-md border border-border bg-canvas px-3 py-2"
        />
      </div>
      {type === "profit" || type === "loss" ? (
        <div>
          <label htmlFor="entry-pair" className="block text-sm font-medium">
            Trading pair
          </label>
          <select
            id="entry-pair"
            name="tradingPair"
            defaultValue=""
            className="mt-1 w-full rounded-md border border-border bg-canvas px-3 py-2"
          >
            <option value="">Select a trading pair</option>
            {TRADING_PAIRS.map((pair) => (
              <option key={pair} value={pair}>
                {pair}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {type === "stock_deposit" ? (
        <div>
          <label htmlFor="entry-stock" className="block text-sm font-medium">
            Stock
          </label>
          <select
            id="entry-stock"
            name="stock"
            defaultValue=""
            className="mt-1 w-full rounded-md border border-border bg-canvas px-3 py-2"
          >
            <option value="">Select a stock</option>
            {STOCKS.map((stock) => (
              <option key={stock.symbol} value={stock.symbol}>
                {stock.symbol} · {stock.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="flex items-end gap-2">
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand disabled:opacity-60"
        >
          {busy ? "Processing..." : "Confirm"}
        </button>
        <button type="button" onClick={onCancel} className="rounded-md border border-border px-4 py-2 hover:bg-surface">
          Cancel
        </button>
      </div>
    </Form>
  );
}

export default function ClientDetail() {
  const { profile, summary, stocks, feeDeposits, transactions, next, idempotencyKey } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const [entryType, setEntryType] = useState<TransactionType | null>(null);
  const loadingOtherClient = navigation.state === "loading" && navigation.location.pathname !== `/user/${profile.id}`;
  const firstPage = !params.get("before");
  const [live, setLive] = useState<FeedTransaction[]>([]);
  const refresh = useThrottledRevalidate();
  // SPEC: new transactions for this client appear live at the top, without duplicates; decisions update in place.
  useFeed(`/ws/clients/${profile.id}`, {
    since: () => Math.max(0, ...transactions.map((tx) => tx.id), ...live.map((tx) => tx.id)),
    onEvent: (event) => {
      if (event.type === "client.deleted") return refresh();
      if (event.transaction.userId !== profile.id) return;
      setLive((current) => mergeTransactions(current, [event.transaction]));
      refresh();
    },
    onReconnect: refresh,
  });
  const rows = firstPage ? mergeTransactions(transactions, live) : transactions;
  const suspended = profile.status === "suspended";

  // Once per reply (its stamp), however often live updates re-render the page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the reply's stamp on purpose
  useEffect(() => {
    if (!reply) return;
    if (reply.tone === "success") {
      toast.success(reply.message);
      if (reply.intent === "entry") setEntryType(null);
    }
  }, [reply?.at]);

  return (
    <section className="space-y-6" aria-busy={loadingOtherClient}>
      {loadingOtherClient ? (
        <div
          role="status"
          className="fixed inset-x-0 top-16 z-30 mx-auto w-fit rounded-md bg-surface-raised px-4 py-2 text-sm"
        >
          Loading…
        </div>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <Link to="/admin" className="text-sm text-brand hover:underline">
            Back to Admin Panel
          </Link>
          <h1 className="mt-1 text-3xl font-bold">{profile.name}</h1>
        </div>
        <a
          href={`/user/${profile.id}/export`}
          className="rounded-md border border-border px-4 py-2 font-medium hover:bg-surface-raised"
        >
          Export statement (CSV)
        </a>
      </div>

      {reply ? <Banner tone={reply.tone}>{reply.message}</Banner> : null}

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
      </article>

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
        <Summary label="Status" tone={profile.status === "active" ? "success" : "danger"}>
          <span className="capitalize">{profile.status}</span>
        </Summary>
      </dl>

      <article className="rounded-xl border border-border bg-surface p-5">
        <h2 className="text-lg font-semibold">Actions</h2>
        <div className="mt-3 flex flex-wrap gap-2">
          {TRANSACTION_TYPES.map((type) => (
            <button
              key={type}
              type="button"
              aria-pressed={entryType === type}
              onClick={() => setEntryType(type)}
              className={`rounded-md border px-3 py-2 text-sm font-medium ${
                entryType === type ? "border-brand bg-brand/15" : "border-border hover:bg-surface-raised"
              }`}
            >
              {TYPE_LABELS[type]}
            </button>
          ))}
          <Form method="post">
            <input type="hidden" name="intent" value={suspended ? "activate" : "suspend"} />
            <button
              type="submit"
              className={`rounded-md px-3 py-2 text-sm font-semibold ${
                suspended
                  ? "bg-success/20 text-success hover:bg-success/30"
                  : "bg-danger/20 text-danger hover:bg-danger/30"
              }`}
            >
              {suspended ? "Activate User" : "Suspend User"}
            </button>
          </Form>
        </div>
        {entryType ? (
          <EntryPanel
            key={`${entryType}-${idempotencyKey}`}
            type={entryType}
            idempotencyKey={idempotencyKey}
            onCancel={() => setEntryType(null)}
          />
        ) : null}
      </article>

      <div className="grid gap-4 lg:grid-cols-2">
        <article className="rounded-xl border border-border bg-surface p-5">
          <h2 className="text-lg font-semibold">Stocks</h2>
          {stocks.length === 0 ? (
            <p className="mt-3 text-sm text-ink-muted">No recent stock deposits</p>
          ) : (
            <ul className="mt-3 divide-y divide-border text-sm">
              {stocks.map((s) => (
                <li key={s.stock} className="flex justify-between py-2">
                  <span className="font-medium">{s.stock}</span>
                  <span className="tabular-nums">{formatCents(s.cents)}</span>
                </li>
              ))}
            </ul>
          )}
        </article>
        <article className="rounded-xl border border-border bg-surface p-5">
          <h2 className="text-lg font-semibold">Fee Deposits</h2>
          {feeDeposits.length === 0 ? (
            <p className="mt-3 text-sm text-ink-muted">No fee deposits</p>
          ) : (
            <ul className="mt-3 divide-y divide-border text-sm">
              {feeDeposits.map((fee) => (
                <li key={fee.id} className="flex justify-between py-2">
                  <span>{dateTime.format(new Date(fee.createdAt))}</span>
                  <span className="tabular-nums">{formatCents(fee.amountCents)}</span>
                </li>
              ))}
            </ul>
          )}
        </article>
      </div>

      <article className="rounded-xl border border-border bg-surface p-5">
        <h2 className="text-lg font-semibold">Transactions</h2>
        <div className="mt-3 overflow-x-auto">
          <table className="w-full min-w-[44rem] text-left text-sm">
            <thead className="text-ink-muted">
              <tr>
                {["Type", "Amount", "Trading Pair/Stock", "Date", "Status", "Actions"].map((h) => (
                  <th key={h} scope="col" className="py-2 pr-4 font-medium">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {rows.map((tx) => (
                <tr key={tx.id} data-status={tx.status} className={tx.status === "rejected" ? "opacity-50" : undefined}>
                  <td className="py-2 pr-4">{TYPE_LABELS[tx.transactionType]}</td>
                  <td className="py-2 pr-4 tabular-nums">{formatCents(tx.amountCents)}</td>
                  <td className="py-2 pr-4">{tx.tradingPair ?? tx.stock ?? "—"}</td>
                  <td className="py-2 pr-4">{dateTime.format(new Date(tx.createdAt))}</td>
                  <td className="py-2 pr-4 capitalize">{tx.status}</td>
                  <td className="py-2">
                    {tx.status === "pending" ? (
                      <Form method="post" className="flex gap-2">
                        <input type="hidden" name="transactionId" value={tx.id} />
                        <button
                          type="submit"
                          name="intent"
                          value="approve"
                          aria-label={`Approve ${TYPE_LABELS[tx.transactionType]} of ${formatCents(tx.amountCents)}`}
                          className="rounded-md bg-success/20 px-3 py-1 font-medium text-success hover:bg-success/30"
                        >
                          Approve
                        </button>
                        <button
                          type="submit"
                          name="intent"
                          value="reject"
                          aria-label={`Reject ${TYPE_LABELS[tx.transactionType]} of ${formatCents(tx.amountCents)}`}
                          className="rounded-md bg-danger/20 px-3 py-1 font-medium text-danger hover:bg-danger/30"
                        >
                          Reject
                        </button>
                      </Form>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length === 0 ? <p className="py-4 text-sm text-ink-muted">No transactions found</p> : null}
        </div>
        <div className="mt-3 flex gap-3 text-sm">
          {params.get("before") ? (
            <Link to="." className="text-brand hover:underline">
              Newest
            </Link>
          ) : null}
          {next ? (
            <Link to={`?before=${next}`} className="text-brand hover:underline">
              Older transactions
            </Link>
          ) : null}
        </div>
      </article>
    </section>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="py-16 text-center">
      <h1 className="text-2xl font-bold">{notFound ? "User not found" : "Failed to load user details"}</h1>
      <Link to="/admin" className="mt-6 inline-block text-brand hover:underline">
        Back to Admin Panel
      </Link>
    </section>
  );
}
