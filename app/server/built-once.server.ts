/**
 * Reads whose SQL drizzle builds once per isolate instead of on every request (docs/decisions/0078). drizzle turns a
 * query builder into SQL text on each call, testing every piece of it against each of its types: about a tenth of
 * the desk's own CPU (`npm run bench:profile -- /admin`). A read built once keeps that text and what drizzle needs
 * to map its rows, and each request only binds its values.
 *
 * The rule that makes this safe: `build` takes no value from a request. Everything that changes from one request
 * to the next (an id, the time, a limit chosen by the page) is a `sql.placeholder("name")`, given on each call;
 * a missing value fails the call. Define each read at a module's top level, so that its `build` cannot close over
 * a request. The answer is what the builder itself answers, in a batch (`readTogether`) or awaited alone.
 */
import { fillPlaceholders, type Query } from "drizzle-orm";
import type { Db } from "./db.server";

/** drizzle's prepared D1 query, by the fields of it that a read built once keeps and gives back. */
interface DrizzlePrepared {
  getQuery(): Query;
  fields: unknown;
  executeMethod: string;
  isResponseInArrayMode(): boolean;
  customResultMapper: unknown;
  joinsNotNullableMap: unknown;
  all(): Promise<unknown>;
  get(): Promise<unknown>;
  execute(): Promise<unknown>;
}
/** drizzle's D1 session: the one method that makes a prepared query of built SQL. */
interface DrizzleSession {
  prepareQuery(query: Query, fields: unknown, method: string, arrayMode: boolean, mapper: unknown): DrizzlePrepared;
}

/** What drizzle made of a builder, without its statement (which belongs to the request that built it). */
interface Shape {
  query: Query;
  fields: unknown;
  executeMethod: string;
  arrayMode: boolean;
  mapper: unknown;
  joins: unknown;
}

/**
 * A read of `build`'s shape for each call, its placeholders filled with `values`. The result stands for the
 * builder, finished: await it, `.get()` or `.all()` it, give it to `readTogether`, or read its `toSQL()`; never
 * build on it further.
 */
export function builtOnce<Read extends object>(
  build: (db: Db) => Read,
): (db: Db, values?: Record<string, string | number | null>) => Read {
  let shape: Shape | undefined;
  return (db, values = {}) => {
    if (!shape) {
      // `_prepare` is drizzle's own (marked internal): the prepared query every builder makes to run.
      const first = (build(db) as unknown as { _prepare(): DrizzlePrepared })._prepare();
      shape = {
        query: first.getQuery(),
        fields: first.fields,
        executeMethod: first.executeMethod,
        arrayMode: first.isResponseInArrayMode(),
        mapper: first.customResultMapper,
        joins: first.joinsNotNullableMap,
      };
    }
    const session = (db as unknown as { session: DrizzleSession }).session;
    const prepared = session.prepareQuery(
      { sql: shape.query.sql, params: fillPlaceholders(shape.query.params, values) },
      shape.fields,
      shape.executeMethod,
      shape.arrayMode,
      shape.mapper,
    );
    // Set by the builder after preparing: which joined tables' columns are all null when the join found nothing.
    prepared.joinsNotNullableMap = shape.joins;
    const read = {
      _prepare: () => prepared,
      all: () => prepared.all(),
      get: () => prepared.get(),
      // The SQL and values as sent, as a builder's `toSQL()` gives them (the query-plan tests read it).
      toSQL: () => prepared.getQuery(),
      // biome-ignore lint/suspicious/noThenProperty: awaited alone, as the builder it stands for is.
      then: (resolve: (value: unknown) => unknown, reject: (reason: unknown) => unknown) =>
        prepared.execute().then(resolve, reject),
    };
    return read as unknown as Read;
  };
}
