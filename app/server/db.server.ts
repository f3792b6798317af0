import type { SQLWrapper } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import * as schema from "../../db/schema";

function connect(d1: D1Database) {
  return drizzle(d1, { schema });
}

export type Db = ReturnType<typeof connect>;

/** drizzle derives its relational config from the schema on each call: once per binding is enough. */
const connections = new WeakMap<D1Database, Db>();

export function createDb(d1: D1Database): Db {
  let db = connections.get(d1);
  if (!db) {
    db = connect(d1);
    connections.set(d1, db);
  }
  return db;
}
export { schema };

const dialect = new SQLiteAsyncDialect();

/** A statement (a query builder or an `sql` template) as a D1 prepared statement, every value bound. */
function prepare(db: Db, query: SQLWrapper): D1PreparedStatement {
  const { sql, params } = dialect.sqlToQuery(query.getSQL());
  return db.$client.prepare(sql).bind(...params);
}

/**
 * Several reads in one round trip to D1 (a batch), by name. A page's loader answers from one batch
 * instead of one request per query: on D1 each query is a round trip to the database.
 */
export async function readTogether<T extends Record<string, BatchItem<"sqlite">>>(
  db: Db,
  queries: T,
): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const names = Object.keys(queries);
  const results: unknown[] = await db.batch(Object.values(queries) as [BatchItem<"sqlite">]);
  return Object.fromEntries(names.map((name, i) => [name, results[i]])) as { [K in keyof T]: Awaited<T[K]> };
}

/** A write of `writeTogether`: a query builder or an `sql` statement, and the shape of its RETURNING rows. */
export type Write<Row = Record<string, unknown>> = SQLWrapper & { readonly __row?: Row };

/** Marks an `sql` statement with the shape of the rows its RETURNING clause gives back (aliases in camelCase). */
export const returning = <Row>(query: SQLWrapper): Write<Row> => query as Write<Row>;

/**
 * Several writes in one atomic batch, by name: all of them or none. This is how every money rule and
 * every change that touches several tables is written: conditional statements (INSERT … SELECT … WHERE,
 * ON CONFLICT, RETURNING) whose conditions are checked by the database at the moment of writing, never a
 * read in JavaScript followed by a write. Each name gets the rows its statement returned.
 */
export async function writeTogether<T extends Record<string, Write<unknown> | false | undefined>>(
  db: Db,
  writes: T,
): Promise<{ [K in keyof T]: T[K] extends Write<infer Row> ? Row[] : never }> {
  const named = Object.entries(writes).filter((entry): entry is [string, Write<unknown>] => Boolean(entry[1]));
  const results = await db.$client.batch(named.map(([, query]) => prepare(db, query)));
  return Object.fromEntries(named.map(([name], i) => [name, results[i]?.results ?? []])) as {
    [K in keyof T]: T[K] extends Write<infer Row> ? Row[] : never;
  };
}
