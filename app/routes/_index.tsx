import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";

export const meta: MetaFunction = ({ matches }) => {
  const root = matches.find((match) => match.id === "root")?.data as { brand?: { name: string } } | undefined;
  const brand = root?.brand?.name ?? "Client portal";
  return [
    { title: `${brand} | Trade forex, crypto and stocks` },
    { name: "description", content: `Fund your ${brand} account with Bitcoin or USDT and follow your results.` },
  ];
};

export default function Home() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const brand = root?.brand.name ?? "Client portal";
  return (
    <section className="py-12 md:py-20">
      <h1 className="max-w-3xl text-4xl font-bold tracking-tight md:text-5xl">
        Trade forex, crypto and stocks with {brand}
      </h1>
      <p className="mt-6 max-w-2xl text-lg text-ink-muted">
        Fund your account with Bitcoin or USDT, follow your balance and results, and request withdrawals whenever you
        need them.
      </p>
      <div className="mt-10 flex flex-wrap gap-4">
        <Link to="/deposit" className="rounded-md bg-brand-strong px-5 py-3 font-semibold text-white hover:bg-brand">
          Start Trading
        </Link>
        <Link
          to="/trading-plan"
          className="rounded-md border border-border px-5 py-3 font-semibold hover:bg-surface-raised"
        >
          Trading Plans
        </Link>
      </div>
    </section>
  );
}
