/**
 * Helpers for the Node scripts (dev server, seed, admin creation, e2e server) that talk to D1 through
 * the wrangler CLI, so local and remote databases are handled by the same code path.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { upgradeMailSettings } from "./mail-simulator.ts";

export const ROOT = new URL("../..", import.meta.url).pathname;
export const BIN = join(ROOT, "node_modules", ".bin");

export interface D1Target {
  remote?: boolean;
  /** A separate local state folder (the e2e server uses its own throwaway database). */
  persistTo?: string;
}

/** The project's Node 24 (a dev dependency) first on PATH, so the tools it starts never fall back to the system Node. */
export const quietEnv = {
  ...process.env,
  PATH: `${BIN}:${process.env.PATH ?? ""}`,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
};

export function run(command: string, args: string[], options: { capture?: boolean } = {}): string {
  const result = spawnSync(command, args, {
    cwd: ROOT,
    env: quietEnv,
    stdio: options.capture ? ["ignore", "pipe", "pipe"] : "inherit",
    encoding: "utf8",
  });
  if (result.status !== 0) {
    const detail = options.capture ? `\n${result.stdout ?? ""}\n${result.stderr ?? ""}` : "";
    throw new Error(`${command} ${args.join(" ")} exited with ${result.status}${detail}`);
  }
  return result.stdout ?? "";
}

function targetArgs(target: D1Target): string[] {
  if (target.remote) return ["--remote"];
  return target.persistTo ? ["--local", "--persist-to", target.persistTo] : ["--local"];
}

/**
 * Local settings: .dev.vars is made from .dev.vars.example on first run. A .dev.vars from an older checkout gets
 * the settings added since (with their example values), so a new required setting does not stop `npm run dev`, and
 * its mail settings as the mail simulator needs them (`upgradeMailSettings`); other values are never changed.
 */
export function ensureDevVars(): void {
  const devVars = join(ROOT, ".dev.vars");
  const example = join(ROOT, ".dev.vars.example");
  if (!existsSync(devVars)) {
    copyFileSync(example, devVars);
    return;
  }
  const current = readFileSync(devVars, "utf8");
  const upgraded = upgradeMailSettings(current);
  const have = new Set(settingLines(upgraded).map(([name]) => name));
  const missing = settingLines(readFileSync(example, "utf8")).filter(([name]) => !have.has(name));
  const added = missing.map(([name, value]) => `${name}=${value}\n`).join("");
  const next = added ? `${upgraded.replace(/\n?$/, "\n")}${added}` : upgraded;
  if (next !== current) writeFileSync(devVars, next);
}

/** One setting of the local .dev.vars (made by `ensureDevVars`), as the local Worker reads it. */
export function devVar(name: string): string | undefined {
  const devVars = join(ROOT, ".dev.vars");
  if (!existsSync(devVars)) return undefined;
  return settingLines(readFileSync(devVars, "utf8")).find(([key]) => key === name)?.[1];
}

/** The NAME=value lines of a .dev.vars file. */
export function settingLines(text: string): Array<[string, string]> {
  return text
    .split("\n")
    .map((line) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim()))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => [match[1] ?? "", match[2] ?? ""]);
}

const MIGRATIONS_DIR = join(ROOT, "db", "migrations");

/**
 * Applies the migrations the database has not had. Remote: `wrangler d1 migrations apply`. Local: the same
 * bookkeeping (wrangler's `d1_migrations` table, so wrangler later sees them applied), but every pending file in one
 * `wrangler d1 execute`: wrangler's apply starts a local database per file, about 0.4 s each, which made a new
 * local database wait 10 s for its 24 files on every `npm run dev` and test server.
 */
export function applyMigrations(target: D1Target = {}): void {
  if (target.remote) {
    run(join(BIN, "wrangler"), ["d1", "migrations", "apply", "DB", ...targetArgs(target)], { capture: true });
    return;
  }
  const applied = new Set(
    query<{ name: string }>(
      `CREATE TABLE IF NOT EXISTS d1_migrations(
         id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
       ); SELECT name FROM d1_migrations`,
      target,
    ).map((row) => row.name),
  );
  const pending = readdirSync(MIGRATIONS_DIR)
    .filter((name) => name.endsWith(".sql") && !applied.has(name))
    .sort();
  if (pending.length === 0) return;
  executeFile(
    pending
      .map((name) => {
        const sql = readFileSync(join(MIGRATIONS_DIR, name), "utf8").trimEnd();
        return `${sql}${sql.endsWith(";") ? "" : ";"}\nINSERT INTO d1_migrations (name) VALUES (${sqlValue(name)});\n`;
      })
      .join("\n"),
    target,
  );
}

/** Runs one read query (after any statements it needs first) and returns its rows. */
export function query<T>(sql: string, target: D1Target = {}): T[] {
  const out = run(join(BIN, "wrangler"), ["d1", "execute", "DB", ...targetArgs(target), "--json", "--command", sql], {
    capture: true,
  });
  const parsed = JSON.parse(out) as Array<{ results: T[] }>;
  // Several statements answer one result each: the rows are the last one's.
  return parsed.at(-1)?.results ?? [];
}

/** Runs a list of statements as one file (wrangler executes a file as a single batch). */
export function executeStatements(statements: string[], target: D1Target = {}): void {
  executeFile(`${statements.join(";\n")};\n`, target);
}

/**
 * Runs statements that need not be one batch in files of at most `maxChars` each: local D1 refuses a file whose
 * text passes its limit on a query's length ("statement too long: SQLITE_TOOBIG", 100 KB).
 */
export function executeInChunks(statements: string[], target: D1Target = {}, maxChars = 90_000): void {
  let chunk: string[] = [];
  let size = 0;
  for (const statement of statements) {
    if (chunk.length > 0 && size + statement.length > maxChars) {
      executeStatements(chunk, target);
      chunk = [];
      size = 0;
    }
    chunk.push(statement);
    size += statement.length + 2;
  }
  if (chunk.length > 0) executeStatements(chunk, target);
}

function executeFile(sql: string, target: D1Target): void {
  const dir = mkdtempSync(join(tmpdir(), "d1-"));
  const file = join(dir, "statements.sql");
  try {
    writeFileSync(file, sql);
    run(join(BIN, "wrangler"), ["d1", "execute", "DB", ...targetArgs(target), "--file", file], { capture: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Writes one object into a local R2 bucket (the demo's sample documents), where `wrangler dev` with the same
 * persistence folder reads it. Never remote: demo files have no place in a production bucket.
 */
export function putLocalObject(
  bucket: string,
  key: string,
  bytes: Uint8Array,
  contentType: string,
  target: D1Target = {},
): void {
  if (target.remote) throw new Error("Sample documents are for local buckets only");
  const dir = mkdtempSync(join(tmpdir(), "r2-"));
  const file = join(dir, "object");
  try {
    writeFileSync(file, bytes);
    run(
      join(BIN, "wrangler"),
      ["r2", "object", "put", `${bucket}/${key}`, "--file", file, "--content-type", contentType, ...targetArgs(target)],
      { capture: true },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A SQL literal. Scripts build statements from trusted or validated input only, and quote everything. */
export function sqlValue(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * An `sql` statement of the app's modules as plain text for the wrangler CLI, its values inlined with
 * `sqlValue` (the CLI takes no bound parameters).
 */
export function inlineSql(statement: SQL): string {
  const { sql, params } = new SQLiteSyncDialect().sqlToQuery(statement);
  let next = 0;
  return sql.replace(/\?/g, () => sqlValue(params[next++] as string | number | null));
}
