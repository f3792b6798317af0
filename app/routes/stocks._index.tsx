import { useState } from "react";
import { Form, Link } from "react-router";
import { useListNavigation } from "~/components/list-navigation";
import { LivePrice } from "~/components/live-price";
import { PriceChange } from "~/components/price-change";
import { pageMeta, RouteError } from "~/components/route-error";
import { formatUsd } from "~/lib/format";
import { seo } from "~/lib/seo";
import { filterStocks, STOCKS } from "~/lib/stocks";
import { useQuotes } from "~/lib/use-quotes";
import { quoteViews } from "~/server/quotes/views.server";
import { getSessionUser } from "~/server/session.server";
import type { Route } from "./+types/stocks._index";

export const meta: Route.MetaFunction = pageMeta(({ matches }) =>
  seo(matches, {
    title: "Stock market watchlist",
    description: "Well-known US stocks by sector, with a quick way to buy by deposit.",
    path: "/stocks",
  }),
);

const ALL_SYMBOLS = STOCKS.map((stock) => stock.symbol);

/**
 * The query from the URL, so the filter also works without JavaScript (?q=). A signed-in client gets every
 * stock's live price (one provider call) before hydration; a visitor's page, kept by the edge cache, never has any.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams.get("q")?.slice(0, 50) ?? "";
  const user = await getSessionUser(request, context);
  const quotes = user && user.role !== "admin" ? await quoteViews(context.bindings, ALL_SYMBOLS) : null;
  return { query, quotes };
}

export default function StocksWatchlist({ loaderData }: Route.ComponentProps) {
  const { query: initial, quotes: firstQuotes } = loaderData;
  const [query, setQuery] = useState(initial);
  const stocks = filterStocks(query, STOCKS);
  const followLink = useListNavigation();
  // Only the stocks shown are asked for again.
  const quotes = useQuotes(
    stocks.map((stock) => stock.symbol),
    firstQuotes,
  );

  return (
    <section>
      <h1 className="text-3xl font-bold">Stock market watchlist</h1>
      <Form
        method="get"
        role="search"
        className="mt-6 flex max-w-xl gap-2"
        onSubmit={(event) => event.preventDefault()}
      >
        <label htmlFor="stock-search" className="sr-only">
          Search stocks
        </label>
        <input
          id="stock-search"
          name="q"
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder="Search stocks by symbol or name..."
          autoComplete="off"
          className="min-w-0 flex-1 rounded-md border border-border bg-surface px-3 py-2"
        />
        {/* A link, so that clearing also works without JavaScript; with it, the list updates in place. */}
        <Link
          to="/stocks"
          aria-label="Clear search"
          onClick={(event) => {
            event.preventDefault();
            setQuery("");
          }}
          className="rounded-md border border-border px-3 py-2 text-sm hover:bg-surface-raised"
        >
          Clear
        </Link>
      </Form>
      {stocks.length === 0 ? (
        <p className="mt-8 text-ink-muted">No stocks available.</p>
      ) : (
        // The cards' look is set once, on the list (`.stock-cards` in app/tailwind.css, by each element's place in
        // the card): a new element or a reordered one must update those rules. Plain links, one click handler
        // for the list (useListNavigation), rather than a React Router <Link> per card.
        // biome-ignore lint/a11y/useKeyWithClickEvents: the clicks are the links', which the keyboard fires too
        <ul className="stock-cards" onClick={followLink}>
          {stocks.map((stock) => (
            <li key={stock.symbol}>
              <a href={`/stocks/${stock.symbol}`}>
                <p>{stock.symbol}</p>
                <h2>{stock.name}</h2>
              </a>
              <p>{stock.sector}</p>
              <div>
                <span>{firstQuotes ? <LivePrice quote={quotes.get(stock.symbol)} /> : formatUsd(stock.price)}</span>
                <PriceChange change={stock.change} />
              </div>
              <a href={`/stocks/${stock.symbol}/deposit`} aria-label={`Buy Now: ${stock.symbol}`}>
                Buy Now
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
