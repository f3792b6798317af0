/**
 * The filters of /admin/audit and its CSV, as the URL carries them (`?admin=<id>&action=ledger.entry&client=jane
 * &from=2026-01-01&to=2026-01-31`): the admin, the action, the client (an id, or part of a name or e-mail), and a
 * range of UTC days. As on the transaction histories, a bad date is named and the view shows unfiltered; the CSV
 * refuses it. Browser-safe.
 */
import { type DayRange, type ParsedFilters, readDayRange, submittedValues } from "./history-filters";

export interface AuditFilters extends DayRange {
  /** The acting admin's id. */
  admin?: string;
  action?: string;
  /**
   * A client's id, or part of their name or e-mail: rows about the accounts it names (their account, or a detail
   * naming them).
   */
  client?: string;
}

export const AUDIT_FILTER_KEYS = ["admin", "action", "client", "from", "to"] as const;

export type ParsedAuditFilters = ParsedFilters<AuditFilters, (typeof AUDIT_FILTER_KEYS)[number]>;

export function parseAuditFilters(params: URLSearchParams): ParsedAuditFilters {
  const submitted = submittedValues(params, AUDIT_FILTER_KEYS, 100);
  const { admin, action, client, from, to } = submitted;
  const days = readDayRange(from, to);
  const filters: AuditFilters = { admin, action, client, ...days.range };
  return { filters: days.errors.length > 0 ? {} : filters, submitted, errors: days.errors };
}

/** The query string of a view ("?action=…&from=…", or ""), for its links: older entries, the CSV. */
export function auditSearch(filters: AuditFilters, extra: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of [...AUDIT_FILTER_KEYS.map((k) => [k, filters[k]] as const), ...Object.entries(extra)]) {
    if (value) params.set(key, value);
  }
  const query = params.toString();
  return query ? `?${query}` : "";
}
