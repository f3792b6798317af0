import { MAX_QUOTE_SYMBOLS, parseSymbols, type QuoteView, TOO_MANY_SYMBOLS } from "~/lib/quotes";
import { findStock } from "~/lib/stocks";
import { quoteViews } from "~/server/quotes/views.server";
import { getSessionUser } from "~/server/session.server";
import type { Route } from "./+types/quotes";

const answer = (body: unknown, status = 200) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

/**
 * `GET /quotes?symbols=AAPL,MSFT`: the latest prices of watchlist stocks for a signed-in client's open page
 * (app/lib/use-quotes.ts polls it). Asked on a timer, so it does not count as the client's activity. Symbols the
 * watchlist does not have are left out; more than MAX_QUOTE_SYMBOLS is refused.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  // Its own `now`, so the lookup is not shared with another loader's, which would count as activity.
  const user = await getSessionUser(request, { db: context.db, env: context.env, quiet: true }, Date.now());
  if (!user) return answer({ error: "Sign in to see live prices." }, 401);
  if (user.role === "admin") return answer({ error: "Live prices are for clients." }, 403);
  const asked = parseSymbols(new URL(request.url).searchParams.get("symbols"));
  if (asked.length > MAX_QUOTE_SYMBOLS) return answer({ error: TOO_MANY_SYMBOLS }, 400);
  const symbols = asked.filter((symbol) => findStock(symbol));
  const quotes: QuoteView[] = await quoteViews(context.bindings, symbols);
  return answer({ quotes });
}
