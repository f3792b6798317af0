/**
 * `npm run dev`: build, migrate and seed the local D1, then serve on http://127.0.0.1:8787 with the app's build
 * rebuilding on change (scripts/build-watch.ts, Vite's build in watch mode) and wrangler reloading the Worker.
 *
 * Settings (environment):
 * - PORT: the port to serve on (8787).
 * - DEBUGGER_PORT: the debugger's port; by default a free one, so that two checkouts can run side by side.
 * - DEV_STATE_DIR: the folder of the local D1 and Durable Object storage (wrangler's .wrangler/state by default).
 * - DEV_CRON_INTERVAL_MS: how often the scheduled handler (outbox delivery, clean-up) runs (60000, the deployed
 *   cron's every minute; `wrangler dev` never fires cron triggers by itself).
 * - MAIL_SIMULATOR_PORT: the port of the mail provider's stand-in (scripts/lib/mail-simulator.ts), PORT + 1000 by
 *   default, so that two checkouts on two ports have two simulators. The app's mail goes there unless .dev.vars names
 *   a RESEND_BASE_URL off this machine; `npm run mail -- fail` makes it an outage.
 *
 * wrangler dev and the build watcher are restarted when they exit unexpectedly (scripts/lib/supervise.ts); Ctrl-C or
 * SIGTERM stops both, with everything they started, and the mail simulator (which runs in this process).
 */
import { join, resolve } from "node:path";
import { withFolderLock } from "./lib/folder-lock.ts";
import { wranglerDevArgs } from "./lib/free-port.ts";
import { applyMigrations, BIN, type D1Target, devVar, ensureDevVars, ROOT, run } from "./lib/local-d1.ts";
import { mailSimulatorPort, simulatorSettings, startMailSimulator } from "./lib/mail-simulator.ts";
import { answersAt, type Supervised, supervise } from "./lib/supervise.ts";
import { printDemoLogins, seedIfEmpty } from "./seed.ts";

const port = process.env.PORT ?? "8787";
const origin = `http://127.0.0.1:${port}`;
const target: D1Target = process.env.DEV_STATE_DIR ? { persistTo: resolve(process.env.DEV_STATE_DIR) } : {};
const cronEveryMs = Number(process.env.DEV_CRON_INTERVAL_MS ?? 60_000);
/** The deployed schedule (wrangler.toml [triggers]); the handler does the same work for any. */
const CRON = "* * * * *";
if (!Number.isFinite(cronEveryMs) || cronEveryMs < 100) throw new Error("DEV_CRON_INTERVAL_MS must be at least 100");

ensureDevVars();
// Before the build, so that a taken port stops here rather than after a minute of building.
const mailSimulatorAt = mailSimulatorPort();
const mailSimulator = await startMailSimulator({ port: mailSimulatorAt, log: (line) => console.log(line) }).catch(
  (error: Error) => {
    console.error(
      `npm run dev: the mail simulator cannot listen on port ${mailSimulatorAt} (${error.message}). ` +
        "Set MAIL_SIMULATOR_PORT to a free port.",
    );
    process.exit(1);
  },
);
const mailSettings = simulatorSettings(
  { baseUrl: devVar("RESEND_BASE_URL") },
  mailSimulator.url,
);
console.log("Building…");
run(join(BIN, "react-router"), ["build"]);
// Another dev server started at the same moment on the same state folder would apply the same migrations.
await withFolderLock(
  target.persistTo ?? join(ROOT, ".wrangler", "state"),
  async () => {
    console.log("Applying local D1 migrations…");
    applyMigrations(target);
    if (await seedIfEmpty(target)) console.log("Seeded demo data.");
  },
  () => console.log("Waiting for another npm run dev to finish setting up the same local database…"),
);

const supervised: Supervised[] = [
  // No port of its own: it only writes build/, which wrangler dev watches.
  supervise({
    name: "build watcher",
    command: join(BIN, "node"),
    args: () => [join(ROOT, "scripts", "build-watch.ts")],
    stdio: ["ignore", 1, 2],
  }),
  supervise({
    name: "wrangler dev",
    command: join(BIN, "wrangler"),
    args: async () => [
      ...(await wranglerDevArgs({ port, debuggerPort: process.env.DEBUGGER_PORT, persistTo: target.persistTo })),
      ...Object.entries(mailSettings).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
    ],
    stdio: ["ignore", 1, 2],
    restartNote: `on ${origin} with the same database`,
    // Once it has served, an exit is no broken start (a request can cause it: docs/decisions/0057): always restarted.
    answers: answersAt(`${origin}/healthz`),
  }),
];
const [, wrangler] = supervised as [Supervised, Supervised];

/**
 * Runs the Worker's scheduled handler, as the deployed cron would, through the local trigger of `wrangler dev`
 * (/cdn-cgi/local/scheduled, answered by the local runtime before the app; see docs/decisions/0015). Quiet when the
 * handler succeeds, one line when it does not.
 */
let cronBusy = false;
async function runScheduled(): Promise<void> {
  const upForMs = wrangler.upForMs();
  if (cronBusy || upForMs === null) return;
  cronBusy = true;
  try {
    const response = await fetch(`${origin}/cdn-cgi/local/scheduled?cron=${encodeURIComponent(CRON)}`, {
      signal: AbortSignal.timeout(30_000),
    });
    const outcome = await response.text();
    if (!response.ok) console.error(`cron: the scheduled handler failed (${response.status} ${outcome.trim()}).`);
  } catch (error) {
    // Not listening yet: wrangler is still starting.
    if (upForMs > 60_000) console.error(`cron: could not run the scheduled handler (${(error as Error).message}).`);
  } finally {
    cronBusy = false;
  }
}
const cron = setInterval(runScheduled, cronEveryMs);

let stopping = false;
async function stop(code: number): Promise<never> {
  if (stopping) {
    // A second Ctrl-C: do not wait for a clean stop.
    for (const child of supervised) {
      const pid = child.pid();
      try {
        if (pid) process.kill(-pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    process.exit(code);
  }
  stopping = true;
  clearInterval(cron);
  await Promise.all([...supervised.map((child) => child.stop()), mailSimulator.close()]);
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
process.on("SIGHUP", () => void stop(0));
for (const child of supervised) {
  void child.finished.then((outcome) => {
    if (outcome.reason === "gave-up" && !stopping) {
      console.error("npm run dev: stopping.");
      void stop(1);
    }
  });
}

printDemoLogins();
console.log(`Serving on ${origin}.`);
// `npm run mail` finds the simulator the way this script chose its port.
const mail = `${process.env.MAIL_SIMULATOR_PORT ? `MAIL_SIMULATOR_PORT=${mailSimulatorAt} ` : port === "8787" ? "" : `PORT=${port} `}npm run mail --`;
console.log(
  mailSettings.RESEND_BASE_URL
    ? `Mail goes to the local mail simulator on ${mailSimulator.url}: \`${mail} fail\` for a provider outage, ` +
        `\`${mail} ok\` to end it, \`${mail} status\` for what it accepted.`
    : `Mail goes to ${devVar("RESEND_BASE_URL")} (RESEND_BASE_URL in .dev.vars); the mail simulator on ` +
        `${mailSimulator.url} is idle.`,
);
console.log(
  `The scheduled handler (mail retries, clean-up) runs every ${cronEveryMs / 1000} s: wrangler's warning that ` +
    "scheduled Workers are not triggered locally does not apply.\n",
);
