/**
 * How a yearly summary's figures read, on its page and in its PDF alike: the columns' names, and each row's cells
 * (what came in and went out as amounts, the result with its sign, the balance at the month's end).
 */
import { formatCents, formatSignedCents } from "./format";

export interface SummaryFigures {
  depositsCents: number;
  withdrawalsCents: number;
  feesCents: number;
  profitAndLossCents: number;
  movedCents: number;
  closingCents: number;
}

export const SUMMARY_COLUMN_LABELS = ["Deposits", "Withdrawals", "Fees", "Profit and loss", "Closing balance"] as const;

export function summaryCells(figures: SummaryFigures): string[] {
  return [
    formatCents(figures.depositsCents),
    formatCents(figures.withdrawalsCents),
    formatCents(figures.feesCents),
    formatSignedCents(figures.profitAndLossCents),
    formatCents(figures.closingCents),
  ];
}
