import { Link } from "react-router";
import { pageMeta, RouteError } from "~/components/route-error";
import { TradingViewWidget } from "~/components/trading-view-chart";
import { useBrand } from "~/lib/brand";
import { landingContent } from "~/lib/content";
import { seo } from "~/lib/seo";
import type { Route } from "./+types/_index";

/**
 * Leverage up to 1:500 (docs/product.md, "Constants"). The number of traders is configuration (TRADERS_CLAIM),
 * empty by default.
 */
const MAX_LEVERAGE = "1:500";

const TICKER_SYMBOLS = [
  { proName: "NASDAQ:TSLA", title: "Tesla" },
  { proName: "NASDAQ:AAPL", title: "Apple" },
  { proName: "BITSTAMP:BTCUSD", title: "Bitcoin" },
  { proName: "FX:EURUSD", title: "EUR/USD" },
  { proName: "NASDAQ:GOOGL", title: "Google" },
  { proName: "BITSTAMP:ETHUSD", title: "ETH/USD" },
];

export const meta: Route.MetaFunction = pageMeta(({ matches }) =>
  seo(matches, {
    title: "Trade forex, crypto and stocks",
    description: "Fund your account with Bitcoin or USDT, follow your balance and results, and withdraw when you need.",
    path: "/",
  }),
);

export function loader({ context }: Route.LoaderArgs) {
  // The review claim names the amount at which a second admin must approve a deposit or a withdrawal.
  return { tradersClaim: context.env.TRADERS_CLAIM, fourEyesThreshold: context.env.FOUR_EYES_THRESHOLD };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { tradersClaim, fourEyesThreshold } = loaderData;
  const brand = useBrand();
  const content = landingContent(brand, { traders: tradersClaim, maxLeverage: MAX_LEVERAGE, fourEyesThreshold });
  return (
    <div className="space-y-16">
      <TradingViewWidget
        title="Live market ticker"
        script="embed-widget-ticker-tape.js"
        height={46}
        config={{
          symbols: TICKER_SYMBOLS,
          showSymbolLogo: true,
          colorTheme: "dark",
          isTransparent: true,
          displayMode: "adaptive",
          locale: "en",
        }}
      />

      <section className="py-6 md:py-12">
        <h1 className="max-w-3xl text-4xl font-bold tracking-tight md:text-5xl">{content.heroTitle}</h1>
        <p className="mt-6 max-w-2xl text-lg text-ink-muted">{content.heroText}</p>
        <div className="mt-10 flex flex-wrap gap-4">
          <Link
            to="/deposit"
            className="rounded-md bg-brand-strong px-5 py-3 font-semibold text-white hover:bg-brand-hover"
          >
            Start Trading
          </Link>
          <Link
            to="/trading-plan"
            className="rounded-md border border-border px-5 py-3 font-semibold hover:bg-surface-raised"
          >
            Trading Plans
          </Link>
        </div>
        {tradersClaim ? <p className="mt-6 text-sm text-ink-muted">{content.communityText}</p> : null}
      </section>

      <section aria-labelledby="features">
        <h2 id="features" className="text-2xl font-bold">
          What you can trade
        </h2>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {content.features.map((feature) => (
            <li key={feature.title} className="rounded-xl border border-border bg-surface p-5">
              <h3 className="font-semibold">{feature.title}</h3>
              <p className="mt-2 text-sm text-ink-muted">{feature.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="security">
        <h2 id="security" className="text-2xl font-bold">
          {content.securityTitle}
        </h2>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2">
          {content.securityPoints.map((point) => (
            <li key={point.title} className="rounded-xl border border-border bg-surface p-5">
              <h3 className="font-semibold">{point.title}</h3>
              <p className="mt-2 text-sm text-ink-muted">{point.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="faq">
        <h2 id="faq" className="text-2xl font-bold">
          Frequently asked questions
        </h2>
        {/* Native <details> sharing one name: one item open at a time, keyboard accessible, no JavaScript needed. */}
        <div className="mt-6 divide-y divide-border rounded-xl border border-border bg-surface">
          {content.faqs.map((faq) => (
            <details key={faq.question} name="faq" className="group p-5">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-medium">
                {faq.question}
                <span aria-hidden="true" className="text-ink-muted transition-transform group-open:rotate-45">
                  +
                </span>
              </summary>
              <p className="mt-3 text-ink-muted">{faq.answer}</p>
            </details>
          ))}
        </div>
      </section>

      <section className="rounded-xl border border-border bg-surface p-8 text-center">
        <h2 className="text-2xl font-bold">Choose how you start</h2>
        <p className="mt-2 text-ink-muted">Compare the minimum deposit and target return of each plan.</p>
        <Link
          to="/trading-plan"
          className="mt-6 inline-block rounded-md bg-brand-strong px-5 py-3 font-semibold text-white hover:bg-brand-hover"
        >
          See Trading Plans
        </Link>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
