/**
 * How an order reads wherever it is listed (History, a statement's page, CSV and PDF): its serial, its side and a
 * buy's status in words, its figures, and a sale's result with its sign. Browser-safe.
 */
import type { PositionStatus } from "../../db/enums";
import { formatCents, formatResultCents } from "./format";
import { formatPrice, formatShares, positionSerial, saleSerial } from "./money/orders";

/** One order as the lists read it: a buy (its position) or a sale. */
export interface OrderLine {
  side: "buy" | "sell";
  id: number;
  symbol: string;
  sharesE4: number;
  priceE4: number;
  /** A buy's cost, a sale's proceeds. */
  cents: number;
  /** A sale's result; null for a buy. */
  resultCents: number | null;
  status: PositionStatus;
  at: number;
}

export const ORDER_SIDE_LABELS = { buy: "Buy", sell: "Sell" } as const;
export const POSITION_STATUS_LABELS: Record<PositionStatus, string> = {
  open: "Open",
  closed: "Closed",
  cancelled: "Cancelled",
};

/** P-000123 for a buy (its position), S-000045 for a sale. */
export const orderSerial = (order: Pick<OrderLine, "side" | "id">) =>
  order.side === "buy" ? positionSerial(order.id) : saleSerial(order.id);

/** A sale's result with its sign ('$0.00' when nothing was gained or lost); '' for a buy. */
export function orderResultText(resultCents: number | null): string {
  if (resultCents === null) return "";
  return formatResultCents(resultCents);
}

/** The columns of an order's line after its date, as the statement lists them. */
export const ORDER_COLUMN_LABELS = ["Order", "Side", "Stock", "Shares", "Price", "Amount", "Result"] as const;

/** An order's cells under ORDER_COLUMN_LABELS, as text (the statement's PDF). */
export function orderCells(order: OrderLine): string[] {
  return [
    orderSerial(order),
    ORDER_SIDE_LABELS[order.side],
    order.symbol,
    formatShares(order.sharesE4),
    formatPrice(order.priceE4),
    formatCents(order.cents),
    orderResultText(order.resultCents),
  ];
}
