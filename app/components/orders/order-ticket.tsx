import { useEffect, useId, useState } from "react";
import { Form } from "react-router";
import { Banner, FormErrors, SubmitButton, useFieldError } from "~/components/form";
import { formatCents } from "~/lib/format";
import type { IntentReply } from "~/lib/intent-reply";
import { refusalFor } from "~/lib/intent-reply";
import { parseAmountToCents } from "~/lib/ledger";
import { fillOf, formatPrice, formatShares, ORDER_RULES, parseShares } from "~/lib/money/orders";
import type { OrderSide, OrderSizing } from "~/lib/schemas/orders";

export interface TicketQuote {
  bidE4: number;
  askE4: number;
  midE4: number;
  at: number;
}

export type OrderReply = IntentReply & { positionId?: number; serial?: string };

interface TicketProps {
  symbol: string;
  quote: TicketQuote | null;
  spendableCents: number;
  heldE4: number;
  /** Restricted clients may only sell. */
  mayBuy: boolean;
  idempotencyKey: string;
  reply: OrderReply | undefined;
}

const segment =
  "flex min-h-11 flex-1 cursor-pointer items-center justify-center rounded-md border border-border px-3 py-2 text-sm font-semibold has-[:checked]:border-brand has-[:checked]:bg-brand/15 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand";

/** The estimate the ticket shows before the order is sent: the same arithmetic as the server's fill. */
function estimateOf(side: OrderSide, sizing: OrderSizing, raw: string, quote: TicketQuote | null) {
  if (!quote) return null;
  const quantity = sizing === "shares" ? parseShares(raw) : parseAmountToCents(raw);
  if (quantity === null) return null;
  const fill = fillOf({ side, sizing, quantity }, quote);
  return typeof fill === "string" ? null : fill;
}

/** The 3 seconds after a buy in which the client may still cancel it; the server decides, this only counts. */
function useCountdown(reply: OrderReply | undefined) {
  const [left, setLeft] = useState(0);
  const positionId = reply?.intent === "order" && reply.tone === "success" ? reply.positionId : undefined;
  // Each reply is one order: a new one (its own time) starts its own count.
  const startedBy = positionId ? reply?.at : undefined;
  useEffect(() => {
    if (startedBy === undefined) return;
    const deadline = Date.now() + ORDER_RULES.cancelWindowMs;
    const tick = () => setLeft(Math.max(0, Math.ceil((deadline - Date.now()) / 1000)));
    tick();
    const timer = setInterval(tick, 200);
    const stop = setTimeout(() => clearInterval(timer), ORDER_RULES.cancelWindowMs + 250);
    return () => {
      clearInterval(timer);
      clearTimeout(stop);
    };
  }, [startedBy]);
  return { positionId, left };
}

export function OrderTicket({ symbol, quote, spendableCents, heldE4, mayBuy, idempotencyKey, reply }: TicketProps) {
  const [side, setSide] = useState<OrderSide>(mayBuy ? "buy" : "sell");
  const [sizing, setSizing] = useState<OrderSizing>("shares");
  const [quantity, setQuantity] = useState("");
  const estimate = estimateOf(side, sizing, quantity, quote);
  const quantityField = useFieldError("quantity", undefined, true);
  const { positionId, left } = useCountdown(reply);
  const headingId = useId();
  const orderReply = reply?.intent === "order" || reply?.intent === "cancelOrder" ? reply : undefined;
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-border bg-surface p-5">
      <h2 id={headingId} className="text-lg font-semibold">
        Trade {symbol}
      </h2>
      {quote ? (
        <dl className="mt-3 grid grid-cols-3 gap-2 text-sm" data-testid="ticket-prices">
          <div>
            <dt className="text-ink-muted">Bid (you sell at)</dt>
            <dd className="font-semibold tabular-nums">{formatPrice(quote.bidE4)}</dd>
          </div>
          <div>
            <dt className="text-ink-muted">Mid</dt>
            <dd className="font-semibold tabular-nums">{formatPrice(quote.midE4)}</dd>
          </div>
          <div>
            <dt className="text-ink-muted">Ask (you buy at)</dt>
            <dd className="font-semibold tabular-nums">{formatPrice(quote.askE4)}</dd>
          </div>
        </dl>
      ) : (
        <p className="mt-3 text-sm text-ink-muted" role="status">
          The price is unavailable right now, so no order can be placed. Try again in a moment.
        </p>
      )}
      <FormErrors reply={refusalFor(reply, "order")}>
        <Form method="post" className="mt-4 space-y-4" replace>
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          <fieldset>
            <legend className="text-sm font-medium">Side</legend>
            <div className="mt-1 flex gap-2">
              {(["buy", "sell"] as const).map((value) => (
                <label key={value} className={segment}>
                  <input
                    type="radio"
                    name="side"
                    value={value}
                    checked={side === value}
                    disabled={value === "buy" && !mayBuy}
                    onChange={() => setSide(value)}
                    className="sr-only"
                  />
                  {value === "buy" ? "Buy" : "Sell"}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend className="text-sm font-medium">Order by</legend>
            <div className="mt-1 flex gap-2">
              {(["shares", "amount"] as const).map((value) => (
                <label key={value} className={segment}>
                  <input
                    type="radio"
                    name="sizing"
                    value={value}
                    checked={sizing === value}
                    onChange={() => setSizing(value)}
                    className="sr-only"
                  />
                  {value === "shares" ? "Shares" : "Amount (USD)"}
                </label>
              ))}
            </div>
          </fieldset>
          <div>
            <label htmlFor={quantityField.id} className="block text-sm font-medium">
              {sizing === "shares" ? "Shares (up to 4 decimals)" : "Amount (USD)"}
            </label>
            <input
              id={quantityField.id}
              name="quantity"
              inputMode="decimal"
              autoComplete="off"
              required
              value={quantity}
              onChange={(event) => setQuantity(event.target.value)}
              {...quantityField.controlProps}
              className="mt-1 block w-full rounded-md border border-border bg-canvas px-3 py-2 tabular-nums focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40 aria-[invalid=true]:border-danger"
            />
            <p id={quantityField.hintId} className="mt-1 text-xs text-ink-muted">
              {side === "buy"
                ? `You can spend ${formatCents(Math.max(0, spendableCents))}.`
                : `You hold ${formatShares(heldE4)} ${symbol}.`}
            </p>
            {quantityField.errorText}
          </div>
          <p className="text-sm" data-testid="order-estimate" aria-live="polite">
            {estimate
              ? `Estimate: ${formatShares(estimate.sharesE4)} ${symbol} × ${formatPrice(estimate.priceE4)} (${side === "buy" ? "ask" : "bid"}) = ${formatCents(estimate.cents)}. The order fills at the server's price when it is placed.`
              : "Enter a size to see an estimate."}
          </p>
          {orderReply ? <Banner tone={orderReply.tone}>{orderReply.message}</Banner> : null}
          <SubmitButton intent="order" pendingText="Placing order…" disabled={!quote} className="w-full">
            {side === "buy" ? `Buy ${symbol}` : `Sell ${symbol}`}
          </SubmitButton>
        </Form>
      </FormErrors>
      {positionId && left > 0 ? (
        <Form method="post" className="mt-3" replace>
          <input type="hidden" name="positionId" value={positionId} />
          <SubmitButton intent="cancelOrder" pendingText="Cancelling…" tone="danger" className="w-full">
            {`Cancel order (${left} s)`}
          </SubmitButton>
        </Form>
      ) : null}
    </section>
  );
}
