import { formatCents } from "~/lib/format";
import type { BalancePoint } from "~/lib/portfolio";
import { ChartFrame, ChartMark, dayLabel, FiguresTable, horizontalPosition, verticalScale } from "./chart-parts";

/**
 * The balance line, drawn here as SVG (no script): the ledger balance at the end of each day shown, each point
 * focusable with its exact figure, and the same figures as a table under it (docs/product.md, "Portfolio").
 */
export function BalanceChart({
  points,
  title,
  compact = false,
}: {
  points: BalancePoint[];
  title: string;
  /** The dashboard's lower box. */
  compact?: boolean;
}) {
  if (points.length === 0) {
    return <p className="text-sm text-ink-muted">No money has moved on your account yet.</p>;
  }
  const scale = verticalScale(points.map((p) => p.cents));
  const placed = points.map((point, index) => ({
    ...point,
    left: horizontalPosition(index, points.length),
    top: scale.top(point.cents),
  }));
  const line = placed.map((p) => `${p.left},${p.top}`).join(" ");
  const first = placed[0];
  const last = placed[placed.length - 1];
  return (
    <div>
      <ChartFrame
        title={title}
        compact={compact}
        high={formatCents(scale.high)}
        low={formatCents(scale.low)}
        first={first ? dayLabel(first.day) : ""}
        last={last ? dayLabel(last.day) : ""}
      >
        {/* One unit of the viewBox is one percent of the box, so the marks below sit on the line at any width. */}
        <svg
          aria-hidden="true"
          viewBox="0 0 100 100"
          preserveAspectRatio="none"
          className="absolute inset-0 h-full w-full text-brand"
        >
          <line
            x1="0"
            x2="100"
            y1={scale.top(0)}
            y2={scale.top(0)}
            className="stroke-border"
            strokeDasharray="4 4"
            vectorEffect="non-scaling-stroke"
          />
          <polyline
            points={line}
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinejoin="round"
            vectorEffect="non-scaling-stroke"
          />
        </svg>
        {placed.map((p) => (
          <ChartMark
            key={p.day}
            label={dayLabel(p.day)}
            value={formatCents(p.cents)}
            left={p.left}
            below={p.top < 35}
            className="chart-point"
            style={{ left: `${p.left}%`, top: `${p.top}%` }}
          />
        ))}
      </ChartFrame>
      <FiguresTable
        caption={`${title} (days end at midnight UTC)`}
        headings={["Day", "Balance"]}
        rows={points.map((p) => ({ key: p.day, label: dayLabel(p.day), value: formatCents(p.cents) }))}
      />
    </div>
  );
}
