/**
 * `npm run bench:growth [-- --sizes 10000,100000]`: the same pages on the bench dataset at two sizes of the firm
 * (`npm run bench:data -- --clients N`, built here when missing), in one run, so that what grows with the firm shows
 * as a ratio. Both Workers run side by side under Miniflare; every round drives each route on the small firm, then
 * on the large one, so that the machine's drift hits both alike. Per route: req/s, p50 and CPU milliseconds per
 * request at each size, and the large firm's cost over the small one's. The target: CPU per request within 1.2 of
 * the small firm's on every page, the back office's searches and filters included; the whole-firm CSV at a constant
 * rate per 1,000 rows. Prints the tables, writes tests/bench/results/growth.json, and exits non-zero naming each
 * miss.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { BENCH_USERS, type BenchCookies, type BenchDataset, benchDataset, buildBenchData } from "./bench-data.ts";
import { median } from "./lib/bench-timings.ts";
import { startBenchWorker } from "./lib/bench-worker.ts";
import { applyMigrations, ROOT } from "./lib/local-d1.ts";
import { bundleWorker } from "./lib/local-worker.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = 10;
const PORT = Number(process.env.BENCH_PORT ?? 8794);
/** The large firm's cost may be at most this many times the small one's. */
const GROWTH_TARGET = 1.2;
/** How long the whole-firm CSV is read at each size: long enough for a steady rate, short of the whole file. */
const CSV_SECONDS = 15;

const { values } = parseArgs({ options: { sizes: { type: "string", default: "10000,100000" } } });
const sizes = (values.sizes ?? "").split(",").map(Number);
if (sizes.length !== 2) throw new Error("--sizes takes two client counts, e.g. 10000,100000");
const datasets = sizes.map((clients) => benchDataset(clients));

