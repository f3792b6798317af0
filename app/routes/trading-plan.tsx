import { Link } from "react-router";
import { formatWholeUsd } from "~/lib/format";
import { seo } from "~/lib/seo";
import { TRADING_PLANS } from "~/lib/trading-plans";
import type { Route } from "./+types/trading-plan";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Trading Plans",
    description: "Compare the Standard, Master and Premium trading plans.",
    path: "/trading-plan",
  });

export default function TradingPlans() {
  return (
    <section>
      <h1 className="text-center text-3xl font-bold">Select Your Trading Plan</h1>
      <ul className="mt-10 grid gap-6 md:grid-cols-3">
        {TRADING_PLANS.map((plan) => (
          <li key={plan.id} className="flex flex-col rounded-xl border border-border bg-surface p-6">
            <h2 className="text-xl font-semibold">{plan.name}</h2>
            <p className="mt-4 text-3xl font-bold text-brand">{plan.roi}</p>
            <dl className="mt-4 space-y-2 text-sm">
              <div className="flex justify-between">
                <dt className="text-ink-muted">Minimum</dt>
                <dd className="font-medium">{formatWholeUsd(plan.minimumAmount)}</dd>
              </div>
              <div className="flex justify-between">
                <dt className="text-ink-muted">Maximum</dt>
                <dd className="font-medium">
                  {plan.maximumAmount === null ? "Unlimited" : formatWholeUsd(plan.maximumAmount)}
                </dd>
              </div>
            </dl>
            <Link
              to={`/deposit?amount=${plan.minimumAmount}`}
              className="mt-6 rounded-md bg-brand-strong px-4 py-2 text-center font-semibold text-white hover:bg-brand-hover"
              aria-label={`Get Started with the ${plan.name}`}
            >
              Get Started
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
