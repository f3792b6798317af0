/**
 * What `npm run dev` (`vite dev`, the Cloudflare Vite plugin running the Worker in workerd; docs/decisions/0061) adds
 * around the Worker: the local D1 migrated and seeded before workerd opens it (scripts/dev-setup.ts), the mail
 * simulator, the chain simulator (the blockchains and rates deposits are watched on, and the stock quotes: its
 * quotes simulator), and the scheduled handler on a timer, since the plugin fires no cron trigger by itself.
 *
 * Settings (environment):
 * - PORT: the port to serve on (8787).
 * - DEBUGGER_PORT: the inspector's port; by default a free one, so that two dev servers run side by side.
 * - DEV_STATE_DIR: the folder of the local D1, R2 and Durable Object storage (.wrangler/state by default).
 * - DEV_CRON_INTERVAL_MS: how often the scheduled handler (outbox delivery, clean-up) runs (60000, the deployed
 *   cron's every minute).
 * - MAIL_SIMULATOR_PORT: the mail simulator's port (PORT + 1000).
 * - CHAIN_SIMULATOR_PORT: the chain simulator's port (PORT + 2000), the quotes' too.
 */
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import type { Plugin, ViteDevServer } from "vite";
import { type ChainSimulator, chainSimulatorPort, chainSimulatorVars, startChainSimulator } from "./chain-simulator.ts";
import { freePort } from "./free-port.ts";
import { BIN, devVar, ensureDevVars, quietEnv, ROOT } from "./local-d1.ts";
import { type MailSimulator, mailSimulatorPort, simulatorSettings, startMailSimulator } from "./mail-simulator.ts";

/** The deployed schedule (wrangler.toml [triggers]); the handler does the same work for any. */
const CRON = "* * * * *";

export interface DevSettings {
  port: number;
  inspectorPort: number;
  /** An absolute folder, or undefined for the plugin's and wrangler's default, .wrangler/state. */
  stateDir?: string;
  cronEveryMs: number;
  mailSimulatorPort: number;
  chainSimulatorPort: number;
}

/**
 * Kept by the process rather than the module: Vite loads the config (and with it this module) once for the server
 * and again for React Router's plugin, and again on every restart of the server; the setup runs once, the simulator
 * and the timer outlive a restart (the new server starts before the old one closes), the free port stays the same.
 */
interface ProcessState {
  settings?: Promise<DevSettings>;
  setUp?: Promise<void>;
  running?: { mail: MailSimulator; chain: ChainSimulator; cron: NodeJS.Timeout; listening: Promise<void> };
}
const processWide = globalThis as { [key: symbol]: ProcessState | undefined };
const KEY = Symbol.for("brokerage.dev-loop");
processWide[KEY] ??= {};
const shared = processWide[KEY];

export function devSettings(env: NodeJS.ProcessEnv = process.env): Promise<DevSettings> {
  // Placeholder request.cf values, as `wrangler dev` gave them to the old dev loop: no lookup on the network at start.
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
  shared.settings ??= (async () => {
    const cronEveryMs = Number(env.DEV_CRON_INTERVAL_MS ?? 60_000);
    if (!Number.isFinite(cronEveryMs) || cronEveryMs < 100)
      throw new Error("DEV_CRON_INTERVAL_MS must be at least 100");
    return {
      port: Number(env.PORT || 8787),
      // Left to itself the plugin takes 9229 or the next port free: two servers starting together can both see it free.
      inspectorPort: Number(env.DEBUGGER_PORT || (await freePort())),
      stateDir: env.DEV_STATE_DIR ? resolve(env.DEV_STATE_DIR) : undefined,
      cronEveryMs,
      mailSimulatorPort: mailSimulatorPort(env),
      chainSimulatorPort: chainSimulatorPort(env),
    };
  })();
  return shared.settings;
}

/** The Worker's variables on top of wrangler.toml's for dev: where the mail simulator listens, unless .dev.vars says. */
export function devMailVars(settings: DevSettings): Record<string, string> {
  ensureDevVars();
  const { RESEND_BASE_URL } = simulatorSettings(
    { baseUrl: devVar("RESEND_BASE_URL") },
    `http://127.0.0.1:${settings.mailSimulatorPort}`,
  );
  return RESEND_BASE_URL ? { RESEND_BASE_URL } : {};
}

/**
 * The Worker's chain and quotes settings for dev: the chain simulator's `dev` world (QUOTES_URL and its local keys
 * included), each unless .dev.vars sets it (the plugin reads .dev.vars over the config, so a developer watching a
 * real node or testnet, or reading Alpaca with their own keys, keeps their own).
 */
export function devChainVars(settings: DevSettings): Record<string, string> {
  ensureDevVars();
  const vars = chainSimulatorVars(`http://127.0.0.1:${settings.chainSimulatorPort}`);
  return Object.fromEntries(Object.entries(vars).filter(([name]) => !devVar(name)));
}

