/**
 * What `npm run dev` adds around the Worker when `vite dev` serves it (the Cloudflare Vite plugin runs the Worker in
 * workerd; docs/decisions/0061): the local D1 migrated and seeded before the server starts, the mail simulator, and
 * the scheduled handler run on a timer, since neither `wrangler dev` nor the plugin fires cron triggers.
 *
 * Settings (environment), as scripts/dev.ts reads them: PORT (8787), DEV_CRON_INTERVAL_MS (60000),
 * MAIL_SIMULATOR_PORT (PORT + 1000).
 */
import { join } from "node:path";
import type { Plugin } from "vite";
import { withFolderLock } from "./folder-lock.ts";
import { applyMigrations, BIN, devVar, ensureDevVars, ROOT, run } from "./local-d1.ts";
import { mailSimulatorPort, simulatorSettings, startMailSimulator } from "./mail-simulator.ts";

/** The deployed schedule (wrangler.toml [triggers]); the handler does the same work for any. */
const CRON = "* * * * *";

/**
 * The Worker's variables for the mail simulator (RESEND_BASE_URL, RESEND_API_KEY), or none, as scripts/dev.ts passes
 * them with `--var`. Not enough as it stands: a name that .dev.vars also sets keeps the .dev.vars value under the
 * plugin (wrangler's getVarsForDev reads .dev.vars over the config's vars), so .dev.vars itself has to name the
 * simulator's key (docs/decisions/0061).
 */
export function devMailVars(): Record<string, string> {
  ensureDevVars();
  const settings = simulatorSettings(
    { baseUrl: devVar("RESEND_BASE_URL") },
    `http://127.0.0.1:${mailSimulatorPort()}`,
  );
  return Object.fromEntries(Object.entries(settings).filter((entry): entry is [string, string] => !!entry[1]));
}

/** Once per process: React Router's plugin resolves the Vite config a second time. */
let prepared: Promise<void> | undefined;

export function devLoop(): Plugin {
  const cronEveryMs = Number(process.env.DEV_CRON_INTERVAL_MS ?? 60_000);
  return {
    name: "brokerage:dev-loop",
    apply: "serve",
    // Before the Cloudflare plugin starts workerd on the same state folder.
    configResolved() {
      prepared ??= withFolderLock(join(ROOT, ".wrangler", "state"), async () => {
        applyMigrations({});
        // Its own process: the seed imports the app's modules (the `~` alias), which Vite's config bundle cannot.
        run(join(BIN, "node"), [join(ROOT, "scripts", "seed.ts")]);
      });
      return prepared;
    },
    async configureServer(server) {
      const mail = await startMailSimulator({ port: mailSimulatorPort(), log: (line) => console.log(line) });
      let busy = false;
      const timer = setInterval(async () => {
        const address = server.httpServer?.address();
        if (busy || !address || typeof address === "string") return;
        busy = true;
        try {
          const response = await fetch(
            `http://127.0.0.1:${address.port}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(CRON)}`,
            { signal: AbortSignal.timeout(30_000) },
          );
          if (!response.ok)
            console.error(`cron: the scheduled handler failed (${response.status} ${await response.text()}).`);
        } catch (error) {
          console.error(`cron: could not run the scheduled handler (${(error as Error).message}).`);
        } finally {
          busy = false;
        }
      }, cronEveryMs);
      server.httpServer?.once("close", () => {
        clearInterval(timer);
        void mail.close();
      });
    },
  };
}
