/**
 * The server the browser tests drive: the built app under `wrangler dev`, on a throwaway local D1
 * (migrated and seeded from scratch each run) so tests never touch the developer's data.
 * Started and stopped by Playwright (playwright.config.ts).
 */
import { spawn } from "node:child_process";
import { mkdirSync, openSync, rmSync } from "node:fs";
import { join } from "node:path";
import { applyMigrations, BIN, ensureDevVars, quietEnv, ROOT } from "./lib/local-d1.ts";
import { seedIfEmpty } from "./seed.ts";

const port = process.env.E2E_PORT ?? "8788";
const persistTo = join(ROOT, ".wrangler", "e2e-state");

rmSync(persistTo, { recursive: true, force: true });
ensureDevVars();
applyMigrations({ persistTo });
await seedIfEmpty({ persistTo });

// The server's request log goes to a file. Left on a pipe that nobody reads, it fills the pipe after a few
// hundred requests, and a process writing to a full pipe stalls: the server would stop answering mid-run.
mkdirSync(join(ROOT, "test-results"), { recursive: true });
const log = openSync(join(ROOT, "test-results", "e2e-server.log"), "w");
console.log("e2e server log: test-results/e2e-server.log");

const server = spawn(
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
const stop = () => server.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
server.on("exit", (code) => process.exit(code ?? 0));
