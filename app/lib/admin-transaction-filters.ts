/**
 * The filters of /admin/transactions: the history filters every transaction table shares, plus the client (a
 * part of a name or e-mail) and an amount range in dollars (min, max, read by the one money parser). Like the
 * history filters, a bad value is named and the view shows unfiltered. Browser-safe.
 */
import { type HistoryFilters, type ParsedFilters, parseHistoryFilters } from "./history-filters";
import { parseAmountToCents } from "./ledger";

export interface AdminTransactionFilters extends HistoryFilters {
  client?: string;
  minCents?: number;
  maxCents?: number;
}

export const ADMIN_FILTER_KEYS = ["client", "min", "max"] as const;

export type ParsedAdminTransactionFilters = ParsedFilters<AdminTransactionFilters, string>;

export function parseAdminTransactionFilters(params: URLSearchParams): ParsedAdminTransactionFilters {
  const history = parseHistoryFilters(params);
  const errors = [...history.errors];
  const submitted: Partial<Record<string, string>> = { ...history.submitted };
  const own: AdminTransactionFilters = {};
  const client = params.get("client")?.trim().slice(0, 100);
  if (client) {
    submitted.client = client;
    own.client = client;
  }
  for (const [key, label] of [
    ["min", "minimum"],
    ["max", "maximum"],
  ] as const) {
    const value = params.get(key)?.trim().slice(0, 40);
    if (!value) continue;
    submitted[key] = value;
    const cents = parseAmountToCents(value);
    if (cents === null) errors.push(`"${value}" is not an amount for the ${label}: use dollars, e.g. 250 or 99.50.`);
    else own[key === "min" ? "minCents" : "maxCents"] = cents;
  }
  if (own.minCents !== undefined && own.maxCents !== undefined && own.minCents > own.maxCents) {
    errors.push("The minimum amount is above the maximum.");
  }
  return { filters: errors.length > 0 ? {} : { ...history.filters, ...own }, submitted, errors };
}

/** The admin's own filters as query parameters, for links that keep the view (`historySearch`'s `extra`). */
export function adminFilterParams(filters: AdminTransactionFilters): Record<string, string | undefined> {
  const dollars = (cents?: number) => (cents === undefined ? undefined : (cents / 100).toFixed(2));
  return { client: filters.client, min: dollars(filters.minCents), max: dollars(filters.maxCents) };
}
