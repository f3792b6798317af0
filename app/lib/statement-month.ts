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

/** A yearly summary's year as the address names it: '2026'. */
export const YEAR_PATTERN = /^\d{4}$/;

/** Why an address names no yearly summary (the 404's text). */
export const SUMMARY_REFUSALS = {
  malformed: "There is no summary at this address: a yearly summary is named by its year, as in /statements/year/2026.",
  future: "There is no summary for this year yet: a year's summary opens on its first day.",
} as const;

/** The years of a list of months ('YYYY-MM'), in the list's order, each once. */
export function yearsOf(months: readonly string[]): string[] {
  return [...new Set(months.map((month) => month.slice(0, 4)))];
}
