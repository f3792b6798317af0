import { CLIENT_FLAG_LABELS, CLIENT_FLAGS, type ClientFlag } from "./client-flags";
import { VERIFICATION_LEVEL_LABELS, type VerificationLevel } from "./verification";

/**
 * The desk's client list as the URL states it: search, status, verification level and flag filters, sort column and direction, and a keyset
 * cursor (`after` for Next, `before` for Previous). One parser for the loader; a bad value is named in a message
 * and dropped, so the list still shows.
 */
export const CLIENT_SORTS = ["joined", "name", "activity", "balance"] as const;
export type ClientSort = (typeof CLIENT_SORTS)[number];
export const CLIENT_STATUSES = ["active", "suspended", "unconfirmed"] as const;
export type ClientStatusFilter = (typeof CLIENT_STATUSES)[number];
export const SORT_DIRECTIONS = ["asc", "desc"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
export const SORT_DIRECTION_LABELS: Record<SortDirection, string> = { asc: "Ascending", desc: "Descending" };
export const CLIENT_STATUS_LABELS: Record<ClientStatusFilter, string> = {
  active: "Active",
  suspended: "Suspended",
  unconfirmed: "Unconfirmed",
};
/** The identity verification levels (app/lib/verification.ts) the list filters by. */
export const CLIENT_LEVELS = ["unverified", "verified", "restricted"] as const satisfies readonly VerificationLevel[];

export const CLIENT_SORT_LABELS: Record<ClientSort, string> = {
  joined: "Joined",
  name: "Name",
  activity: "Last activity",
  balance: "Balance",
};

/** The list's selects in the form's order: the filters (each offers "All", the filter off), then the order. */
export const CLIENT_LIST_SELECTS = [
  { name: "status", label: "Status", options: CLIENT_STATUSES, labels: CLIENT_STATUS_LABELS, withAll: true },
  { name: "level", label: "Level", options: CLIENT_LEVELS, labels: VERIFICATION_LEVEL_LABELS, withAll: true },
  { name: "flag", label: "Flag", options: CLIENT_FLAGS, labels: CLIENT_FLAG_LABELS, withAll: true },
  { name: "sort", label: "Sort by", options: CLIENT_SORTS, labels: CLIENT_SORT_LABELS, withAll: false },
  { name: "dir", label: "Order", options: SORT_DIRECTIONS, labels: SORT_DIRECTION_LABELS, withAll: false },
] as const;

/** A page boundary: the sort column's value and the id of the row at the boundary. */
export interface ClientCursor {
  value: string | number;
  id: string;
}

export interface ClientListQuery {
  search: string;
  status: ClientStatusFilter | null;
  level: VerificationLevel | null;
  flag: ClientFlag | null;
  sort: ClientSort;
  dir: SortDirection;
  after: ClientCursor | null;
  before: ClientCursor | null;
}

export const CLIENT_LIST_MESSAGES = {
  sort: "Unknown sort: showing the newest clients first.",
  dir: "Unknown sort direction: use asc or desc.",
  status: "Unknown status filter: use active, suspended or unconfirmed.",
  level: "Unknown level filter: use unverified, verified or restricted.",
  flag: `Unknown flag filter: use ${CLIENT_FLAGS.join(", ")}.`,
  cursor: "That page link is no longer valid: showing the first page.",
};

const UUID = /^[0-9a-f-]{36}$/;

export function encodeClientCursor(cursor: ClientCursor): string {
  return `${typeof cursor.value === "number" ? "n" : "s"}${cursor.value}~${cursor.id}`;
}

function decodeClientCursor(text: string | null, sort: ClientSort): ClientCursor | null | "bad" {
  if (!text) return null;
  const cut = text.lastIndexOf("~");
  const id = text.slice(cut + 1);
  const kind = text[0];
  const raw = text.slice(1, cut);
  if (cut < 1 || !UUID.test(id)) return "bad";
  if (sort === "name") return kind === "s" ? { value: raw, id } : "bad";
  if (kind !== "n" || !/^-?\d{1,16}$/.test(raw)) return "bad";
  return { value: Number(raw), id };
}

export function parseClientList(params: URLSearchParams): { query: ClientListQuery; errors: string[] } {
  const errors: string[] = [];
  const pick = <T extends string>(name: string, allowed: readonly T[], message: string): T | null => {
    const value = params.get(name);
    if (!value) return null;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    errors.push(message);
    return null;
  };
  const sort = pick("sort", CLIENT_SORTS, CLIENT_LIST_MESSAGES.sort) ?? "joined";
  const dir = pick("dir", SORT_DIRECTIONS, CLIENT_LIST_MESSAGES.dir) ?? defaultDirection(sort);
  const status = pick("status", CLIENT_STATUSES, CLIENT_LIST_MESSAGES.status);
  const level = pick("level", CLIENT_LEVELS, CLIENT_LIST_MESSAGES.level);
  const flag = pick("flag", CLIENT_FLAGS, CLIENT_LIST_MESSAGES.flag);
  const after = decodeClientCursor(params.get("after"), sort);
  const before = after ? null : decodeClientCursor(params.get("before"), sort);
  if (after === "bad" || before === "bad") errors.push(CLIENT_LIST_MESSAGES.cursor);
  return {
    query: {
      search: params.get("q")?.trim().slice(0, 100) ?? "",
      status,
      level,
      flag,
      sort,
      dir,
      after: after === "bad" ? null : after,
      before: before === "bad" ? null : before,
    },
    errors,
  };
}

/** Names read A to Z; dates and balances largest first. */
export const defaultDirection = (sort: ClientSort): SortDirection => (sort === "name" ? "asc" : "desc");

/** The URL of the list with these changes (a cursor never survives a change of sort, filter or search). */
export function clientListHref(query: ClientListQuery, change: Partial<Record<string, string | null>>): string {
  const params = new URLSearchParams();
  if (query.search) params.set("q", query.search);
  if (query.status) params.set("status", query.status);
  if (query.level) params.set("level", query.level);
  if (query.flag) params.set("flag", query.flag);
  if (query.sort !== "joined") params.set("sort", query.sort);
  if (query.dir !== defaultDirection(query.sort)) params.set("dir", query.dir);
  for (const [key, value] of Object.entries(change)) {
    if (value === null || value === undefined) params.delete(key);
    else params.set(key, value);
  }
  const text = params.toString();
  return text ? `?${text}` : "?";
}
