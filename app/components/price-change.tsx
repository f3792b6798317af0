/** A daily change in percent, green when up, red when down, with its sign spelled out for screen readers. */
export function PriceChange({ change }: { change: number }) {
  const up = change >= 0;
  return (
    <span className={`tabular-nums ${up ? "text-success" : "text-danger"}`}>
      <span aria-hidden="true">{up ? "▲" : "▼"}</span>
      <span className="sr-only">{up ? "up" : "down"}</span> {Math.abs(change).toFixed(2)}%
    </span>
  );
}
