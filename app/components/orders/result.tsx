import { formatCents } from "~/lib/format";

/** A result with its sign in words as well as colour: gains and losses never by colour alone. */
export function Result({ cents, percent }: { cents: number | null; percent?: number | null }) {
  if (cents === null) return <span className="text-ink-muted">Price unavailable</span>;
  const tone = cents > 0 ? "text-success" : cents < 0 ? "text-danger" : "";
  const sign = cents > 0 ? "+" : cents < 0 ? "−" : "";
  return (
    <span className={tone}>
      {sign}
      {formatCents(Math.abs(cents))}
      {percent === null || percent === undefined ? null : ` (${sign}${Math.abs(percent).toFixed(2)}%)`}
      <span className="sr-only">{cents > 0 ? " gain" : cents < 0 ? " loss" : ""}</span>
    </span>
  );
}
