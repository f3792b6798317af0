/**
 * The Realized gains table of a yearly summary (/statements/year/{year}): the year's sales by stock, the lots they
 * closed oldest first, proceeds, FIFO cost and result, and the year's total, whose result is the year's profit
 * less loss from sales.
 */
import {
  REALIZED_COLUMN_LABELS,
  REALIZED_GAINS_EMPTY,
  REALIZED_GAINS_NOTE,
  type RealizedGain,
  realizedCells,
  type realizedTotal,
  realizedTotalCells,
} from "~/lib/realized-gains";
import { Result } from "../orders/result";
import { cell, numberCell, numeric, StatementTable } from "./statement-table";

const COLUMNS = REALIZED_COLUMN_LABELS.map((label, index) => (index === 0 ? label : numeric(label)));
/** The result's cell is the one that shows its sign in words to a screen reader, not colour alone. */
const RESULT = REALIZED_COLUMN_LABELS.length - 1;

export function RealizedGainsTable({
  year,
  rows,
  total,
}: {
  year: string;
  rows: RealizedGain[];
  total: ReturnType<typeof realizedTotal>;
}) {
  const line = (cells: string[], result: number) =>
    cells.map((text, index) =>
      index === 0 ? (
        <td key={REALIZED_COLUMN_LABELS[index]} className={cell}>
          {text}
        </td>
      ) : (
        <td key={REALIZED_COLUMN_LABELS[index]} className={numberCell}>
          {index === RESULT ? <Result cents={result} /> : text}
        </td>
      ),
    );
  return (
    <section aria-labelledby="realized-title" className="space-y-2">
      <h2 id="realized-title" className="text-lg font-semibold">
        Realized gains
      </h2>
      <p className="text-sm text-ink-muted">{REALIZED_GAINS_NOTE}</p>
      {rows.length === 0 ? (
        <p className="text-ink-muted">{REALIZED_GAINS_EMPTY}</p>
      ) : (
        <StatementTable testId="summary-realized" columns={COLUMNS}>
          {rows.map((row) => (
            <tr key={row.symbol} className="border-b border-border">
              {line(realizedCells(row), row.resultCents)}
            </tr>
          ))}
          <tr className="font-semibold" data-testid="summary-realized-total" data-cents={total.resultCents}>
            {line(realizedTotalCells(total, `Year ${year}`), total.resultCents)}
          </tr>
        </StatementTable>
      )}
    </section>
  );
}
