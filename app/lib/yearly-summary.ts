/**
 * How a yearly summary's figures read, on its page and in its PDF alike: the columns' names, and each row's cells
 * (what came in and went out as amounts, the result with its sign unless zero, the balance at the month's end). A fee deposit
 * is money in (docs/product.md, "Money rules"): its column is named as the ledger names it and stands with the
 * deposits, so that it does not read as a charge.
 */
import { formatCents, formatResultCents } from "./format";

export interface SummaryFigures {
  depositsCents: number;
  feeDepositsCents: number;
  withdrawalsCents: number;
  profitAndLossCents: number;
  movedCents: number;
  closingCents: number;
}

export const SUMMARY_COLUMN_LABELS = [
  "Deposits",
  "Fee deposits",
  "Withdrawals",
  "Profit and loss",
  "Closing balance",
] as const;

export function summaryCells(figures: SummaryFigures): string[] {
  return [
    formatCents(figures.depositsCents),
    formatCents(figures.feeDepositsCents),
    formatCents(figures.withdrawalsCents),
    formatResultCents(figures.profitAndLossCents),
    formatCents(figures.closingCents),
  ];
}
