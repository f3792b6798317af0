/**
 * Keyset paging, the one way every long list is paged: rows are ordered by (created_at, id) and a page
 * starts after the last row of the one before, so a page costs the same however deep it is. The cursor
 * in the URL is "<createdAt>.<id>".
 */
import { and, asc, desc, eq, gt, lt, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteSelect } from "drizzle-orm/sqlite-core";

export interface Keyset<Id extends number | string = number> {
  createdAt: number;
  id: Id;
}

interface KeysetColumns {
  createdAt: SQLiteColumn;
  id: SQLiteColumn;
}

/** "newest" lists go back in time page after page; "oldest" ones (exports) go forward. */
export type KeysetOrder = "newest" | "oldest";

/** The condition "after this cursor" in the list's order (undefined on the first page). */
export function afterCursor(
  columns: KeysetColumns,
  cursor: Keyset<number | string> | undefined,
  order: KeysetOrder,
): SQL | undefined {
  if (!cursor) return undefined;
  const beyond = order === "newest" ? lt : gt;
  return or(
    beyond(columns.createdAt, cursor.createdAt),
    and(eq(columns.createdAt, cursor.createdAt), beyond(columns.id, cursor.id)),
  );
}

export function keysetOrderBy(columns: KeysetColumns, order: KeysetOrder) {
  const direction = order === "newest" ? desc : asc;
  return [direction(columns.createdAt), direction(columns.id)] as const;
}

/**
 * Where a page starts: the first page, after a row (Next, further in the list's order) or before one (Previous,
 * read backwards from it, nearest first). `after` wins when a URL carries both.
 */
export interface PagePosition<Cursor> {
  after?: Cursor | null;
  before?: Cursor | null;
}

/** A Previous page is read backwards: the cursor condition and the order both flip, and the page turns round. */
export const readsBackwards = (position: PagePosition<unknown>): boolean =>
  position.after == null && position.before != null;

export interface KeysetPage<Row> {
  /** In the list's order. */
  rows: Row[];
  /** The cursor of the page after this one, or null on the last. */
  next: string | null;
  /** The cursor of the page before this one, or null on the first. */
  previous: string | null;
}

/**
 * The one page builder of every keyset list, both ways: `rows` were read with a limit of `pageSize + 1` (to know
 * whether there is more), backwards when `readsBackwards(position)`. `cursorOf` writes a row's cursor for the URL.
 */
export function keysetPage<Row>(
  rows: Row[],
  position: PagePosition<unknown>,
  pageSize: number,
  cursorOf: (row: Row) => string,
): KeysetPage<Row> {
  const backwards = readsBackwards(position);
  const more = rows.length > pageSize;
  const page = rows.slice(0, pageSize);
  if (backwards) page.reverse();
  const [first, last] = [page.at(0), page.at(-1)];
  return {
    rows: page,
    // Going backwards, the rows after this page are the ones we came from; going forwards, those before.
    next: last !== undefined && (backwards || more) ? cursorOf(last) : null,
    previous: first !== undefined && (backwards ? more : position.after != null) ? cursorOf(first) : null,
  };
}

/** The cursor of a list ordered by (created_at, id): "<createdAt>.<id>". */
export const createdAtCursor = (row: Keyset<number | string>) => `${row.createdAt}.${row.id}`;

const NUMERIC_ID = /^\d+$/;

/** A cursor of a list of numeric ids (transactions). */
export function parseCursor(value: string | null): Keyset<number> | undefined {
  const [createdAt, id] = (value ?? "").split(".");
  if (!createdAt || !id || !NUMERIC_ID.test(createdAt) || !NUMERIC_ID.test(id)) return undefined;
  return { createdAt: Number(createdAt), id: Number(id) };
}

/** Where the page after a row starts: its keyset (the CSV streams' `keyOf`). */
export function keysetOf<Id extends number | string>(row: Keyset<Id>): Keyset<Id> {
  return { createdAt: row.createdAt, id: row.id };
}

/** One keyset page of a list: the rows that pass `filter` after `cursor` in `order`, at most `limit` of them. */
export function readKeyset<Query extends SQLiteSelect>(
  query: Query,
  columns: KeysetColumns,
  filter: SQL | undefined,
  cursor: Keyset<number | string> | undefined,
  order: KeysetOrder,
  limit: number,
) {
  return query
    .where(and(filter, afterCursor(columns, cursor, order)))
    .orderBy(...keysetOrderBy(columns, order))
    .limit(limit);
}

/** How a page of a newest-first list is read: onwards after `after`, or backwards from `before` (Previous). */
export function newestFirstReading(position: PagePosition<Keyset<number | string>>) {
  const backwards = readsBackwards(position);
  const order: KeysetOrder = backwards ? "oldest" : "newest";
  return { order, cursor: (backwards ? position.before : position.after) ?? undefined };
}
