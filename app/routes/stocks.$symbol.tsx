import { useEffect } from "react";
import { data, Link, useRevalidator } from "react-router";
import { LivePrice } from "~/components/live-price";
import { type OrderReply, OrderTicket } from "~/components/orders/order-ticket";
import { PriceChange } from "~/components/price-change";
import { pageMeta, RouteError } from "~/components/route-error";
import { StockLogo } from "~/components/stock-logo";
import { TradingViewWidget } from "~/components/trading-view-chart";
import { formatUsd } from "~/lib/format";
import { findStock, similarStocks, stockView } from "~/lib/stocks";
import { useQuotes } from "~/lib/use-quotes";
import { logoUrl } from "~/server/env.server";
import { readForm } from "~/server/form.server";
import { dispatchIntent } from "~/server/intents.server";
import { spendableCents } from "~/server/positions/orders.server";
import { cancelOrder, placeOrder } from "~/server/positions/place-order.server";
import { heldSharesE4 } from "~/server/positions/sales.server";
import { quoteViews } from "~/server/quotes/views.server";
import { getSessionUser, requireClient } from "~/server/session.server";
import { readClientLevel } from "~/server/verification/levels.server";
import type { Route } from "./+types/stocks.$symbol";

export const meta: Route.MetaFunction = pageMeta(({ loaderData: data }) => [
  { title: data ? `${data.stock.name} (${data.stock.symbol})` : "Stock" },
  { name: "description", content: data?.stock.description ?? "" },
]);

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const stock = stockView(params.symbol ?? "");
  const known = findStock(stock.symbol);
  // A signed-in client's live price, right before hydration; a visitor's page (edge-cached) keeps the list price.
  const user = known ? await getSessionUser(request, context) : null;
  const client = user && user.role !== "admin" ? user : null;
  const quotes = client ? await quoteViews(context.bindings, [stock.symbol]) : null;
  // The order ticket's figures: what a buy may spend and what may be sold (docs/product.md, "Orders and positions").
  const ticket = client
    ? {
        spendableCents: await spendableCents(context.db, client.id),
        heldE4: await heldSharesE4(context.db, client.id, stock.symbol),
        mayBuy: (await readClientLevel(context.db, context.env, client.id)).level !== "restricted",
        idempotencyKey: crypto.randomUUID(),
      }
    : null;
  const body = {
    quotes,
    ticket,
    stock,
    logo: stock.domain ? logoUrl(context.env, stock.domain) : null,
    similar: known
      ? similarStocks(known, 5).map((s) => ({ symbol: s.symbol, name: s.name, price: s.price, change: s.change }))
      : [],
  };
  // An unknown symbol still gets the placeholder page (price 0, sector Unknown), but as a 404 for browsers and
  // crawlers: the page is rendered, not thrown, so it is not the error boundary's.
  return known ? body : data(body, { status: 404 });
}

/** The order ticket's two forms: an order, and the cancel of a buy within its 3 seconds. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireClient(request, context);
  const form = await readForm(request);
  // Each command runs its row of the acts table (`order`, `orderCancel`).
  return dispatchIntent<"order" | "cancelOrder", OrderReplyExtra>(form, {
    order: async (reply) => {
      const placed = await placeOrder(context, user, (params.symbol ?? "").toUpperCase(), form);
      return placed.ok ? reply.done(placed.message, { positionId: placed.positionId }) : reply.refused(placed);
    },
    cancelOrder: async (reply) => {
      const cancelled = await cancelOrder(context, user, form);
      return cancelled.ok ? reply.done(cancelled.message) : reply.refused(cancelled);
    },
  });
}

type OrderReplyExtra = { positionId: number };

export default function StockDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { stock, logo, similar, quotes: firstQuotes, ticket } = loaderData;
  const quote = useQuotes(firstQuotes ? [stock.symbol] : [], firstQuotes).get(stock.symbol);
  const reply = actionData as OrderReply | undefined;
  // A cancelled order's reserve is released: the ticket's figures are read again once the window is over.
  const revalidator = useRevalidator();
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the reply's stamp on purpose
  useEffect(() => {
    if (reply?.intent !== "order" || reply.tone !== "success") return;
    const timer = setTimeout(() => revalidator.revalidate(), 3_500);
    return () => clearTimeout(timer);
  }, [reply?.at]);
  return (
    <section className="space-y-6">
      <Link to="/stocks" className="text-sm text-brand hover:underline">
        Back to Watchlist
      </Link>
      <div className="flex flex-wrap items-center gap-4">
        <StockLogo src={logo} name={stock.name} size={56} />
        <div className="min-w-0 flex-1">
          <h1 className="text-3xl font-bold">
            {stock.name} <span className="text-ink-muted">({stock.symbol})</span>
          </h1>
          <p className="text-sm text-ink-muted">{stock.sector}</p>
        </div>
        <div className="text-right">
          <p className="text-2xl font-semibold tabular-nums">
            {firstQuotes ? <LivePrice quote={quote} bidAsk /> : formatUsd(stock.price)}
          </p>
          {/* An unknown symbol has no price movement to show, and nothing to buy (below). */}
          {stock.known ? <PriceChange change={stock.change} /> : null}
        </div>
      </div>
      <p className="max-w-3xl text-ink-muted">{stock.description}</p>
      {ticket && stock.known ? (
        <div className="max-w-xl">
          <OrderTicket
            symbol={stock.symbol}
            quote={
              quote?.state === "live" &&
              quote.bid !== null &&
              quote.ask !== null &&
              quote.mid !== null &&
              quote.at !== null
                ? { bidE4: quote.bid, askE4: quote.ask, midE4: quote.mid, at: quote.at }
                : null
            }
            {...ticket}
            reply={reply}
          />
        </div>
      ) : null}
      {stock.known ? (
        <Link
          to={`/stocks/${stock.symbol}/deposit`}
          className="inline-block rounded-md bg-brand-strong px-5 py-2 font-semibold text-white hover:bg-brand-hover"
        >
          Buy Now
        </Link>
      ) : null}
      {stock.known ? (
        <TradingViewWidget
          title={`${stock.symbol} price over 12 months`}
          script="embed-widget-mini-symbol-overview.js"
          height={220}
          config={{
            symbol: stock.symbol,
            dateRange: "12M",
            colorTheme: "dark",
            width: "100%",
            height: 220,
            locale: "en",
          }}
        />
      ) : null}
      {similar.length > 0 ? (
        <article>
          <h2 className="text-xl font-semibold">Similar Stocks</h2>
          <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
            {similar.map((s) => (
              <li key={s.symbol}>
                <Link
                  to={`/stocks/${s.symbol}`}
                  className="block rounded-xl border border-border bg-surface p-4 hover:bg-surface-raised"
                >
                  <p className="font-semibold text-brand">{s.symbol}</p>
                  <p className="truncate text-sm">{s.name}</p>
                  <p className="mt-2 text-sm tabular-nums">
                    {formatUsd(s.price)} <PriceChange change={s.change} />
                  </p>
                </Link>
              </li>
            ))}
          </ul>
        </article>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
