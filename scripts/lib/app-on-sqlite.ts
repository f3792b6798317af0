/**
 * Runs the app's own query code (app/server) in Node against a copy of a local D1 file, for measurements:
 * a resolve hook for the app's import style (`~/…`, no extensions) and a D1 binding over `node:sqlite` that
 * times every statement it executes. Not a D1 emulator: it has what drizzle's D1 driver and `writeTogether`
 * call (prepare, bind, all, raw, run, first, batch), and a batch is one SQLite transaction, as on D1.
 */
import { existsSync } from "node:fs";
import { registerHooks } from "node:module";
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { fileURLToPath, pathToFileURL } from "node:url";

const APP = new URL("../../app/", import.meta.url);

registerHooks({
  resolve(specifier, context, next) {
    const spec = specifier.startsWith("~/") ? new URL(specifier.slice(2), APP).href : specifier;
    const ours = !context.parentURL?.includes("/node_modules/");
    if (ours && (spec.startsWith(".") || spec.startsWith("file:"))) {
      const path = fileURLToPath(new URL(spec, context.parentURL));
      if (!existsSync(path) || !/\.[cm]?[jt]sx?$/.test(path)) {
        for (const ext of [".ts", ".tsx", "/index.ts"]) {
          if (existsSync(path + ext)) return next(pathToFileURL(path + ext).href, context);
        }
      }
      return next(pathToFileURL(path).href, context);
    }
    return next(spec, context);
  },
});

export interface Timed {
  sql: string;
  ms: number;
  rows: number;
}

/** Every statement executed since the last `take()`, with its time. */
export class StatementLog {
  entries: Timed[] = [];
  take(): Timed[] {
    const taken = this.entries;
    this.entries = [];
    return taken;
  }
}

const value = (v: unknown): SQLInputValue =>
  v === undefined ? null : typeof v === "boolean" ? Number(v) : (v as SQLInputValue);

class Statement {
  private readonly shim: SqliteD1;
  readonly sql: string;
  private readonly params: unknown[];
  constructor(shim: SqliteD1, sql: string, params: unknown[] = []) {
    this.shim = shim;
    this.sql = sql;
    this.params = params;
  }
  bind(...params: unknown[]) {
    return new Statement(this.shim, this.sql, params);
  }
  private exec(arrays: boolean) {
    const statement = this.shim.db.prepare(this.sql);
    statement.setReturnArrays(arrays);
    const started = performance.now();
    const reader = statement.columns().length > 0;
    const rows = reader ? (statement.all(...this.params.map(value)) as unknown[]) : [];
    const result = reader ? null : statement.run(...this.params.map(value));
    this.shim.log.entries.push({ sql: this.sql, ms: performance.now() - started, rows: rows.length });
    return { rows, changes: Number(result?.changes ?? 0), lastRowId: Number(result?.lastInsertRowid ?? 0) };
  }
  async all() {
    const { rows, changes, lastRowId } = this.exec(false);
    return { results: rows, success: true, meta: { changes, last_row_id: lastRowId } };
  }
  async raw() {
    return this.exec(true).rows;
  }
  async run() {
    return this.all();
  }
  async first(column?: string) {
    const row = this.exec(false).rows[0] as Record<string, unknown> | undefined;
    return column ? (row?.[column] ?? null) : (row ?? null);
  }
}

export class SqliteD1 {
  readonly log = new StatementLog();
  readonly db: DatabaseSync;
  constructor(db: DatabaseSync) {
    this.db = db;
  }
  prepare(sql: string) {
    return new Statement(this, sql);
  }
  async batch(statements: Statement[]) {
    this.db.exec("BEGIN");
    try {
      const results = [];
      for (const statement of statements) results.push(await statement.all());
      this.db.exec("COMMIT");
      return results;
    } catch (error) {
      this.db.exec("ROLLBACK");
      throw error;
    }
  }
}
