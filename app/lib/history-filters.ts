/**
 * The filters of a transaction history, as the URL carries them (`?type=withdraw&status=approved&from=2026-01-01
 * &to=2026-06-30&reference=TX-7Q2M9K`), so a filtered view can be bookmarked. One parser for every history
 * table (the client's and the admin's) and its CSV: a bad value gives a message a person can act on and the
 * view falls back to no filters, never an error page. Browser-safe (no server imports).
 */
import { TRANSACTION_STATUSES, TRANSACTION_TYPES, type TransactionStatus, type TransactionType } from "../../db/enums";
import { idOfReference, transactionReference } from "./reference";

export interface HistoryFilters {
  type?: TransactionType;
  status?: TransactionStatus;
  /** First UTC calendar day included, `YYYY-MM-DD`. */
  from?: string;
  /** Last UTC calendar day included, `YYYY-MM-DD`. */
  to?: string;
  /** The canonical reference ("TX-7Q2M9K"), whatever spelling was typed. */
  reference?: string;
}

/** The query parameters the filters own, in the order links spell them. */
export const HISTORY_FILTER_KEYS = ["type", "status", "from", "to", "reference"] as const;

/** A URL's filters as read, for every filtered view (the histories, the admin's transactions, the audit log). */
export interface ParsedFilters<Filters, Key extends string> {
  /** The filters to apply: all of them when every value is good, none otherwise. */
  filters: Filters;
  /** What was typed, to fill the form again (a bad value stays visible next to its message). */
  submitted: Partial<Record<Key, string>>;
  /** One message per bad value; empty when the filters apply. */
  errors: string[];
}

export type ParsedHistoryFilters = ParsedFilters<HistoryFilters, (typeof HISTORY_FILTER_KEYS)[number]>;

/** The values a URL's query gives for `keys`, trimmed and cut at `max` characters; an empty one counts as absent. */
export function submittedValues<Key extends string>(params: URLSearchParams, keys: readonly Key[], max: number) {
  const submitted: Partial<Record<Key, string>> = {};
  for (const key of keys) {
    const value = params.get(key)?.trim().slice(0, max);
    if (value) submitted[key] = value;
  }
  return submitted;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** Midnight UTC of a `YYYY-MM-DD` day, or null for anything that is not a real calendar day. */
export function utcDayStart(day: string): number | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const [, year, month, date] = match.map(Number) as [number, number, number, number];
  const ms = Date.UTC(year, month - 1, date);
  const back = new Date(ms);
  // Date.UTC rolls 2026-02-30 over to March: a day that does not round-trip does not exist.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== date) return null;
  return ms;
}

const isType = (value: string): value is TransactionType => (TRANSACTION_TYPES as readonly string[]).includes(value);
const isStatus = (value: string): value is TransactionStatus =>
  (TRANSACTION_STATUSES as readonly string[]).includes(value);

/** Reads the filters out of a URL's query. Empty values count as absent (an untouched form field). */
export function parseHistoryFilters(params: URLSearchParams): ParsedHistoryFilters {
  const submitted = submittedValues(params, HISTORY_FILTER_KEYS, 40);
  const filters: HistoryFilters = {};
  const errors: string[] = [];
  const { type, status, from, to, reference } = submitted;

  if (type !== undefined) {
    if (isType(type)) filters.type = type;
    else errors.push(`Unknown type "${type}": choose one of ${TRANSACTION_TYPES.join(", ")}.`);
  }
  if (status !== undefined) {
    if (isStatus(status)) filters.status = status;
    else errors.push(`Unknown status "${status}": choose one of ${TRANSACTION_STATUSES.join(", ")}.`);
  }
  const days = readDayRange(from, to);
  Object.assign(filters, days.range);
  errors.push(...days.errors);
  if (reference !== undefined) {
    const id = idOfReference(reference);
    if (id === null) errors.push(`"${reference}" is not a reference: references look like TX-7Q2M9K.`);
    else filters.reference = transactionReference(id);
  }
  return { filters: errors.length > 0 ? {} : filters, submitted, errors };
}

/** A range of UTC days, both ends included: what a From (UTC) and To (UTC) pair of fields keeps. */
export interface DayRange {
  from?: string;
  to?: string;
}

/**
 * The From and To fields of a filter (the history's, the audit log's), each a real `YYYY-MM-DD` day and From not
 * after To; one message per bad value.
 */
export function readDayRange(from: string | undefined, to: string | undefined): { range: DayRange; errors: string[] } {
  const range: DayRange = {};
  const errors: string[] = [];
  for (const [key, value] of [
    ["from", from],
    ["to", to],
  ] as const) {
    if (value === undefined) continue;
    if (utcDayStart(value) === null) errors.push(`"${value}" is not a date: use YYYY-MM-DD, e.g. 2026-01-31.`);
    else range[key] = value;
  }
  if (range.from && range.to && range.from > range.to) {
    errors.push(`The start date ${range.from} is after the end date ${range.to}.`);
  }
  return { range, errors };
}

/** The created_at bounds of the date filters: `from` at midnight UTC, up to (not including) the day after `to`. */
export function historyTimeRange(filters: DayRange): { fromMs?: number; beforeMs?: number } {
  const fromMs = filters.from ? (utcDayStart(filters.from) ?? undefined) : undefined;
  const toStart = filters.to ? utcDayStart(filters.to) : null;
  return { fromMs, beforeMs: toStart === null ? undefined : toStart + DAY_MS };
}

/** The transaction id the reference filter stands for, if there is one. */
export function historyReferenceId(filters: HistoryFilters): number | undefined {
  return filters.reference ? (idOfReference(filters.reference) ?? undefined) : undefined;
}

export function hasHistoryFilters(filters: HistoryFilters): boolean {
  return HISTORY_FILTER_KEYS.some((key) => filters[key] !== undefined);
}

/**
 * The query string of a view ("?type=withdraw&after=…", or "" for the plain first page): the filters and,
 * for a page link, its cursor. Extra parameters (the admin's own filters) come after.
 */
export function historySearch(
  filters: HistoryFilters,
  page: { after?: string | null; before?: string | null } = {},
  extra: Record<string, string | undefined> = {},
): string {
  const params = new URLSearchParams();
  for (const key of HISTORY_FILTER_KEYS) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  for (const [key, value] of Object.entries(extra)) if (value) params.set(key, value);
  if (page.after) params.set("after", page.after);
  else if (page.before) params.set("before", page.before);
  const query = params.toString();
  return query ? `?${query}` : "";
}
