import { Link } from "react-router";
import { PORTFOLIO_RANGES, type PortfolioRange, RANGE_LABELS } from "~/lib/portfolio";

/** 30 days, 12 months, All time: plain links (`?range=`), the current one marked for the eye and screen readers. */
export function RangeSwitch({ current }: { current: PortfolioRange }) {
  return (
    <nav aria-label="Range">
      <ul className="inline-flex rounded-md border border-border text-sm">
        {PORTFOLIO_RANGES.map((range) => (
          <li key={range} className="border-border not-first:border-l">
            <Link
              to={`?range=${range}`}
              aria-current={range === current ? "page" : undefined}
              className={`block px-3 py-1.5 ${range === current ? "bg-brand-strong font-semibold text-white" : "hover:bg-surface-raised"}`}
            >
              {RANGE_LABELS[range]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
