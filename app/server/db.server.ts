import { createTableRelationsHelpers, extractTablesRelationalConfig, type SQLWrapper } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { DrizzleD1Database, SQLiteD1Session } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import * as chainPayoutsSchema from "../../db/chain-payouts-schema";
import * as chainSchema from "../../db/chain-schema";
import * as positionsSchema from "../../db/positions-schema";
import * as mainSchema from "../../db/schema";

/**
 * What the app queries through: the request's D1 session (`env.DB.withSession(...)`), or the binding itself
 * where no request exists (test fixtures). Only `prepare` and `batch`: a session has neither `exec` nor `dump`,
 * so no code path may rely on them.
 */
export type D1Client = Pick<D1DatabaseSession, "prepare" | "batch">;

/** Every table: the main schema, the chain's tables (deposits, payouts) and the positions, each in its own file. */
const schema = { ...mainSchema, ...chainSchema, ...chainPayoutsSchema, ...positionsSchema };

export type Db = DrizzleD1Database<typeof schema> & { $client: D1Client };

const dialect = new SQLiteAsyncDialect();

/**
 * drizzle() derives the relational config from the schema on every call (about 0.2 ms); a session is opened
 * per request, so the config is derived once per isolate and each request only wraps its client.
 */
const tables = extractTablesRelationalConfig(schema, createTableRelationsHelpers);
const relationalSchema = { fullSchema: schema, schema: tables.tables, tableNamesMap: tables.tableNamesMap };

/** drizzle over a D1 client, as `drizzle(client, { schema })` builds it, without deriving the config again. */
export function createDb(client: D1Client): Db {
  // drizzle's D1 driver only calls prepare() and batch(), which a D1DatabaseSession has with the binding's
  // signatures: the session stands in for the D1Database drizzle's types ask for.
  const d1 = client as D1Database;
  const session = new SQLiteD1Session(d1, dialect, relationalSchema, {});
  const db = new DrizzleD1Database("async", dialect, session, relationalSchema) as Db;
  db.$client = client;
  return db;
}
export { schema };

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
): Promise<Written<T>> {
  const named = Object.entries(writes).filter((entry): entry is [string, Write<unknown>] => Boolean(entry[1]));
  const results = await db.$client.batch(named.map(([, query]) => prepare(db, query)));
  return Object.fromEntries(named.map(([name], i) => [name, results[i]?.results ?? []])) as Written<T>;
}

/** Each write's returned rows; a write that may be left out (undefined) may have none to give. */
type Written<T> = {
  [K in keyof T]: T[K] extends Write<infer Row>
    ? Row[]
    : NonNullable<T[K]> extends Write<infer Row>
      ? Row[] | undefined
      : never;
};
