/**
 * How a yearly summary's Realized gains table reads, on its page and in its PDF alike: one row per stock sold in
 * the year (its sales, the lots they closed oldest first, the shares, proceeds, FIFO cost and result), and a total
 * whose result is the year's profit less loss from sales in the ledger. Browser-safe.
 */
import { formatCents, formatResultCents } from "./format";
import { formatShares } from "./money/orders";

export interface RealizedGain {
  symbol: string;
  sales: number;
  /** The positions (lots) the sales closed all or part of. */
  lots: number;
  sharesE4: number;
  proceedsCents: number;
  costCents: number;
  resultCents: number;
}

export const REALIZED_COLUMN_LABELS = [
  "Stock",
  "Sales",
  "Lots closed",
  "Shares sold",
  "Proceeds",
  "Cost (FIFO)",
  "Result",
] as const;

/** One line on paper. */
export const REALIZED_GAINS_NOTE =
  "The total result equals the year's profit minus loss from sales: the Profit and Loss entries with the memo 'Sale' and a serial.";
export const REALIZED_GAINS_EMPTY = "No sales this year.";

/** The year's line: every figure summed but the shares, which are not one stock's. */
export function realizedTotal(rows: readonly RealizedGain[]) {
  const sum = (key: "sales" | "lots" | "proceedsCents" | "costCents" | "resultCents") =>
    rows.reduce((total, row) => total + Number(row[key]), 0);
  return {
    sales: sum("sales"),
    lots: sum("lots"),
    proceedsCents: sum("proceedsCents"),
    costCents: sum("costCents"),
    resultCents: sum("resultCents"),
  };
}

/** A row's cells under REALIZED_COLUMN_LABELS, as text. */
export function realizedCells(row: RealizedGain): string[] {
  return [
    row.symbol,
    String(row.sales),
    String(row.lots),
    formatShares(row.sharesE4),
    formatCents(row.proceedsCents),
    formatCents(row.costCents),
    formatResultCents(row.resultCents),
  ];
}

/** The total's cells under the same columns. */
export function realizedTotalCells(total: ReturnType<typeof realizedTotal>, label: string): string[] {
  return [
    label,
    String(total.sales),
    String(total.lots),
    "",
    formatCents(total.proceedsCents),
    formatCents(total.costCents),
    formatResultCents(total.resultCents),
  ];
}
