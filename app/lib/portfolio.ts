/**
 * Balance and results over time (docs/product.md, "Portfolio"): the ranges /portfolio offers, and the points and
 * bars computed from the signed per-month and per-day sums of the client's approved movements (the server reads
 * them from `ledger_months` and `ledger_days`, signed by the rules table). No imports: the page shares the names.
 */

export const PORTFOLIO_RANGES = ["30d", "12m", "all"] as const;
export type PortfolioRange = (typeof PORTFOLIO_RANGES)[number];
export const DEFAULT_RANGE: PortfolioRange = "30d";

export const RANGE_LABELS: Record<PortfolioRange, string> = { "30d": "30 days", "12m": "12 months", all: "All time" };

/** What /portfolio answers (400) to a range it does not offer. */
export const RANGE_REFUSAL = "There is no such range: choose 30 days, 12 months or all time.";

/** The range the address asks for: none means the default; an unknown one is null (refused). */
export function parseRange(value: string | null): PortfolioRange | null {
  if (value === null) return DEFAULT_RANGE;
  return PORTFOLIO_RANGES.find((range) => range === value) ?? null;
}

/** One point of the balance line: the ledger balance at the end of that UTC day (today: so far). */
export interface BalancePoint {
  day: string;
  cents: number;
}

/** One bar: profit minus loss of the movements of that UTC month. */
export interface MonthResult {
  month: string;
  cents: number;
}

/** The signed sums the server reads: per month (all of them), and per day from `firstDayToRead` to today. */
export interface MovementSums {
  months: Array<{ month: string; net: number; result: number }>;
  days: Array<{ day: string; net: number }>;
}

const DAY_MS = 86_400_000;
/** Up to this many days a line shows every day, else every seventh day back from today (or month ends, all time). */
const DAILY_UP_TO = 31;
const WEEK = 7;
/** Days each fixed range covers, today included. */
const RANGE_DAYS = { "30d": 30, "12m": 365 } as const;
/** Months of bars the fixed ranges show, the current one included. */
const BAR_MONTHS = 12;

export const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);
const dayNumber = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
const dayAt = (n: number) => dayOf(n * DAY_MS);
const monthOf = (day: string) => day.slice(0, 7);
const monthStart = (day: string) => `${monthOf(day)}-01`;

function nextMonth(month: string): string {
  const [year = 1970, number = 1] = month.split("-").map(Number);
  return new Date(Date.UTC(year, number, 1)).toISOString().slice(0, 7);
}

function lastDayOf(month: string): string {
  return dayAt(dayNumber(`${nextMonth(month)}-01`) - 1);
}

/** Every month from `first` to `last`, both included. */
function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  for (let month = first; month <= last; month = nextMonth(month)) months.push(month);
  return months;
}

/**
 * The first day whose movements the server must read for a range: the first of the month the window begins in
 * (the months before it come whole from the monthly sums). "All time" reads the last year's days, enough to draw
 * an account younger than a year day by day or week by week.
 */
export function firstDayToRead(range: PortfolioRange, today: string): string {
  const span = range === "30d" ? RANGE_DAYS["30d"] : RANGE_DAYS["12m"];
  return monthStart(dayAt(dayNumber(today) - span + 1));
}

/** The balance line of a range, each point an exact end-of-day balance; empty when money never moved. */
export function balancePoints(range: PortfolioRange, today: string, sums: MovementSums): BalancePoint[] {
  const firstMonth = sums.months[0]?.month;
  if (firstMonth === undefined) return [];
  const end = dayNumber(today);
  let start: number;
  if (range === "all") {
    // Older than the days read: month ends.
    if (`${firstMonth}-01` < firstDayToRead(range, today)) return monthEnds(firstMonth, today, sums);
    start = dayNumber(sums.days[0]?.day ?? today);
  } else {
    start = end - RANGE_DAYS[range] + 1;
  }
  const startDay = dayAt(start);
  const step = end - start + 1 <= DAILY_UP_TO ? 1 : WEEK;
  const netOfDay = new Map(sums.days.map((d) => [d.day, d.net]));
  // The balance before the window: the months before its month, then its month's days before it.
  let balance =
    sums.months.filter((m) => m.month < monthOf(startDay)).reduce((sum, m) => sum + m.net, 0) +
    sums.days.filter((d) => d.day >= monthStart(startDay) && d.day < startDay).reduce((sum, d) => sum + d.net, 0);
  const points: BalancePoint[] = [];
  for (let n = start; n <= end; n++) {
    const day = dayAt(n);
    balance += netOfDay.get(day) ?? 0;
    if ((end - n) % step === 0) points.push({ day, cents: balance });
  }
  return points;
}

/** Month ends from the first month money moved in, and today for the current month. */
function monthEnds(firstMonth: string, today: string, sums: MovementSums): BalancePoint[] {
  const netOfMonth = new Map(sums.months.map((m) => [m.month, m.net]));
  let balance = 0;
  return monthsBetween(firstMonth, monthOf(today)).map((month) => {
    balance += netOfMonth.get(month) ?? 0;
    return { day: month === monthOf(today) ? today : lastDayOf(month), cents: balance };
  });
}

/**
 * The bars of a range: the last 12 months (the current one included) for 30 days and 12 months, every month since
 * money first moved for all time; a month without profit or loss is a bar of $0.00.
 */
export function monthResults(range: PortfolioRange, today: string, sums: MovementSums): MonthResult[] {
  const current = monthOf(today);
  let first = sums.months[0]?.month ?? current;
  if (range !== "all") {
    const [year = 1970, number = 1] = current.split("-").map(Number);
    first = new Date(Date.UTC(year, number - BAR_MONTHS, 1)).toISOString().slice(0, 7);
  }
  const resultOf = new Map(sums.months.map((m) => [m.month, m.result]));
  return monthsBetween(first, current).map((month) => ({ month, cents: resultOf.get(month) ?? 0 }));
}
