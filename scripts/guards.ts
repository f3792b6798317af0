/**
 * Writes db/guards.sql (`npm run db:generate` runs it after drizzle-kit): the migrations applied in order to an
 * in-memory SQLite, and every trigger and CHECK constraint of the result formatted by db/guards.ts, the formatter
 * the migrations test uses on a real D1. `--check` only compares, and exits 1 when the file is not current.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { formatGuards, type SchemaRow } from "../db/guards.ts";
import { ROOT } from "./lib/local-d1.ts";

const migrations = join(ROOT, "db", "migrations");
const database = new DatabaseSync(":memory:");
for (const file of readdirSync(migrations)
  .filter((name) => name.endsWith(".sql"))
  .sort()) {
  database.exec(readFileSync(join(migrations, file), "utf8").replaceAll("--> statement-breakpoint", ""));
}
const rows = database
  .prepare("SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'trigger')")
  .all() as unknown as SchemaRow[];
const text = formatGuards(rows);
const target = join(ROOT, "db", "guards.sql");

if (process.argv.includes("--check")) {
  const current = readFileSync(target, "utf8");
  if (current !== text) {
    console.error("db/guards.sql is not current: run `npm run db:generate`.");
    process.exit(1);
  }
  console.log("db/guards.sql is current.");
} else {
  writeFileSync(target, text);
  console.log(`Wrote db/guards.sql (${rows.filter((r) => r.type === "trigger").length} triggers).`);
}
