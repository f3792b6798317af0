/**
 * How an order's notice reads, in the mail and the notification centre alike (docs/product.md, "Orders and
 * positions"): a buy, its cancel, a sale, or the desk's close of a position, with its serial. Browser-safe; the
 * data may come from an older mail.
 */
import { formatCents } from "./format";
import { formatPrice, formatShares } from "./money/orders";

export interface OrderNotice {
  /** "close": the desk sold the shares of one of the client's positions (a sale, with its serial). */
  order: "buy" | "cancel" | "sell" | "close";
  symbol: string;
  serial: string;
  sharesE4: number;
  priceE4: number;
  /** A buy's cost, a sale's proceeds. */
  cents: number;
  /** A sale's result, signed. */
  resultCents?: number | null;
}

const signedCents = (cents: number) => `${cents >= 0 ? "+" : "−"}${formatCents(Math.abs(cents))}`;

export function orderNoticeTitle(n: OrderNotice): string {
  const size = `${formatShares(n.sharesE4)} ${n.symbol}`;
  if (n.order === "buy") return `Bought ${size}: position ${n.serial}`;
  if (n.order === "cancel") return `Order ${n.serial} cancelled: nothing was bought`;
  if (n.order === "close") return `Our desk closed a position: sold ${size}, sale ${n.serial}`;
  return `Sold ${size}: sale ${n.serial}`;
}

export function orderNoticeDetail(n: OrderNotice): string {
  const fill = `${formatShares(n.sharesE4)} × ${formatPrice(n.priceE4)} = ${formatCents(n.cents)}`;
  const sale = n.order === "sell" || n.order === "close";
  if (sale && typeof n.resultCents === "number") return `${fill} · result ${signedCents(n.resultCents)}`;
  return fill;
}
