/**
 * The bench's Worker: the bundle `wrangler deploy --dry-run` wrote, run by Miniflare on loopback over the bench
 * dataset, with the CPU time of its workerd process (which holds the Worker, its D1 and its Durable Objects).
 */
import { copyFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { BENCH_STATE, BENCH_TOTP_KEY, DATABASE_ID } from "../bench-data.ts";
import { ROOT } from "./local-d1.ts";
import { bundleWorker } from "./local-worker.ts";
import { cpuMilliseconds, descendantsNamed } from "./process-cpu.ts";

export type BenchWorker = { mf: Miniflare; origin: string; workerCpu: () => number };

export async function startBenchWorker(
  /** The entry module, then any module it imports (each an ES module in the entry's folder). */
  scriptPath: string | string[],
  port: number,
  bindings: Record<string, string> = {},
  /** The local state folder (`--persist-to` layout): the bench dataset's unless told. */
  state = BENCH_STATE,
  /** A port for the V8 inspector (a CPU profile of the Worker's isolate), when one is wanted. */
  inspectorPort?: number,
): Promise<BenchWorker> {
  const before = new Set(descendantsNamed("workerd"));
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: [scriptPath].flat().map((path) => ({ type: "ESModule" as const, path })),
      modulesRoot: dirname([scriptPath].flat()[0] ?? ""),
      compatibilityDate: "2026-08-15",
      compatibilityFlags: ["nodejs_compat"],
      d1Databases: { DB: DATABASE_ID },
      r2Buckets: {
        DOCUMENTS: "brokerage-documents",
        STATEMENTS: "brokerage-statements",
        MAIL_ARCHIVE: "brokerage-mail-archive",
        AUDIT_ARCHIVE: "brokerage-audit-archive",
      },
      durableObjects: { CLIENT_FEED: "ClientFeed", ADMIN_DESK: "AdminDesk" },
      resourcePersistencePath: `${state}/v3`,
      bindings: {
        ENVIRONMENT: "development",
        SESSION_SECRET: "bench-session-secret-0123456789abcdef0123",
        TOTP_ENCRYPTION_KEY: BENCH_TOTP_KEY,
        MAIL_API_TOKEN: "bench-mail-token-0123456789",
        RESEND_API_KEY: "",
        BRAND_NAME: "Northwind Markets",
        SUPPORT_EMAIL: "support@northwind.example",
        ADMIN_MAILBOX: "desk@northwind.example",
        MAIL_FROM: "notices@northwind.example",
        ...bindings,
      },
      host: "127.0.0.1",
      port,
      inspectorPort,
      // autocannon drops its open connections when a run ends, mid-way through a response: workerd logs each as
      // a disconnect with a stack. Anything else it logs is shown.
      handleStructuredLogs: ({ level, message }) => {
        if (!/disconnected: .*Connection reset by peer/.test(message)) console.error(`[workerd ${level}] ${message}`);
      },
    }),
  );
  const origin = (await mf.ready).origin;
  // This Worker's process only: a Worker started before and not yet gone is not counted.
  const processes = descendantsNamed("workerd").filter((pid) => !before.has(pid));
  if (processes.length === 0) throw new Error("the workerd process of Miniflare was not found");
  return { mf, origin, workerCpu: () => processes.reduce((sum, pid) => sum + cpuMilliseconds(pid), 0) };
}

/**
 * The deploy's bundle entered through `scripts/lib/d1-from-memory.js` (`npm run bench:d1`, `npm run
 * bench:profile`): the modules to give `startBenchWorker`, entry first.
 */
export function bundleWithReadsFromMemory(): string[] {
  const bundleDir = join(ROOT, ".wrangler", "bench-d1-bundle");
  const bundle = bundleWorker(bundleDir);
  const entry = join(bundleDir, "d1-from-memory.js");
  copyFileSync(join(ROOT, "scripts", "lib", "d1-from-memory.js"), entry);
  return [entry, bundle];
}
