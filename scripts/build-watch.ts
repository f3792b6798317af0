/**
 * The rebuild half of `npm run dev`: Vite's build in watch mode, the browser's build and then the server build,
 * into build/ where `wrangler dev` picks the server build up (it watches what workers/app.ts imports) and serves
 * build/client as its assets. Started (and restarted) by scripts/dev.ts after a full `npm run build`.
 *
 * Both builds watch app/. The server build embeds the browser build's manifest (its hashed file names), so each of
 * its rebuilds reads that manifest only once the browser's rebuild of the same change has been written; otherwise
 * the server would name files that are not there yet. Neither empties its folder: a request in the middle of a rebuild still finds
 * the files the previous build named. Why not a Vite dev server: docs/decisions/0038.
 */
import { build, type Plugin, type Rollup } from "vite";
import { ROOT } from "./lib/local-d1.ts";

/** The server's rebuild starts this long after a change, by when the browser's rebuild of it has begun. */
const SERVER_DELAY_MS = 200;

// Pending from the start: the server's first build, too, needs the manifest of the browser's first.
let clientDone = () => {};
let clientBusy = true;
let clientIdle = new Promise<void>((resolve) => {
  clientDone = resolve;
});
let changedAt: number | null = null;

/** Only the module holding the browser's manifest waits: the rest of the server's rebuild runs alongside. */
const SERVER_MANIFEST = "\0virtual:react-router/server-manifest";
const waitForClient: Plugin = {
  name: "wait-for-the-browser-build",
  enforce: "pre",
  load: {
    order: "pre",
    async handler(id) {
      if (id === SERVER_MANIFEST) await clientIdle;
      return null;
    },
  },
};

function watchOptions(buildDelay: number) {
  return { buildDelay, exclude: ["build/**", "node_modules/**", ".wrangler/**", "test-results/**"] };
}
/** Resource routes send no JavaScript: their empty browser chunks are expected, and not worth a line per rebuild. */
const rollupOptions: Rollup.RollupOptions = {
  onwarn(warning, warn) {
    if (warning.code !== "EMPTY_BUCKET") warn(warning);
  },
};

const client = (await build({
  root: ROOT,
  logLevel: "warn",
  clearScreen: false,
  build: {
    ssr: false,
    emptyOutDir: false,
    watch: watchOptions(0),
    rollupOptions,
    // Local only: minifying every chunk again on each rebuild is most of its time (npm run size reads npm run build).
    minify: false,
    reportCompressedSize: false,
  },
})) as Rollup.RollupWatcher;

const server = (await build({
  root: ROOT,
  logLevel: "warn",
  clearScreen: false,
  plugins: [waitForClient],
  build: {
    ssr: true,
    emptyOutDir: false,
    watch: watchOptions(SERVER_DELAY_MS),
    rollupOptions,
    reportCompressedSize: false,
  },
})) as Rollup.RollupWatcher;

client.on("change", () => {
  changedAt ??= performance.now();
});
client.on("event", (event) => {
  if (event.code === "START" && !clientBusy) {
    clientBusy = true;
    clientIdle = new Promise((resolve) => {
      clientDone = resolve;
    });
  } else if (event.code === "END" || event.code === "ERROR") {
    if (event.code === "ERROR") console.error(`browser build failed: ${event.error.message}`);
    clientBusy = false;
    clientDone();
  }
  if (event.code === "BUNDLE_END" || event.code === "ERROR") event.result?.close();
});
server.on("event", (event) => {
  if (event.code === "ERROR") console.error(`server build failed: ${event.error.message}`);
  if (event.code === "END" && changedAt !== null) {
    console.log(`rebuilt in ${Math.round(performance.now() - changedAt)} ms`);
    changedAt = null;
  }
  if (event.code === "BUNDLE_END" || event.code === "ERROR") event.result?.close();
});

async function stop() {
  await Promise.all([client.close(), server.close()]);
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
console.log("Watching app/ for changes (browser and server builds).");
