/**
 * The order ticket's rules and messages, shared by the stock page and its action (docs/product.md, "Orders and
 * positions"): a side, how the order is sized (shares, or an amount in US dollars), then the size itself. Only the
 * first failure is reported. What the order costs is the server's business: the ticket's estimate is read again
 * from the server's quote when the order is placed.
 */
import { formSchema, formValues, type Parsed, text } from "~/lib/forms";
import { parseAmountToCents } from "~/lib/ledger";
import { formatCents } from "../format";
import { formatShares, ORDER_RULES, parseShares } from "../money/orders";

export const ORDER_SIDES = ["buy", "sell"] as const;
export type OrderSide = (typeof ORDER_SIDES)[number];
export const ORDER_SIZINGS = ["shares", "amount"] as const;
export type OrderSizing = (typeof ORDER_SIZINGS)[number];

export const ORDER_MESSAGES = {
  chooseSide: "Choose Buy or Sell",
  chooseSizing: "Choose to order by shares or by amount",
  invalidShares: "Please enter a number of shares above 0, with at most 4 decimals",
  invalidAmount: "Please enter a valid amount",
  belowMinimum: `An order must be for at least ${formatCents(ORDER_RULES.minimumCents)}`,
  aboveMaximum: `An order may be for at most ${formatCents(ORDER_RULES.maximumCents)}`,
  tooSmallForPrice: "This amount does not buy a ten-thousandth of a share at the current price",
  priceUnavailable: "The price is unavailable right now, so no order can be placed. Try again in a moment.",
  unknownStock: "This stock cannot be traded here",
  notEnoughFunds: (availableCents: number) =>
    `Your available funds do not cover this order: you can spend ${formatCents(Math.max(0, availableCents))}.`,
  notEnoughShares: (symbol: string, heldE4: number) =>
    heldE4 > 0 ? `You hold ${formatShares(heldE4)} ${symbol}: you cannot sell more.` : `You hold no ${symbol} to sell.`,
  restricted: "Your account is restricted: verify your identity to buy. You can still sell what you hold.",
  cancelTooLate: "This order can no longer be cancelled: it was placed more than 3 seconds ago.",
  cancelAfterSale: "This order can no longer be cancelled: part of its position was already sold.",
  cancelNotFound: "That order was not found.",
} as const;

/** The desk's close of a client's position, on the client page of the back office. */
export const DESK_CLOSE_MESSAGES = {
  positionGone: "This position is no longer open",
  positionChanged:
    "The position changed since this close was proposed: it was not closed. Reject this proposal; a new close can then be proposed.",
  proposerMayNotClose:
    "The admin who proposed this close may no longer close positions: it was not closed. Reject this proposal.",
  closedMeanwhile: "Another close for this client was made meanwhile: nothing was sold. Please try again.",
  closeWaiting: "A close of this position already awaits second approval",
  reasonRequired: "Please give a reason: a close at or above the second-approval threshold waits for another admin",
  priceUnavailable: "The price is unavailable right now, so the position cannot be closed. Try again in a moment.",
} as const;

export interface OrderRequest {
  side: OrderSide;
  sizing: OrderSizing;
  /** Shares in ten-thousandths (by shares), or cents (by amount). */
  quantity: number;
}

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T =>
  (list as readonly string[]).includes(value);

const orderSchema = formSchema(
  (v) => {
    const side = text(v.side);
    const sizing = text(v.sizing);
    const raw = text(v.quantity);
    return {
      side,
      sizing,
      sharesE4: sizing === "shares" ? parseShares(raw) : null,
      amountCents: sizing === "amount" ? parseAmountToCents(raw) : null,
    };
  },
  [
    [(v) => isOneOf(ORDER_SIDES, v.side), ORDER_MESSAGES.chooseSide, "side"],
    [(v) => isOneOf(ORDER_SIZINGS, v.sizing), ORDER_MESSAGES.chooseSizing, "sizing"],
    [(v) => v.sizing !== "shares" || v.sharesE4 !== null, ORDER_MESSAGES.invalidShares, "quantity"],
    [(v) => v.sizing !== "amount" || v.amountCents !== null, ORDER_MESSAGES.invalidAmount, "quantity"],
    [
      (v) => v.amountCents === null || v.amountCents >= ORDER_RULES.minimumCents,
      ORDER_MESSAGES.belowMinimum,
      "quantity",
    ],
    [
      (v) => v.amountCents === null || v.amountCents <= ORDER_RULES.maximumCents,
      ORDER_MESSAGES.aboveMaximum,
      "quantity",
    ],
  ],
  (v): OrderRequest => ({
    side: v.side as OrderSide,
    sizing: v.sizing as OrderSizing,
    quantity: (v.sizing === "shares" ? v.sharesE4 : v.amountCents) as number,
  }),
  { quantity: { label: "Quantity", max: 20 } },
);

/** The ticket: Buy or Sell, by shares or by amount, and a size that parses. */
export function parseOrderForm(form: FormData): Parsed<OrderRequest> {
  return orderSchema.parse(formValues(form), undefined);
}
