/** How a statement's month ('YYYY-MM', UTC) is named on the page: "October 2026". */
const monthName = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

export function monthLabel(month: string): string {
  const [year, monthNumber] = month.split("-").map(Number);
  return monthName.format(new Date(Date.UTC(year ?? 1970, (monthNumber ?? 1) - 1, 1)));
}

/**
 * The first year a statement or a summary may be asked for: no account's money moved before it. Earlier addresses
 * name nothing (JavaScript's dates would also read years 0 to 99 as 1900 to 1999), and a closed month's PDF is kept
 * once built, so they must not build one each.
 */
export const FIRST_STATEMENT_YEAR = 2000;

/** Why an address names no statement (the 404's text). */
export const STATEMENT_REFUSALS = {
  malformed: "There is no statement at this address: a statement is named by its month, as in /statements/2026-10.",
  future: "There is no statement for this month yet: a month's statement opens on its first day.",
  early: `There is no statement for this month: statements begin in January ${FIRST_STATEMENT_YEAR}.`,
} as const;

/** A yearly summary's year as the address names it: '2026'. */
export const YEAR_PATTERN = /^\d{4}$/;

/** Why an address names no yearly summary (the 404's text). */
export const SUMMARY_REFUSALS = {
  malformed: "There is no summary at this address: a yearly summary is named by its year, as in /statements/year/2026.",
  future: "There is no summary for this year yet: a year's summary opens on its first day.",
  early: `There is no summary for this year: summaries begin with ${FIRST_STATEMENT_YEAR}.`,
} as const;

/** The years of a list of months ('YYYY-MM'), in the list's order, each once. */
export function yearsOf(months: readonly string[]): string[] {
  return [...new Set(months.map((month) => month.slice(0, 4)))];
}
