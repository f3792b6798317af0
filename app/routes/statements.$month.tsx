import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { Moment } from "~/components/moment";
import { pageMeta, RouteError } from "~/components/route-error";
import { type StackedColumn, StackedTable } from "~/components/stacked-table";
import { STATUS_LABELS } from "~/components/transaction-status";
import { useBrand } from "~/lib/brand";
import { formatCents, formatLongDate } from "~/lib/format";
import { type TransactionType, typeLabel } from "~/lib/ledger";
import { transactionReference } from "~/lib/reference";
import { monthLabel, STATEMENT_REFUSALS } from "~/lib/statement-month";
import { notFound } from "~/server/http.server";
import { monthlyStatement, parseStatementMonth } from "~/server/ledger/statements.server";
import { requireClient } from "~/server/session.server";
import printStylesheet from "~/styles/statement-print.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: printStylesheet }];

export const meta: MetaFunction<typeof loader> = pageMeta(({ data }) => [
  { title: data ? `Statement ${monthLabel(data.month)}` : "Statement" },
]);

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireClient(request, context);
  const now = Date.now();
  const period = parseStatementMonth(params.month ?? "", now);
  if (typeof period === "string") notFound(STATEMENT_REFUSALS[period]);
  const { holder, ...statement } = await monthlyStatement(context.db, user.id, period);
  return {
    ...statement,
    month: period.month,
    periodStart: period.start,
    // The current month's statement runs to today.
    periodEnd: Math.min(period.end, now + 1) - 1,
    accountId: user.id,
    holder: [holder.firstName, holder.lastName].filter(Boolean).join(" ") || user.email,
  };
}

const signed = (cents: number) => (cents < 0 ? `−${formatCents(-cents)}` : `+${formatCents(cents)}`);

const cell = "px-3 py-2";
const numberCell = `${cell} text-right tabular-nums whitespace-nowrap`;

function Figure({ label, cents, testId }: { label: string; cents: number; testId: string }) {
  return (
    <div className="rounded-lg border border-border p-4 print:p-2">
      <dt className="text-sm text-ink-muted">{label}</dt>
      <dd className="mt-1 text-xl font-semibold tabular-nums" data-testid={testId} data-cents={cents}>
        {formatCents(cents)}
      </dd>
    </div>
  );
}

/** A figures column: its heading aligned right, over its cells. */
const numeric = (label: string): StackedColumn => ({ label, className: `${cell} text-right` });
/** The columns that say which transaction a row is, after its date: the same in both of the statement's lists. */
const IDENTITY_COLUMNS = ["Reference", "Type", "Pair / stock"];

/**
 * A statement list: its header from `columns`; on paper it is not clipped (no sideways scrolling), and it stays a
 * table (the rows stack on a phone's screen only).
 */
function StatementTable({
  testId,
  columns,
  children,
}: {
  testId: string;
  columns: StackedColumn[];
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border print:overflow-visible">
      <StackedTable
        testId={testId}
        columns={columns}
        className="w-full text-sm"
        headClassName="text-left text-ink-muted [&>tr]:border-b [&>tr]:border-border"
        headCellClassName={cell}
        bodyClassName="max-sm:[&>tr]:px-3"
      >
        {children}
      </StackedTable>
    </div>
  );
}

type Identified = { id: number; transactionType: TransactionType; tradingPair: string | null; stock: string | null };

/** The date, reference, type and pair or stock cells of one row. */
function IdentityCells({ at, row }: { at: number; row: Identified }) {
  return (
    <>
      <td className={`${cell} whitespace-nowrap`}>
        <Moment at={at} />
      </td>
      <td className={`${cell} font-mono`}>{transactionReference(row.id)}</td>
      <td className={cell}>{typeLabel(row.transactionType)}</td>
      <td className={cell}>{row.tradingPair ?? row.stock ?? ""}</td>
    </>
  );
}

