/**
 * The server the browser tests drive: the built app under `wrangler dev`, on a throwaway local D1
 * (migrated and seeded from scratch each run) so tests never touch the developer's data.
 * Started and stopped by Playwright (playwright.config.ts).
 *
 * `wrangler dev` 4.124 can exit mid-run on a dropped connection inside its proxy, printing an empty
 * "[ERROR]" (cloudflare/workers-sdk#15451, #15317). This script restarts it on the same port and the same
 * database, so one dropped request does not take every later test down; see docs/decisions/0004.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, mkdirSync, openSync, rmSync } from "node:fs";
import { join } from "node:path";
import { applyMigrations, BIN, ensureDevVars, quietEnv, ROOT } from "./lib/local-d1.ts";
import { seedIfEmpty } from "./seed.ts";

const port = process.env.E2E_PORT ?? "8788";
const stateName = process.env.E2E_STATE ?? "e2e";
const persistTo = join(ROOT, ".wrangler", `${stateName}-state`);
const logPath = join(ROOT, "test-results", `${stateName}-server.log`);
const MAX_RESTARTS = 5;

rmSync(persistTo, { recursive: true, force: true });
ensureDevVars();
applyMigrations({ persistTo });
await seedIfEmpty({ persistTo });

// The request log goes to a file: on a pipe nobody reads it would fill up and stall the server.
mkdirSync(join(ROOT, "test-results"), { recursive: true });
const log = openSync(logPath, "w");
console.log(`server log: ${logPath}`);

let server: ChildProcess | null = null;
let stopping = false;
let restarts = 0;

function start() {
  server = spawn(
    join(BIN, "wrangler"),
    [
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      port,
      "--inspector-port",
      process.env.E2E_INSPECTOR_PORT ?? "9230",
      "--persist-to",
      persistTo,
      "--show-interactive-dev-session=false",
    ],
    { cwd: ROOT, env: quietEnv, stdio: ["ignore", log, log] },
  );
  server.on("exit", (code) => {
    if (stopping) return process.exit(0);
    if (restarts >= MAX_RESTARTS) {
      console.error(`wrangler dev exited (${code}) ${restarts + 1} times; giving up.`);
      return process.exit(code ?? 1);
    }
    restarts++;
    appendFileSync(logPath, `\n--- wrangler dev exited (${code}); restart ${restarts} of ${MAX_RESTARTS} ---\n`);
    console.error(`wrangler dev exited (${code}); restarting (${restarts} of ${MAX_RESTARTS}).`);
    setTimeout(start, 500);
  });
}

const stop = () => {
  stopping = true;
  server?.kill("SIGTERM");
  setTimeout(() => process.exit(0), 5_000).unref();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
start();
