/**
 * The panels of a yearly summary (/statements/year/{year}): its opening and closing balances, and each month's
 * money by kind with its closing balance, then the year's; and the year's realized gains by stock.
 */
import { Link } from "react-router";
import type { RealizedGain, realizedTotal } from "~/lib/realized-gains";
import { monthLabel } from "~/lib/statement-month";
import { SUMMARY_COLUMN_LABELS, type SummaryFigures, summaryCells } from "~/lib/yearly-summary";
import { RealizedGainsTable } from "./realized-gains-table";
import { cell, Figure, numberCell, numeric, StatementTable } from "./statement-table";

type Summary = {
  year: string;
  openingCents: number;
  months: Array<SummaryFigures & { month: string }>;
  total: SummaryFigures;
  realizedGains: RealizedGain[];
  realizedTotal: ReturnType<typeof realizedTotal>;
};

export function YearlySummaryPanels({ s }: { s: Summary }) {
  return (
    <>
      <dl className="grid gap-3 sm:grid-cols-2 print:grid-cols-2">
        <Figure label="Opening balance" cents={s.openingCents} testId="summary-opening" />
        <Figure label="Closing balance" cents={s.total.closingCents} testId="summary-closing" />
      </dl>
      <section aria-labelledby="months-title" className="space-y-2">
        <h2 id="months-title" className="text-lg font-semibold">
          By month
        </h2>
        <p className="text-sm text-ink-muted">
          Money counts in the month it moved (UTC): a request approved in a later month counts there.
        </p>
        <StatementTable testId="summary-months" columns={["Month", ...SUMMARY_COLUMN_LABELS.map(numeric)]}>
          {s.months.map((m) => (
            <tr key={m.month} className="border-b border-border">
              <td className={cell}>
                <Link to={`/statements/${m.month}`} className="text-brand hover:underline">
                  {monthLabel(m.month)}
                </Link>
              </td>
              {summaryCells(m).map((text, index) => (
                <td key={SUMMARY_COLUMN_LABELS[index]} className={numberCell}>
                  {text}
                </td>
              ))}
            </tr>
          ))}
          <tr className="font-semibold" data-testid="summary-year">
            <td className={cell}>Year {s.year}</td>
            {summaryCells(s.total).map((text, index) => (
              <td key={SUMMARY_COLUMN_LABELS[index]} className={numberCell}>
                {text}
              </td>
            ))}
          </tr>
        </StatementTable>
      </section>
      <RealizedGainsTable year={s.year} rows={s.realizedGains} total={s.realizedTotal} />
    </>
  );
}
