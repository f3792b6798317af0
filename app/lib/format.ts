/** Display formats shared by every page (SPEC §9): US money with 2 decimals, long dates in UTC. */
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 });

export function formatCents(cents: number): string {
  return usd.format(cents / 100);
}

export function formatLongDate(epochMs: number | null | undefined): string {
  if (!epochMs) return "N/A";
  return new Date(epochMs).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });
}
