/**
 * The server the browser tests drive: the built app in Miniflare (scripts/lib/local-worker.ts), on a throwaway
 * local D1 (migrated and seeded from scratch each run) so tests never touch the developer's data. Started and
 * stopped by Playwright (playwright.config.ts), and by the measurement scripts (scripts/lib/local-server.ts).
 *
 * It runs a chain simulator beside it (scripts/lib/chain-simulator.ts) on E2E_PORT + 2000 (or CHAIN_SIMULATOR_PORT),
 * and points the app at its `dev` world, so that a browser test can pay and mine with
 * `chainControl("http://127.0.0.1:<that port>", "dev")` (tests/support/chain.ts), and pin stock prices with
 * `quotesControl("http://127.0.0.1:<that port>", "dev")` (tests/support/quotes.ts).
 *
 * Not `wrangler dev`: its proxy exits on a request the browser abandons, which failed the test running at that
 * moment and the next one while it restarted (docs/decisions/0057, 0060).
 */
import { mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { chainSimulatorPort, chainSimulatorVars, startChainSimulator } from "./lib/chain-simulator.ts";
import { FAKE_PROVIDER_SETTINGS } from "./lib/fake-oauth-settings.ts";
import { applyMigrations, ensureDevVars, ROOT } from "./lib/local-d1.ts";
import { startLocalWorker } from "./lib/local-worker.ts";
import { seedIfEmpty } from "./seed.ts";

const port = Number(process.env.E2E_PORT ?? "8788");
const stateName = process.env.E2E_STATE ?? "e2e";
const persistTo = join(ROOT, ".wrangler", `${stateName}-state`);
const logPath = join(ROOT, "test-results", `${stateName}-server.log`);

rmSync(persistTo, { recursive: true, force: true });
ensureDevVars();
applyMigrations({ persistTo });
await seedIfEmpty({ persistTo });

// The request log and the Worker's own output go to a file: on a pipe nobody reads they would fill it up and stall
// the server.
mkdirSync(join(ROOT, "test-results"), { recursive: true });
const log = openSync(logPath, "w");
console.log(`server log: ${logPath}`);
const toTerminal = process.stderr.write.bind(process.stderr);
// Stopped by a signal (Playwright's SIGTERM, Ctrl-C: 143, 130) is the normal end; anything else is told.
process.on("exit", (code) => {
  if (![0, 130, 143].includes(code))
    toTerminal(`The browser tests' server stopped (exit code ${code}): see ${logPath}.\n`);
});
for (const stream of [process.stdout, process.stderr]) {
  stream.write = ((chunk: string | Uint8Array) => {
    if (typeof chunk === "string") writeSync(log, chunk);
    else writeSync(log, chunk);
    return true;
  }) as typeof stream.write;
}

const chain = await startChainSimulator({
  port: chainSimulatorPort({ PORT: String(port), CHAIN_SIMULATOR_PORT: process.env.CHAIN_SIMULATOR_PORT }),
  log: (line) => console.log(line),
});
console.log(`chain simulator: ${chain.url}/dev`);

const server = await startLocalWorker({
  port,
  persistTo,
  bundleDir: join(ROOT, ".wrangler", `${stateName}-worker`),
  vars: {
    // Sign-in with Google and GitHub against the fake provider tests/e2e/oauth.spec.ts serves on loopback.
    ...FAKE_PROVIDER_SETTINGS,
    // Every spec acts as the same two demo admins against one database, so their entries of a whole run would add
    // up to the daily limit across clients and hold a later spec's small entry. The per-client sum (the four-eyes
    // threshold) still applies, and the daily limit is tested in workerd.
    ADMIN_DAILY_LIMIT: "100000000",
    // No key whatever .dev.vars holds (the mail simulator's, for npm run dev): mail stays in the local mailbox,
    // captured, and never leaves for the provider address of wrangler.toml.
    RESEND_API_KEY: "",
    // Deposits on chain and stock quotes are read from the simulator beside this server, whatever .dev.vars says.
    ...chainSimulatorVars(chain.url),
  },
});

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await server.dispose();
  await chain.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
