/**
 * `npm run spike:ledger`: bundles this spike's Worker, runs it under Miniflare (workerd) in memory with
 * wrangler.toml's bindings, and prints the figures of docs/decisions/0076. Exits non-zero if a consistency check
 * fails. Times are wall times taken from Node around whole batches; CPU is the workerd process's user and system
 * time over a batch (/proc), divided by its requests: workerd holds the Worker, both object classes and every D1
 * database, so that CPU covers all of them, and Node's own is not in it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { cpuMilliseconds, descendantsNamed } from "../../scripts/lib/process-cpu.ts";
import { measureAdminLimit, measureBurst, measureCpu, measureDesk, measureRace } from "./measures.ts";
import type { Call } from "./stats.ts";

const here = import.meta.dirname;
const outdir = mkdtempSync(join(tmpdir(), "ledger-spike-"));
await build({
  entryPoints: [join(here, "worker.ts")],
  bundle: true,
  format: "esm",
  platform: "neutral",
  external: ["cloudflare:*"],
  outfile: join(outdir, "worker.js"),
  logLevel: "warning",
});

const { workerOptions } = unstable_getMiniflareWorkerOptions(join(here, "wrangler.toml"));
const before = new Set(descendantsNamed("workerd"));
const mf = new Miniflare(
  convertV4MiniflareOptions({
    workers: [
      {
        ...workerOptions,
        name: "ledger-scaling-spike",
        rootPath: outdir,
        modules: [{ type: "ESModule", path: join(outdir, "worker.js") }],
        modulesRoot: outdir,
      },
    ],
  }),
);
await mf.ready;
const workerd = descendantsNamed("workerd").filter((pid) => !before.has(pid));
const cpu = () => workerd.reduce((sum, pid) => sum + cpuMilliseconds(pid), 0);

const call: Call = async <T>(path: string) => {
  const response = await mf.dispatchFetch(`http://spike${path}`);
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};

const failures: string[] = [];
try {
  await call("/setup");
  console.log("# Ledger-scaling spike (workerd under Miniflare, in memory)\n");
  failures.push(...(await measureRace(call, cpu)));
  failures.push(...(await measureCpu(call, cpu)));
  failures.push(...(await measureBurst(call)));
  failures.push(...(await measureAdminLimit(call)));
  failures.push(...(await measureDesk(call, cpu, Number(process.env.SPIKE_DESK_ROWS ?? 20_000))));
} finally {
  await mf.dispose();
  rmSync(outdir, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.error(`\nFAILED:\n- ${failures.join("\n- ")}`);
  process.exit(1);
}
console.log("\nEvery consistency check held.");
