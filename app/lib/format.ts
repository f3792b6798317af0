/**
 * Display formats shared by every page (SPEC §9): US money with 2 decimals, long dates in UTC. The
 * formatters are built once: `toLocaleString` with options builds a new one on every call, which made
 * long lists cost milliseconds to render.
 */
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 });
const wholeUsd = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  // Both bounds: some engines refuse a maximum below the currency's default minimum of 2.
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const longDate = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });

export function formatCents(cents: number): string {
  return usd.format(cents / 100);
}

/** A dollar figure (a share price, an amount typed in dollars) with 2 decimals. */
export function formatUsd(dollars: number): string {
  return usd.format(dollars);
}

/** A round dollar figure (plan limits). */
export function formatWholeUsd(dollars: number): string {
  return wholeUsd.format(dollars);
}

export function formatLongDate(epochMs: number | null | undefined): string {
  if (!epochMs) return "N/A";
  return longDate.format(new Date(epochMs));
}
