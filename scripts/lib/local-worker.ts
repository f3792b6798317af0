/**
 * The built Worker served by Miniflare itself, without `wrangler dev`: the server of the browser tests and the
 * measurement scripts (scripts/e2e-server.ts). See docs/decisions/0060.
 *
 * `wrangler dev` puts a proxy of its own in front of the Worker, and that proxy exits on a request its client
 * abandons or cuts short (docs/decisions/0057): a browser leaving a page mid-request is enough, and every later
 * test then failed until it restarted. Miniflare is the same local runtime (workerd) with the same bindings and
 * local storage, read from wrangler.toml and .dev.vars by wrangler's own function; the one request fails and the
 * server stays up. The Worker is bundled as `wrangler deploy` bundles it (`--dry-run`), so the browser tests run
 * the code production runs, without the middleware `wrangler dev` adds.
 */
import { join } from "node:path";
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { BIN, ROOT, run } from "./local-d1.ts";

export interface LocalWorkerOptions {
  port: number;
  /** The local state folder, laid out as `wrangler dev --persist-to` and `wrangler d1 execute --persist-to` use it. */
  persistTo: string;
  /** Where the bundle is written (one per state folder, so two servers of one checkout do not share a file). */
  bundleDir: string;
  /** Settings on top of wrangler.toml's [vars] and .dev.vars, as `wrangler dev --var` gives them. */
  vars?: Record<string, string>;
}

/** Bundles workers/app.ts (and the React Router build it imports) as a deploy would, into `bundleDir`. */
export function bundleWorker(bundleDir: string): string {
  run(join(BIN, "wrangler"), ["deploy", "--dry-run", "--outdir", bundleDir], { capture: true });
  return join(bundleDir, "app.js");
}

export async function startLocalWorker(options: LocalWorkerOptions): Promise<Miniflare> {
  const script = bundleWorker(options.bundleDir);
  const { workerOptions } = unstable_getMiniflareWorkerOptions(join(ROOT, "wrangler.toml"));
  const bindings = { ...(workerOptions.bindings as Record<string, string>), ...options.vars };
  const miniflare = new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port: options.port,
      // wrangler keeps each kind of local storage under <persist-to>/v3 (d1, do, r2, cache).
      resourcePersistencePath: join(options.persistTo, "v3"),
      // Placeholder request.cf values, as wrangler dev gives with CLOUDFLARE_CF_FETCH_ENABLED=false: no network.
      cf: false,
      // One line per request, as wrangler dev logs them.
      log: new Log(LogLevel.INFO),
      workers: [
        {
          ...workerOptions,
          bindings,
          name: "brokerage-portal",
          modules: [{ type: "ESModule", path: script }],
          modulesRoot: options.bundleDir,
        },
      ],
    }),
  );
  await miniflare.ready;
  return miniflare;
}
