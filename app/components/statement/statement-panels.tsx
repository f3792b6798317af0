/**
 * The panels of a monthly statement (/statements/{month}): its three figures, the movements with their running
 * balance, the totals by type, the month's orders, and the requests that moved no money.
 */
import { formatCents, formatLongDate } from "~/lib/format";
import { statusLabel, typeLabel } from "~/lib/labels";
import type { monthlyStatement } from "~/server/ledger/statements.server";
import { StatementOrders } from "./statement-orders";
import {
  cell,
  Figure,
  IDENTITY_COLUMNS,
  IdentityCells,
  numberCell,
  numeric,
  StatementTable,
  signed,
} from "./statement-table";

type Statement = Pick<
  Awaited<ReturnType<typeof monthlyStatement>>,
  "openingCents" | "closingCents" | "movements" | "totals" | "requests" | "orders"
> & { periodStart: number };

export function StatementPanels({ s }: { s: Statement }) {
  const movedCents = s.closingCents - s.openingCents;
  return (
    <>
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

      <StatementOrders orders={s.orders} />

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
                <td className={cell}>{statusLabel(r.status, "client")}</td>
              </tr>
            ))}
          </StatementTable>
        )}
      </section>
    </>
  );
}
