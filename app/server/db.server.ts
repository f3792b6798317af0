import type { SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import * as schema from "../../db/schema";

export function createDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

export type Db = ReturnType<typeof createDb>;
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
