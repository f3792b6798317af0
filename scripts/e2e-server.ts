/**
 * The server the browser tests drive: the built app under `wrangler dev`, on a throwaway local D1
 * (migrated and seeded from scratch each run) so tests never touch the developer's data.
 * Started and stopped by Playwright (playwright.config.ts).
 *
 * `wrangler dev` 4.124 can exit mid-run on a dropped connection inside its proxy, printing an empty
 * "[ERROR]" (cloudflare/workers-sdk#15451, #15317). It is restarted on the same port and the same
 * database (scripts/lib/supervise.ts, shared with `npm run dev`), so one dropped request does not take
 * every later test down; see docs/decisions/0004 and 0015.
 */
import { appendFileSync, mkdirSync, openSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FAKE_PROVIDER_SETTINGS } from "./lib/fake-oauth-settings.ts";
import { wranglerDevArgs } from "./lib/free-port.ts";
import { applyMigrations, BIN, ensureDevVars, ROOT } from "./lib/local-d1.ts";
import { answersAt, supervise } from "./lib/supervise.ts";
import { seedIfEmpty } from "./seed.ts";

const port = process.env.E2E_PORT ?? "8788";
const stateName = process.env.E2E_STATE ?? "e2e";
const persistTo = join(ROOT, ".wrangler", `${stateName}-state`);
const logPath = join(ROOT, "test-results", `${stateName}-server.log`);

rmSync(persistTo, { recursive: true, force: true });
ensureDevVars();
applyMigrations({ persistTo });
await seedIfEmpty({ persistTo });

// The request log goes to a file: on a pipe nobody reads it would fill up and stall the server.
// Opened for appending, so the lines noting restarts land after what wrangler wrote instead of under its next write.
mkdirSync(join(ROOT, "test-results"), { recursive: true });
writeFileSync(logPath, "");
const log = openSync(logPath, "a");
console.log(`server log: ${logPath}`);

const server = supervise({
  name: "wrangler dev",
  command: join(BIN, "wrangler"),
  args: async () => [
    ...(await wranglerDevArgs({ port, debuggerPort: process.env.E2E_DEBUGGER_PORT, persistTo })),
    // Sign-in with Google and GitHub against the fake provider tests/e2e/oauth.spec.ts serves on loopback.
    ...Object.entries(FAKE_PROVIDER_SETTINGS).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
    // Every spec acts as the same two demo admins against one database, so their entries of a whole run would add up
    // to the daily limit across clients and hold a later spec's small entry. The per-client sum (the four-eyes
    // threshold) still applies, and the daily limit is tested in workerd.
    "--var",
    "ADMIN_DAILY_LIMIT:100000000",
  ],
  stdio: ["ignore", log, log],
  restartNote: "on the same port and database",
  // Once it has served, an exit is no broken start (a request can cause it: docs/decisions/0057): always restarted.
  answers: answersAt(`http://127.0.0.1:${port}/healthz`),
  note: (line) => {
    appendFileSync(logPath, `\n--- ${line} ---\n`);
    console.error(line);
  },
});

void server.finished.then((outcome) => {
  if (outcome.reason === "gave-up") console.error(`See ${logPath}.`);
  process.exit(outcome.reason === "gave-up" ? 1 : 0);
});
const stop = () => void server.stop();
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
