/** How a statement's month ('YYYY-MM', UTC) is named on the page: "October 2026". */
const monthName = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

export function monthLabel(month: string): string {
  const [year, monthNumber] = month.split("-").map(Number);
  return monthName.format(new Date(Date.UTC(year ?? 1970, (monthNumber ?? 1) - 1, 1)));
}

/** Why an address names no statement (the 404's text). */
export const STATEMENT_REFUSALS = {
  malformed: "There is no statement at this address: a statement is named by its month, as in /statements/2026-10.",
  future: "There is no statement for this month yet: a month's statement opens on its first day.",
} as const;
