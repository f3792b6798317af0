/**
 * The bench's entry for `npm run bench:d1`, copied beside the Worker's bundle (`app.js`) and run in its place: a
 * request carrying `x-bench-reads: memory` gets a D1 binding that answers each read it has seen before (same SQL,
 * same values, same method) from memory, so that what is left of the request's CPU is the Worker's own. The
 * answer is kept as JSON text and parsed on every use, as the binding parses D1's answer off the wire: that
 * parsing stays in the Worker's column. Writes, and batches holding one, go to D1. Plain JavaScript, since
 * workerd runs it as it is; never part of the app's own bundle.
 */
import worker from "./app.js";

export * from "./app.js";

const answers = new Map();
const counts = { fromMemory: 0, fromD1: 0, writes: 0 };
/** Reads sent to D1 while answering from memory, by their SQL: those whose values differ on every request. */
const missedBySql = new Map();
const missed = (sql, values) => missedBySql.set(sql, { times: (missedBySql.get(sql)?.times ?? 0) + 1, values });

/** A statement that only reads: a SELECT (or WITH … SELECT) naming no write. */
const isRead = (sql) => /^\s*(select|with)\b/i.test(sql) && !/\b(insert|update|delete|replace)\b/i.test(sql);

class StatementFromMemory {
  constructor(real, sql, values) {
    this.real = real;
    this.sql = sql;
    this.values = values;
  }
  bind(...values) {
    return new StatementFromMemory(this.real, this.sql, values);
  }
  /** The binding's own statement, values bound. */
  actual() {
    return this.values.length > 0 ? this.real.bind(...this.values) : this.real;
  }
  /** A time in milliseconds (now, or a cut-off from it) counts as one value: its answer is the same within a run. */
  key(method, argument) {
    const values = this.values.map((value) =>
      typeof value === "number" && value > 1.5e12 && value < 2.5e12 ? "time" : value,
    );
    return `${method}\u0000${JSON.stringify(argument ?? null)}\u0000${this.sql}\u0000${JSON.stringify(values)}`;
  }
  async answer(method, argument, ask) {
    if (!isRead(this.sql)) {
      counts.writes++;
      return ask(this.actual());
    }
    const key = this.key(method, argument);
    const kept = answers.get(key);
    if (kept !== undefined) {
      counts.fromMemory++;
      return JSON.parse(kept);
    }
    counts.fromD1++;
    missed(this.sql, this.values);
    const result = await ask(this.actual());
    answers.set(key, JSON.stringify(result));
    return result;
  }
  first(column) {
    return this.answer("first", column, (s) => (column === undefined ? s.first() : s.first(column)));
  }
  all() {
    return this.answer("all", null, (s) => s.all());
  }
  raw(options) {
    return this.answer("raw", options, (s) => (options === undefined ? s.raw() : s.raw(options)));
  }
  run() {
    return this.answer("run", null, (s) => s.run());
  }
}

class DatabaseFromMemory {
  constructor(real) {
    this.real = real;
  }
  withSession(constraint) {
    return new DatabaseFromMemory(this.real.withSession(constraint));
  }
  getBookmark() {
    return this.real.getBookmark();
  }
  prepare(sql) {
    return new StatementFromMemory(this.real.prepare(sql), sql, []);
  }
  /** Each read of the batch from memory when seen before; the others in one batch to D1, as the app sent them. */
  async batch(statements) {
    if (!statements.every((s) => isRead(s.sql))) {
      counts.writes += statements.length;
      return this.real.batch(statements.map((s) => s.actual()));
    }
    const keys = statements.map((s) => s.key("batch", null));
    const results = keys.map((key) => answers.get(key));
    const unseen = statements.filter((_, i) => results[i] === undefined);
    counts.fromMemory += statements.length - unseen.length;
    counts.fromD1 += unseen.length;
    for (const s of unseen) missed(s.sql, s.values);
    const fromD1 = unseen.length > 0 ? await this.real.batch(unseen.map((s) => s.actual())) : [];
    return results.map((kept, i) => {
      if (kept !== undefined) return JSON.parse(kept);
      const result = fromD1.shift();
      answers.set(keys[i], JSON.stringify(result));
      return result;
    });
  }
  exec(sql) {
    return this.real.exec(sql);
  }
}

/** One bindings object per isolate, as workerd gives: what the app keeps per bindings object stays kept. */
const withMemory = new WeakMap();
const bindingsFromMemory = (env) => {
  if (!withMemory.has(env)) withMemory.set(env, { ...env, DB: new DatabaseFromMemory(env.DB) });
  return withMemory.get(env);
};

export default {
  ...worker,
  fetch(request, env, ctx) {
    const path = new URL(request.url).pathname;
    if (path === "/__bench/d1-counts") return Response.json(counts);
    if (path === "/__bench/d1-missed") return Response.json([...missedBySql].sort((a, b) => b[1].times - a[1].times));
    if (request.headers.get("x-bench-reads") !== "memory") return worker.fetch(request, env, ctx);
    return worker.fetch(request, bindingsFromMemory(env), ctx);
  },
};