export default function Statement() {
  const s = useLoaderData<typeof loader>();
  const brand = useBrand();
  const movedCents = s.closingCents - s.openingCents;
  return (
    <article className="space-y-6 print:space-y-4 print:text-sm">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to="/statements" className="text-sm text-brand hover:underline">
          All statements
        </Link>
        <div className="flex gap-2">
          <a
            href={`/statements/${s.month}.csv`}
            download
            className="rounded-md border border-border px-4 py-2 font-medium hover:bg-surface-raised"
          >
            Download CSV
          </a>
          <button
            type="button"
            onClick={() => window.print()}
            className="rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand-hover"
          >
            Print
          </button>
        </div>
      </div>

      <header className="flex flex-wrap items-start justify-between gap-4 border-b border-border pb-4">
        <div>
          <p className="text-lg font-bold">{brand}</p>
          <h1 className="text-2xl font-bold">Statement for {monthLabel(s.month)}</h1>
          <p className="text-ink-muted">
            Period: {formatLongDate(s.periodStart)} – {formatLongDate(s.periodEnd)} (UTC)
          </p>
        </div>
        <dl className="text-sm sm:text-right">
          <dt className="text-ink-muted">Account holder</dt>
          <dd className="font-medium">{s.holder}</dd>
          <dt className="mt-2 text-ink-muted">Account ID</dt>
          <dd className="break-all font-medium">{s.accountId}</dd>
        </dl>
      </header>

      <dl className="grid gap-3 sm:grid-cols-3 print:grid-cols-3">
        <Figure label="Opening balance" cents={s.openingCents} testId="statement-opening" />
        <div className="rounded-lg border border-border p-4 print:p-2">
          <dt className="text-sm text-ink-muted">Money moved</dt>
          <dd className="mt-1 text-xl font-semibold tabular-nums" data-testid="statement-moved" data-cents={movedCents}>
            {signed(movedCents)}
          </dd>
        </div>
        <Figure label="Closing balance" cents={s.closingCents} testId="statement-closing" />
      </dl>

      <section aria-labelledby="movements-title" className="space-y-2">
        <h2 id="movements-title" className="text-lg font-semibold">
          Movements
        </h2>
        {s.movements.length === 0 ? (
          <p className="text-ink-muted">No money moved on your account this month.</p>
        ) : (
          <StatementTable
            testId="statement-movements"
            columns={["Date", ...IDENTITY_COLUMNS, numeric("Amount"), numeric("Balance")]}
          >
            <tr className="border-b border-border text-ink-muted">
              <td className={cell}>{formatLongDate(s.periodStart)}</td>
              {/* Across the identity and amount columns: on a phone it names itself, as does the balance after it. */}
              <td className={cell} colSpan={4} data-label="Type">
                Opening balance
              </td>
              <td className={numberCell} data-label="Balance">
                {formatCents(s.openingCents)}
              </td>
            </tr>
            {s.movements.map((m) => (
              <tr key={m.id} className="border-b border-border last:border-0">
                <IdentityCells at={m.movedAt} row={m} />
                <td
                  className={`${numberCell} ${m.signedCents < 0 ? "text-danger" : "text-success"}`}
                  data-testid="movement-amount"
                  data-cents={m.signedCents}
                >
                  {signed(m.signedCents)}
                </td>
                <td className={numberCell}>{formatCents(m.balanceCents)}</td>
              </tr>
            ))}
          </StatementTable>
        )}
      </section>

      {s.totals.length > 0 ? (
        <section aria-labelledby="totals-title" className="space-y-2 print:break-inside-avoid">
          <h2 id="totals-title" className="text-lg font-semibold">
            Totals by type
          </h2>
          <table className="w-full max-w-md text-sm" data-testid="statement-totals">
            <thead className="text-left text-ink-muted">
              <tr className="border-b border-border">
                <th scope="col" className={cell}>
                  Type
                </th>
                <th scope="col" className={`${cell} text-right`}>
                  Count
                </th>
                <th scope="col" className={`${cell} text-right`}>
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {s.totals.map((t) => (
                <tr key={t.type} className="border-b border-border">
                  <td className={cell}>{typeLabel(t.type)}</td>
                  <td className={numberCell}>{t.count}</td>
                  <td className={numberCell}>{signed(t.signedCents)}</td>
                </tr>
              ))}
              <tr className="font-semibold">
                <th scope="row" className={`${cell} text-left`}>
                  Closing balance
                </th>
                <td className={numberCell} />
                <td className={numberCell}>{formatCents(s.closingCents)}</td>
              </tr>
            </tbody>
          </table>
        </section>
      ) : null}

      <section aria-labelledby="requests-title" className="space-y-2">
        <h2 id="requests-title" className="text-lg font-semibold">
          Requests that moved no money
        </h2>
        <p className="text-sm text-ink-muted">
          Requests made this month and still pending, declined or cancelled. They are not part of the balance.
        </p>
        {s.requests.length === 0 ? (
          <p className="text-ink-muted">None this month.</p>
        ) : (
          <StatementTable
            testId="statement-requests"
            columns={["Requested", ...IDENTITY_COLUMNS, numeric("Amount"), "Status"]}
          >
            {s.requests.map((r) => (
              <tr key={r.id} className="border-b border-border last:border-0">
                <IdentityCells at={r.createdAt} row={r} />
                <td className={numberCell}>{formatCents(r.amountCents)}</td>
                <td className={cell}>{STATUS_LABELS[r.status]}</td>
              </tr>
            ))}
          </StatementTable>
        )}
      </section>
    </article>
  );
}

/** A month with no statement says why (not a month, or not begun), with the way back to the list. */
export function ErrorBoundary() {
  const error = useRouteError();
  const text = isRouteErrorResponse(error) && typeof error.data === "string" ? error.data : null;
  return (
    <RouteError
      notFound={{ title: "No statement for this month", text }}
      back={{ to: "/statements", label: "All statements" }}
    />
  );
}
