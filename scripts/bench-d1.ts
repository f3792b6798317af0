/**
 * `npm run bench:d1`: how much of each page's CPU under Miniflare is D1's own work. Miniflare runs D1 in the
 * Worker's workerd process, so `npm run bench`'s CPU per request holds both; on Cloudflare, D1 runs elsewhere and
 * its time is not billed as the Worker's. The same built Worker is driven with its reads answered by D1 and, on
 * requests carrying `x-bench-reads: memory`, answered from memory (scripts/lib/d1-from-memory.js: a read seen
 * before, same SQL and values, is parsed from the JSON text it gave then). The two ways alternate in every round,
 * on one process and one dataset, so that the machine's drift hits both alike. Per route: CPU ms per request each
 * way, their difference (D1's share), req/s each way, and how many statements a request sent, read from memory
 * or not (a read whose values change with each request, such as the time, still goes to D1). Prints the table and
 * writes tests/bench/results/d1-share.json; no target.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { BENCH_SESSIONS, BENCH_STATE, type BenchCookies, buildBenchData } from "./bench-data.ts";
import { benchRoutes, pickedByBenchOnly } from "./lib/bench-routes.ts";
import { median } from "./lib/bench-timings.ts";
import { bundleWithReadsFromMemory, startBenchWorker } from "./lib/bench-worker.ts";
import { applyMigrations, ROOT } from "./lib/local-d1.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = 10;
const PORT = Number(process.env.BENCH_PORT ?? 8794);
const FROM_MEMORY = { "x-bench-reads": "memory" };

if (!existsSync(BENCH_SESSIONS)) await buildBenchData();
else applyMigrations({ persistTo: BENCH_STATE });
const cookies = JSON.parse(readFileSync(BENCH_SESSIONS, "utf8")) as BenchCookies;

const { mf, origin, workerCpu } = await startBenchWorker(bundleWithReadsFromMemory(), PORT);

const routes = benchRoutes(cookies).filter(pickedByBenchOnly());
const ways = [
  { name: "D1", headers: {} },
  { name: "memory", headers: FROM_MEMORY },
] as const;
type Counts = { fromMemory: number; fromD1: number; writes: number };
const counts = async (): Promise<Counts> => (await fetch(`${origin}/__bench/d1-counts`)).json() as Promise<Counts>;

// Each route answers 200 both ways, with the same page (within the bytes of a nonce or a time), and its reads are
// seen once before the runs, so that the memory runs measure answers from memory.
for (const route of routes) {
  const sizes: number[] = [];
  for (const way of ways) {
    for (let warm = 0; warm < 2; warm++) {
      const response = await fetch(`${origin}${route.path}`, {
        headers: { ...way.headers, ...(route.cookie ? { cookie: route.cookie } : {}) },
        redirect: "manual",
      });
      const body = await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${route.name} answered ${response.status} (${way.name})`);
      if (warm === 1) sizes.push(body.byteLength);
    }
  }
  const [fromD1 = 0, fromMemory = 0] = sizes;
  if (Math.abs(fromD1 - fromMemory) > 200) {
    throw new Error(`${route.name}: ${fromD1} bytes from D1 but ${fromMemory} from memory: not the same page`);
  }
}

type Sample = { rps: number; cpu: number; perRequest?: Counts };
const samples = new Map<string, Sample[]>();
for (let round = 1; round <= ROUNDS; round++) {
  for (const route of routes) {
    for (const way of round % 2 === 1 ? ways : [...ways].reverse()) {
      const countsBefore = await counts();
      const cpuBefore = workerCpu();
      const result = await autocannon({
        url: `${origin}${route.path}`,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: { ...way.headers, ...(route.cookie ? { cookie: route.cookie } : {}) },
      });
      const total = result.requests.total;
      const cpu = total > 0 ? (workerCpu() - cpuBefore) / total : 0;
      const countsAfter = await counts();
      const perRequest =
        way.name === "memory" && total > 0
          ? {
              fromMemory: (countsAfter.fromMemory - countsBefore.fromMemory) / total,
              fromD1: (countsAfter.fromD1 - countsBefore.fromD1) / total,
              writes: (countsAfter.writes - countsBefore.writes) / total,
            }
          : undefined;
      const key = `${route.name}@${way.name}`;
      samples.set(key, [...(samples.get(key) ?? []), { rps: result.requests.average, cpu, perRequest }]);
    }
  }
  console.log(`round ${round} of ${ROUNDS} done`);
}
await mf.dispose();

const figure = (key: string, pick: (sample: Sample) => number | undefined) =>
  median((samples.get(key) ?? []).map(pick).filter((value): value is number => value !== undefined));
const rows = Object.fromEntries(
  routes.map((route) => {
    const cpuD1 = figure(`${route.name}@D1`, (s) => s.cpu);
    const cpuMemory = figure(`${route.name}@memory`, (s) => s.cpu);
    const round = (value: number) => Number(value.toFixed(2));
    return [
      route.name,
      {
        "cpu ms, D1": round(cpuD1),
        "cpu ms, memory": round(cpuMemory),
        "D1's ms": round(cpuD1 - cpuMemory),
        "D1's share": `${Math.round(((cpuD1 - cpuMemory) / (cpuD1 || 1)) * 100)}%`,
        "req/s, D1": Math.round(figure(`${route.name}@D1`, (s) => s.rps)),
        "req/s, memory": Math.round(figure(`${route.name}@memory`, (s) => s.rps)),
        "reads from memory": round(figure(`${route.name}@memory`, (s) => s.perRequest?.fromMemory)),
        "reads to D1": round(figure(`${route.name}@memory`, (s) => s.perRequest?.fromD1)),
        writes: round(figure(`${route.name}@memory`, (s) => s.perRequest?.writes)),
      },
    ];
  }),
);
console.table(rows);
mkdirSync(join(ROOT, "tests", "bench", "results"), { recursive: true });
writeFileSync(
  join(ROOT, "tests", "bench", "results", "d1-share.json"),
  `${JSON.stringify({ date: new Date().toISOString().slice(0, 10), rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, routes: rows }, null, 2)}\n`,
);
