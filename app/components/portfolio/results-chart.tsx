import { formatCents } from "~/lib/format";
import type { MonthResult } from "~/lib/portfolio";
import { monthLabel } from "~/lib/statement-month";
import { ChartFrame, ChartMark, FiguresTable, shortMonthLabel, verticalScale } from "./chart-parts";

/**
 * Profit minus loss per month as bars, drawn here as SVG: above the zero line a month that gained (green), below it
 * one that lost (red); each month's column focusable with its exact figure, and the figures as a table under it.
 */
export function ResultsChart({ results, title }: { results: MonthResult[]; title: string }) {
  const scale = verticalScale(results.map((r) => r.cents));
  const zero = scale.top(0);
  const width = 100 / Math.max(results.length, 1);
  const first = results[0];
  const last = results[results.length - 1];
  return (
    <div>
      <ChartFrame
        title={title}
        high={formatCents(scale.high)}
        low={formatCents(scale.low)}
        first={first ? shortMonthLabel(first.month) : ""}
        last={last ? shortMonthLabel(last.month) : ""}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 100 100"
          preserveAspectRatio="none"
          className="absolute inset-0 h-full w-full"
        >
          {results.map((r, index) => {
            // A month without profit or loss has no bar: the zero line is its figure.
            if (r.cents === 0) return null;
            const top = scale.top(r.cents);
            return (
              <rect
                key={r.month}
                x={index * width + width * 0.2}
                width={width * 0.6}
                y={Math.min(top, zero)}
                height={Math.max(Math.abs(zero - top), 0.4)}
                className={r.cents < 0 ? "fill-danger" : "fill-success"}
              />
            );
          })}
          <line
            x1="0"
            x2="100"
            y1={zero}
            y2={zero}
            className="stroke-ink-muted"
            strokeWidth="1"
            vectorEffect="non-scaling-stroke"
          />
        </svg>
        {results.map((r, index) => (
          <ChartMark
            key={r.month}
            label={monthLabel(r.month)}
            value={formatCents(r.cents)}
            left={index * width + width / 2}
            className="chart-column"
            style={{ left: `${index * width}%`, width: `${width}%` }}
          />
        ))}
      </ChartFrame>
      <FiguresTable
        caption={`${title} (UTC months)`}
        headings={["Month", "Profit minus loss"]}
        rows={results.map((r) => ({ key: r.month, label: monthLabel(r.month), value: formatCents(r.cents) }))}
      />
    </div>
  );
}
