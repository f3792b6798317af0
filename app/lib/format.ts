/**
 * Display formats shared by every page: US money with 2 decimals (docs/product.md, "Constants"), dates in
 * UTC. The formatters are built once: `toLocaleString` with options builds a new one on every call, which made
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
const mediumDate = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

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

/** "Mar 5, 2025": the dashboard's lists. */
export function formatMediumDate(epochMs: number): string {
  return mediumDate.format(new Date(epochMs));
}

/**
 * "Mar 5, 2025, 2:07 PM UTC": every moment a page shows, the client's and the back office's alike. There is no
 * form without the "UTC": a bare time reads as the reader's own zone.
 */
export function formatDateTimeUtc(epochMs: number): string {
  return `${dateTime.format(new Date(epochMs))} UTC`;
}

/** A movement's amount with its direction: "+$1,250.00", "−$75.00" (a true minus sign). */
export function formatSignedCents(cents: number): string {
  return cents < 0 ? `−${formatCents(-cents)}` : `+${formatCents(cents)}`;
}

/** A gain or a loss: signed, but "$0.00" when nothing was gained or lost (a sign on zero reads as a gain). */
export function formatResultCents(cents: number): string {
  return cents === 0 ? formatCents(0) : formatSignedCents(cents);
}
