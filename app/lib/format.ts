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
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** How many texts a formatter keeps before it starts again: bounded memory in a long-lived isolate. */
const KEPT_TEXTS = 5_000;

/**
 * A date formatter that keeps its texts by the unit it shows (a UTC day, a minute): formatting a date takes
 * microseconds in the Worker's ICU, and a page's rows, and every live refresh of that page, show the same days
 * again and again (measured with `npm run bench:profile`, docs/performance.md).
 */
function keptByUnit(format: Intl.DateTimeFormat, unitMs: number): (epochMs: number) => string {
  const texts = new Map<number, string>();
  return (epochMs) => {
    const unit = Math.floor(epochMs / unitMs);
    let text = texts.get(unit);
    if (text === undefined) {
      if (texts.size >= KEPT_TEXTS) texts.clear();
      text = format.format(new Date(unit * unitMs));
      texts.set(unit, text);
    }
    return text;
  };
}
/**
 * Kept on the server only: the browser formats a page's dates once, when it hydrates, so the code that keeps them
 * is left out of its JavaScript (`import.meta.env.SSR` is a constant of each build).
 */
const dateFormat = (format: Intl.DateTimeFormat, unitMs: number): ((epochMs: number) => string) =>
  import.meta.env.SSR ? keptByUnit(format, unitMs) : (epochMs) => format.format(epochMs);
const longDate = dateFormat(new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }), DAY_MS);
const mediumDate = dateFormat(new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }), DAY_MS);
const dateTime = dateFormat(
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }),
  MINUTE_MS,
);

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
  return longDate(epochMs);
}

/** "Mar 5, 2025": the dashboard's lists. */
export function formatMediumDate(epochMs: number): string {
  return mediumDate(epochMs);
}

/**
 * "Mar 5, 2025, 2:07 PM UTC": every moment a page shows, the client's and the back office's alike. There is no
 * form without the "UTC": a bare time reads as the reader's own zone.
 */
export function formatDateTimeUtc(epochMs: number): string {
  return `${dateTime(epochMs)} UTC`;
}

/** A movement's amount with its direction: "+$1,250.00", "−$75.00" (a true minus sign). */
export function formatSignedCents(cents: number): string {
  return cents < 0 ? `−${formatCents(-cents)}` : `+${formatCents(cents)}`;
}

/** A gain or a loss: signed, but "$0.00" when nothing was gained or lost (a sign on zero reads as a gain). */
export function formatResultCents(cents: number): string {
  return cents === 0 ? formatCents(0) : formatSignedCents(cents);
}
