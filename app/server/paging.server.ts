/**
 * Keyset paging, the one way every long list is paged: rows are ordered by (created_at, id) and a page
 * starts after the last row of the one before, so a page costs the same however deep it is. The cursor
 * in the URL is "<createdAt>.<id>".
 */
import { and, asc, desc, eq, gt, lt, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

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

/** One page of rows read with a limit of `pageSize + 1`, and the cursor of the next page if there is one. */
export function pageOf<T extends Keyset<number | string>>(rows: T[], pageSize: number) {
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return { rows: page, next: rows.length > pageSize && last ? `${last.createdAt}.${last.id}` : null };
}

const NUMERIC_ID = /^\d+$/;
const UUID = /^[0-9a-f-]{36}$/;

/** A cursor of a list of numeric ids (transactions). */
export function parseCursor(value: string | null): Keyset<number> | undefined {
  const [createdAt, id] = (value ?? "").split(".");
  if (!createdAt || !id || !NUMERIC_ID.test(createdAt) || !NUMERIC_ID.test(id)) return undefined;
  return { createdAt: Number(createdAt), id: Number(id) };
}

/** A cursor of a list of users (uuid ids). */
export function parseUserCursor(value: string | null): Keyset<string> | undefined {
  const [createdAt, id] = (value ?? "").split(".");
  if (!createdAt || !id || !NUMERIC_ID.test(createdAt) || !UUID.test(id)) return undefined;
  return { createdAt: Number(createdAt), id };
}
