import type { ReactNode } from "react";
import { formatMediumDate } from "~/lib/format";
import { monthLabel } from "~/lib/statement-month";

/** "Nov 26, 2026": a point's day, UTC as every day of the charts. */
export const dayLabel = (day: string) => formatMediumDate(Date.parse(`${day}T00:00:00Z`));
/** "Nov 2026": a bar's month, short enough for an axis. */
export const shortMonthLabel = (month: string) => {
  const [name = "", year = ""] = monthLabel(month).split(" ");
  return `${name.slice(0, 3)} ${year}`;
};

/**
 * The vertical scale of a chart: from the lowest to the highest value, 0 always inside (a balance or a result is read
 * against zero), the values kept 6% off the edges so a point's dot is never cut. Returns a value's top in percent.
 */
export function verticalScale(values: number[]) {
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const span = high - low || 1;
  return { low, high, top: (value: number) => hundredths(6 + ((high - value) / span) * 88) };
}

/** A percentage to a hundredth: finer than a pixel at any width, and a short number in every mark's style. */
const hundredths = (percent: number) => Math.round(percent * 100) / 100;

/** A point's or bar's left edge in percent, the first and last kept off the sides. */
export const horizontalPosition = (index: number, count: number) =>
  count === 1 ? 50 : hundredths(2 + (index / (count - 1)) * 96);

/** Where a tooltip opens so it stays inside the chart: from the left edge, centred, or from the right edge. */
function tipSide(left: number) {
  if (left < 25) return "chart-tip-start";
  if (left > 75) return "chart-tip-end";
  return "chart-tip-middle";
}

/**
 * A focusable mark of a chart (a point, a bar's column) whose exact figure shows beside it on hover and on keyboard
 * focus; a screen reader reads the same text as the mark's name. Positioned by the caller in percent.
 */
export function ChartMark({
  label,
  value,
  left,
  below = false,
  className,
  style,
}: {
  label: string;
  value: string;
  left: number;
  /** The tooltip opens under the mark (a point near the chart's top) rather than above it. */
  below?: boolean;
  className: string;
  style: React.CSSProperties;
}) {
  return (
    <span
      role="img"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a mark is focused to read its figure, as a mouse hovers it
      tabIndex={0}
      aria-label={`${label}: ${value}`}
      className={`chart-mark ${className}`}
      style={style}
    >
      <span aria-hidden="true" className={`chart-tip ${tipSide(left)}${below ? " chart-tip-below" : ""}`}>
        <span>{label}</span>
        <span>{value}</span>
      </span>
    </span>
  );
}

/** The chart's frame: its title, the scale's ends on the left, the drawing, the first and last labels under it. */
export function ChartFrame({
  title,
  high,
  low,
  first,
  last,
  compact = false,
  children,
}: {
  title: string;
  compact?: boolean;
  high: string;
  low: string;
  first: string;
  last: string;
  children: ReactNode;
}) {
  return (
    <figure className="space-y-2">
      <figcaption className="text-sm font-medium text-ink-muted">{title}</figcaption>
      <div className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 gap-y-1">
        <div
          aria-hidden="true"
          className="flex flex-col justify-between text-right text-xs tabular-nums text-ink-muted"
        >
          <span>{high}</span>
          <span>{low}</span>
        </div>
        <div className={`relative rounded-md border border-border ${compact ? "h-36" : "h-48 sm:h-64"}`}>
          {children}
        </div>
        <div aria-hidden="true" className="col-start-2 flex justify-between text-xs text-ink-muted">
          <span>{first}</span>
          <span>{last}</span>
        </div>
      </div>
    </figure>
  );
}

/** The figures behind a chart as a real table, folded under the chart: every point or bar, with its exact figure. */
export function FiguresTable({
  caption,
  headings,
  rows,
}: {
  caption: string;
  headings: [string, string];
  rows: Array<{ key: string; label: string; value: string }>;
}) {
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer text-brand hover:underline">Show the figures as a table</summary>
      <table className="mt-2 w-full max-w-md text-left">
        <caption className="text-left text-ink-muted">{caption}</caption>
        <thead className="text-ink-muted">
          <tr>
            <th scope="col" className="py-1 pr-4 font-medium">
              {headings[0]}
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              {headings[1]}
            </th>
          </tr>
        </thead>
        {/* The cells' look is set once here, not on each of the rows. */}
        <tbody className="divide-y divide-border [&_th]:py-1 [&_th]:pr-4 [&_th]:font-normal [&_td]:py-1 [&_td]:text-right [&_td]:tabular-nums">
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.label}</th>
              <td>{row.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
