import type { SQL } from "drizzle-orm";
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

/**
 * A hand-written statement (INSERT … SELECT … WHERE, ON CONFLICT, RETURNING) as a D1 prepared statement,
 * with every value bound. Used where a money rule must be one statement that the query builder cannot
 * express; run several atomically with `db.$client.batch([...])`.
 */
export function statement(db: Db, query: SQL): D1PreparedStatement {
  const { sql, params } = dialect.sqlToQuery(query);
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