for (const dataset of datasets) {
  if (existsSync(dataset.sessions)) {
    applyMigrations({ persistTo: dataset.state });
    continue;
  }
  const started = performance.now();
  await buildBenchData(dataset);
  console.log(`built ${dataset.clients} clients in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
}

/**
 * What the desk searches for: a client the text names alone at every size (the e-mails are numbered); a part of
 * the e-mail one client in ten has, spread over the list as a common name is; and a name part thousands share, all
 * of them among the oldest clients (the dataset numbers clients in the order they joined), which no real name does.
 * The last is printed without a target: the list, newest first, finds its page only after every newer client.
 */
const ONE_CLIENT = "user1234-001234";
const ONE_IN_TEN = encodeURIComponent("3@bench");
const OLDEST_ONLY = "Last12";
type Route = { name: string; path: string; as?: "admin" | "light" | "heavy"; noTarget?: string };
const ROUTES: Route[] = [
  { name: "/login", path: "/login" },
  { name: "/dashboard (light)", path: "/dashboard", as: "light" },
  { name: "/transactions (light)", path: "/transactions", as: "light" },
  { name: "/admin", path: "/admin", as: "admin" },
  { name: "/admin?q=one client", path: `/admin?q=${ONE_CLIENT}`, as: "admin" },
  { name: "/admin?q=one in ten", path: `/admin?q=${ONE_IN_TEN}`, as: "admin" },
  {
    name: "/admin?q=thousands, all oldest",
    path: `/admin?q=${OLDEST_ONLY}`,
    as: "admin",
    noTarget: "matches only among the oldest clients",
  },
  { name: "/admin?sort=balance", path: "/admin?sort=balance", as: "admin" },
  { name: "/admin/transactions", path: "/admin/transactions", as: "admin" },
  { name: "/admin/transactions?status=pending", path: "/admin/transactions?status=pending", as: "admin" },
  { name: "/admin/transactions?client=", path: `/admin/transactions?client=${ONE_CLIENT}`, as: "admin" },
  { name: "/admin/transactions?min=&max= (rare)", path: "/admin/transactions?min=4999.99&max=5000", as: "admin" },
  { name: "/admin/audit", path: "/admin/audit", as: "admin" },
  { name: "/user/{light}", path: `/user/${BENCH_USERS.light}`, as: "admin" },
  { name: "/user/{heavy}", path: `/user/${BENCH_USERS.heavy}`, as: "admin" },
];
const only = process.env.BENCH_ONLY?.split(",").map((name) => name.trim());
const routes = ROUTES.filter((route) => !only || only.some((prefix) => route.name.startsWith(prefix)));

const scriptPath = bundleWorker(join(ROOT, ".wrangler", "bench-bundle"));
const firms: Array<Awaited<ReturnType<typeof startBenchWorker>> & { dataset: BenchDataset; cookies: BenchCookies }> =
  [];
for (const [index, dataset] of datasets.entries()) {
  const worker = await startBenchWorker(scriptPath, PORT + index, {}, dataset.state);
  const cookies = JSON.parse(readFileSync(dataset.sessions, "utf8")) as BenchCookies;
  firms.push({ ...worker, dataset, cookies });
}
const headersFor = (firm: (typeof firms)[number], as?: "admin" | "light" | "heavy"): Record<string, string> =>
  as ? { cookie: firm.cookies[as] } : {};

// Each route must answer 200 at both sizes before it is measured: a redirect would measure the wrong page.
for (const firm of firms) {
  for (const route of routes) {
    const response = await fetch(`${firm.origin}${route.path}`, {
      headers: headersFor(firm, route.as),
      redirect: "manual",
    });
    await response.arrayBuffer();
    if (response.status !== 200)
      throw new Error(`${route.name} answered ${response.status} at ${firm.dataset.clients}`);
  }
}

type Sample = { rps: number; p50: number; cpu: number };
const samples = new Map<string, Sample[]>();
for (let round = 1; round <= ROUNDS; round++) {
  for (const route of routes) {
    for (const firm of firms) {
      const cpuBefore = firm.workerCpu();
      const result = await autocannon({
        url: `${firm.origin}${route.path}`,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: headersFor(firm, route.as),
      });
      const key = `${route.name}@${firm.dataset.clients}`;
      const list = samples.get(key) ?? [];
      const total = result.requests.total;
      list.push({
        rps: result.requests.average,
        p50: result.latency.p50,
        cpu: total > 0 ? (firm.workerCpu() - cpuBefore) / total : 0,
      });
      samples.set(key, list);
    }
  }
  console.log(`round ${round} of ${ROUNDS} done`);
}

/** The whole-firm CSV read for CSV_SECONDS (or to its end): rows per second once the first byte came. */
async function csvRate(firm: (typeof firms)[number]) {
  const started = performance.now();
  const response = await fetch(`${firm.origin}/admin/transactions.csv`, { headers: headersFor(firm, "admin") });
  if (response.status !== 200) throw new Error(`the whole-firm CSV answered ${response.status}`);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let firstByte = 0;
  let lines = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    if (firstByte === 0) firstByte = performance.now() - started;
    for (const byte of chunk.value) if (byte === 10) lines++;
    if (performance.now() - started > CSV_SECONDS * 1_000) {
      await reader.cancel();
      break;
    }
  }
  const streaming = performance.now() - started - firstByte;
  return {
    firstByte: Math.round(firstByte),
    rows: lines - 1,
    msPer1000Rows: (streaming / Math.max(lines - 1, 1)) * 1_000,
  };
}
const csv: Array<{ clients: number } & Awaited<ReturnType<typeof csvRate>>> = [];
if (!only || only.some((prefix) => "/admin/transactions.csv".startsWith(prefix))) {
  for (const firm of firms) csv.push({ clients: firm.dataset.clients, ...(await csvRate(firm)) });
}
for (const firm of firms) await firm.mf.dispose();

const [small, large] = datasets.map((dataset) => dataset.clients) as [number, number];
const figure = (route: string, clients: number, pick: (sample: Sample) => number) =>
  median((samples.get(`${route}@${clients}`) ?? []).map(pick));
const rows = Object.fromEntries(
  routes.map((route) => {
    const cpu = [figure(route.name, small, (s) => s.cpu), figure(route.name, large, (s) => s.cpu)];
    const rps = [figure(route.name, small, (s) => s.rps), figure(route.name, large, (s) => s.rps)];
    const p50 = [figure(route.name, small, (s) => s.p50), figure(route.name, large, (s) => s.p50)];
    return [
      route.name,
      {
        [`req/s ${small}`]: Math.round(rps[0] ?? 0),
        [`req/s ${large}`]: Math.round(rps[1] ?? 0),
        [`p50 ms ${small}`]: p50[0],
        [`p50 ms ${large}`]: p50[1],
        [`cpu ms ${small}`]: Number((cpu[0] ?? 0).toFixed(2)),
        [`cpu ms ${large}`]: Number((cpu[1] ?? 0).toFixed(2)),
        "cpu ratio": Number(((cpu[1] ?? 0) / (cpu[0] || 1)).toFixed(2)),
        "req/s ratio": Number(((rps[0] ?? 0) / (rps[1] || 1)).toFixed(2)),
      },
    ];
  }),
);
console.table(rows);
if (csv.length > 0) console.table(csv.map((c) => ({ ...c, msPer1000Rows: Number(c.msPer1000Rows.toFixed(1)) })));

const misses = routes
  .filter((route) => !route.noTarget && (rows[route.name]?.["cpu ratio"] ?? 0) > GROWTH_TARGET)
  .map((route) => `${route.name} ${rows[route.name]?.["cpu ratio"]}`);
for (const route of routes.filter((r) => r.noTarget)) console.log(`No target: ${route.name} (${route.noTarget})`);
const csvRatio = csv.length === 2 ? (csv[1]?.msPer1000Rows ?? 0) / (csv[0]?.msPer1000Rows || 1) : null;
if (csvRatio !== null && csvRatio > GROWTH_TARGET) misses.push(`whole-firm CSV per 1,000 rows ${csvRatio.toFixed(2)}`);

mkdirSync(join(ROOT, "tests", "bench", "results"), { recursive: true });
writeFileSync(
  join(ROOT, "tests", "bench", "results", "growth.json"),
  `${JSON.stringify({ date: new Date().toISOString().slice(0, 10), sizes, rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, routes: rows, csv, target: GROWTH_TARGET, misses }, null, 2)}\n`,
);
if (misses.length > 0) {
  console.error(`Grows more than ${GROWTH_TARGET}x from ${small} to ${large} clients: ${misses.join("; ")}`);
  process.exit(1);
}
console.log(`Every page within ${GROWTH_TARGET}x from ${small} to ${large} clients.`);