function setUp(settings: DevSettings): Promise<void> {
  shared.setUp ??= new Promise((done, fail) => {
    const child = spawn(join(BIN, "node"), [join(ROOT, "scripts", "dev-setup.ts")], {
      cwd: ROOT,
      env: { ...quietEnv, ...(settings.stateDir ? { DEV_STATE_DIR: settings.stateDir } : {}) },
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.once("error", fail);
    child.once("exit", (code, signal) =>
      code === 0 ? done() : fail(new Error(`npm run dev: setting up the local database failed (${signal ?? code})`)),
    );
  });
  return shared.setUp;
}

/** Runs the scheduled handler once, as the deployed cron would; quiet when it works. */
async function runScheduled(port: number): Promise<void> {
  await shared.running?.listening;
  try {
    const response = await fetch(
      `http://127.0.0.1:${port}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(CRON)}`,
      { signal: AbortSignal.timeout(30_000) },
    );
    const outcome = await response.text();
    if (!response.ok) console.error(`cron: the scheduled handler failed (${response.status} ${outcome.trim()}).`);
  } catch (error) {
    console.error(`cron: could not run the scheduled handler (${(error as Error).message}).`);
  }
}

async function startAround(settings: DevSettings, server: ViteDevServer): Promise<void> {
  if (shared.running) return;
  const mail = await startMailSimulator({
    port: settings.mailSimulatorPort,
    log: (line) => console.log(line),
  }).catch((error: Error) => {
    throw new Error(
      `the mail simulator cannot listen on port ${settings.mailSimulatorPort} (${error.message}): ` +
        "set MAIL_SIMULATOR_PORT to a free port.",
    );
  });
  const chain = await startChainSimulator({
    port: settings.chainSimulatorPort,
    log: (line) => console.log(line),
  }).catch(async (error: Error) => {
    await mail.close();
    throw new Error(
      `the chain simulator cannot listen on port ${settings.chainSimulatorPort} (${error.message}): ` +
        "set CHAIN_SIMULATOR_PORT to a free port.",
    );
  });
  let busy = false;
  const cron = setInterval(async () => {
    if (busy) return;
    busy = true;
    await runScheduled(settings.port);
    busy = false;
  }, settings.cronEveryMs);
  // Vite exits the process after closing the server (Ctrl-C, SIGTERM): nothing here may keep it alive.
  cron.unref();
  // Not before the server listens, which is after the Worker's first load: a minute or more on a first start.
  const listening = new Promise<void>((ready) => server.httpServer?.once("listening", ready));
  shared.running = { mail, chain, cron, listening };
  printNotes(settings, mail.url, chain.url);
}

function printNotes(settings: DevSettings, simulatorUrl: string, chainUrl: string): void {
  const { port } = settings;
  // `npm run mail` finds the simulator the way its port was chosen.
  const mail = `${process.env.MAIL_SIMULATOR_PORT ? `MAIL_SIMULATOR_PORT=${settings.mailSimulatorPort} ` : port === 8787 ? "" : `PORT=${port} `}npm run mail --`;
  const baseUrl = devVar("RESEND_BASE_URL");
  console.log(
    simulatorSettings({ baseUrl }, simulatorUrl).RESEND_BASE_URL
      ? `Mail goes to the local mail simulator on ${simulatorUrl}: \`${mail} fail\` for a provider outage, ` +
          `\`${mail} ok\` to end it, \`${mail} status\` for what it accepted.`
      : `Mail goes to ${baseUrl} (RESEND_BASE_URL in .dev.vars); the mail simulator on ${simulatorUrl} is idle.`,
  );
  const chain = `${process.env.CHAIN_SIMULATOR_PORT ? `CHAIN_SIMULATOR_PORT=${settings.chainSimulatorPort} ` : port === 8787 ? "" : `PORT=${port} `}npm run chain --`;
  console.log(
    `The chains and rates deposits are read from are the local chain simulator's, on ${chainUrl}/dev: ` +
      `\`${chain} pay <address> <amount>\`, \`${chain} mine\`, \`${chain} state\` (\`${chain} --help\` for the rest).`,
  );
  const quotes = chain.replace("npm run chain --", "npm run quotes --");
  const quotesUrl = devVar("QUOTES_URL");
  console.log(
    quotesUrl
      ? `Stock quotes are read from ${quotesUrl} (QUOTES_URL in .dev.vars); the quotes simulator on ${chainUrl}/dev/quotes is idle.`
      : `Stock quotes are the local quotes simulator's, on ${chainUrl}/dev/quotes: \`${quotes} set AAPL 190.00\` pins a ` +
          `price, \`${quotes} walk\` lets it move (\`${quotes} --help\` for the rest).`,
  );
  console.log(`The scheduled handler (mail retries, clean-up) runs every ${settings.cronEveryMs / 1000} s.`);
}

export function devLoop(settings: DevSettings): Plugin {
  return {
    name: "brokerage:dev-loop",
    apply: "serve",
    // Awaited by Vite before any plugin's configureServer, where the Cloudflare plugin starts workerd on the state.
    configResolved: () => setUp(settings),
    configureServer: (server) => startAround(settings, server),
  };
}
