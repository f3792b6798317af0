/**
 * `npm run db:role-guards -- <name>`: a new migration (drizzle-kit's custom one, so its journal and snapshot follow)
 * that makes every role guard again from the permission table (db/role-guards.ts), then db/guards.sql rewritten.
 * Run it whenever app/lib/permissions.ts changes a list that a guard names; the role-triggers test fails until then.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { roleGuardsMigration } from "../db/role-guards.ts";
import { ROOT } from "./lib/local-d1.ts";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("Usage: npm run db:role-guards -- <migration_name> (lower case, digits and _)");
  process.exit(1);
}
const bin = (tool: string) => join(ROOT, "node_modules", ".bin", tool);
execFileSync(bin("drizzle-kit"), ["generate", "--custom", "--name", name], { cwd: ROOT, stdio: "inherit" });
const migrations = join(ROOT, "db", "migrations");
const file = readdirSync(migrations)
  .filter((entry) => entry.endsWith(`_${name}.sql`))
  .sort()
  .at(-1);
if (!file) throw new Error(`drizzle-kit wrote no migration named ${name}`);
writeFileSync(join(migrations, file), roleGuardsMigration());
execFileSync(process.execPath, [join(ROOT, "scripts", "guards.ts")], { cwd: ROOT, stdio: "inherit" });
console.log(`Wrote db/migrations/${file}: the role guards from the permission table.`);
