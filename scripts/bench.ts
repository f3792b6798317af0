/**
 * `npm run bench`: load figures on the realistic dataset of `npm run bench:data`, as ratios taken in one run.
 * The built Worker runs under Miniflare's API (not `wrangler dev`, whose proxy would dominate), on loopback;
 * autocannon drives each route in turn, for several rounds, so that machine drift hits every route alike; the CSV
 * exports are then downloaded one at a time, timing their first and last bytes. Each route's CPU milliseconds per
 * request are the workerd process's user and system time over the route's run, divided by its requests. Prints the
 * tables and the targets (scripts/lib/bench-targets.ts), writes tests/bench/results/latest.json, and exits non-zero
 * when a target is missed, naming it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { BENCH_SESSIONS, BENCH_STATE, BENCH_USERS, type BenchCookies, buildBenchData } from "./bench-data.ts";
import { measureRequestPath, type Sample } from "./lib/bench-requests.ts";
import { benchRoutes, pickedByBenchOnly } from "./lib/bench-routes.ts";
import { benchTargets, REQUEST_ROWS } from "./lib/bench-targets.ts";
import { median, timeDownload, timeRefusedSignIns, timeRegistrations, timeStatementPdf } from "./lib/bench-timings.ts";
import { startBenchWorker } from "./lib/bench-worker.ts";
import { applyMigrations, ROOT } from "./lib/local-d1.ts";
import { bundleWorker } from "./lib/local-worker.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = 10;
const MAX_REQUESTS = 20_000;
const PORT = Number(process.env.BENCH_PORT ?? 8794);

if (!existsSync(BENCH_SESSIONS)) await buildBenchData();
// A dataset made before a later migration gets it (its backfill included), as a developer's local database does.
else applyMigrations({ persistTo: BENCH_STATE });
const cookies = JSON.parse(readFileSync(BENCH_SESSIONS, "utf8")) as BenchCookies;

// The Worker exactly as it would deploy: wrangler bundles it without deploying.
const scriptPath = bundleWorker(join(ROOT, ".wrangler", "bench-bundle"));
const { mf, origin, workerCpu } = await startBenchWorker(scriptPath, PORT);

const ROUTES = benchRoutes(cookies);

/** The heavy client's 20,000-row CSV downloads, timed one at a time: first byte and last byte. */
const EXPORTS: Array<{ name: string; path: string; cookie?: string }> = [
  { name: "/user/{heavy}/export", path: `/user/${BENCH_USERS.heavy}/export`, cookie: cookies.admin },
  { name: "/transactions.csv (heavy)", path: "/transactions.csv", cookie: cookies.heavy },
];
const EXPORT_RUNS = 5;

// BENCH_ONLY=/login,/admin measures only the routes named so (a quick look; ratios need their pairs).
const picked = pickedByBenchOnly();
ROUTES.splice(0, ROUTES.length, ...ROUTES.filter(picked));
EXPORTS.splice(0, EXPORTS.length, ...EXPORTS.filter(picked));

// Each route must answer 200 before it is measured: a redirect to /login would measure the wrong page.
for (const route of [...ROUTES, ...EXPORTS]) {
  const response = await fetch(`${origin}${route.path}`, {
    headers: route.cookie ? { Cookie: route.cookie } : {},
    redirect: "manual",
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${route.name} answered ${response.status}`);
}

const samples = new Map<string, Sample[]>();
for (let round = 1; round <= ROUNDS; round++) {
  for (const route of ROUTES) {
    const cpuBefore = workerCpu();
    const result = await autocannon({
      url: `${origin}${route.path}`,
      connections: CONNECTIONS,
      // Bounded in time and in requests: no run can queue more than MAX_REQUESTS, however fast the route.
      duration: SECONDS,
      maxOverallRequests: MAX_REQUESTS,
      headers: route.cookie ? { cookie: route.cookie } : {},
    });
    const list = samples.get(route.name) ?? [];
    list.push({
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      bytes: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
      cpu: result.requests.total > 0 ? (workerCpu() - cpuBefore) / result.requests.total : 0,
    });
    samples.set(route.name, list);
  }
  console.log(`round ${round} of ${ROUNDS} done`);
}

const downloads = new Map<string, Array<Awaited<ReturnType<typeof timeDownload>>>>();
for (let run = 0; run < EXPORT_RUNS; run++) {
  for (const download of EXPORTS) {
    const list = downloads.get(download.name) ?? [];
    list.push(await timeDownload(origin, download.path, download.cookie));
    downloads.set(download.name, list);
  }
}
// What the old browser app downloaded for the heavy client: the whole history as JSON (every column of every row).
const d1 = await mf.getD1Database("DB");
const history = await d1
  .prepare(
    "SELECT id, transaction_type, amount_cents, created_at, status, trading_pair, stock FROM transactions WHERE user_id = ?",
  )
  .bind(BENCH_USERS.heavy)
  .all();
const historyBytes = new TextEncoder().encode(JSON.stringify(history.results)).length;

const run = { mf, d1, origin, heavyCookie: cookies.heavy };
const statementFigures = picked({ name: "statement PDF" }) ? await timeStatementPdf(run) : {};
const signInFigures = picked({ name: "refused sign-ins" }) ? await timeRefusedSignIns(run) : {};
const registrationFigures = picked({ name: "registrations" }) ? await timeRegistrations(run) : {};
await mf.dispose();

// The request path with monitoring on and off ("requests" in BENCH_ONLY): Workers of their own, after this one.
if (picked({ name: REQUEST_ROWS.on.loaded })) {
  const requestSamples = await measureRequestPath({
    scriptPath,
    port: PORT,
    cookies: cookies.requesters,
    rounds: ROUNDS,
    seconds: SECONDS,
    connections: CONNECTIONS,
  });
  for (const [name, list] of requestSamples) samples.set(name, list);
}

const figures = Object.fromEntries(
  [...samples.keys()].map((name) => {
    const list = samples.get(name) ?? [];
    return [
      name,
      {
        "req/s": Math.round(median(list.map((s) => s.rps))),
        "p50 ms": median(list.map((s) => s.p50)),
        "p99 ms": median(list.map((s) => s.p99)),
        "bytes/response": Math.round(median(list.map((s) => s.bytes))),
        "cpu ms/request": Number(median(list.map((s) => s.cpu)).toFixed(2)),
      },
    ];
  }),
);
console.table(figures);
const exportFigures = Object.fromEntries(
  EXPORTS.map((download) => {
    const list = downloads.get(download.name) ?? [];
    return [
      download.name,
      {
        rows: median(list.map((d) => d.rows)),
        bytes: median(list.map((d) => d.bytes)),
        "first byte ms": Math.round(median(list.map((d) => d.firstByte))),
        "total ms": Math.round(median(list.map((d) => d.total))),
      },
    ];
  }),
);
console.table(exportFigures);
for (const table of [statementFigures, signInFigures, registrationFigures]) {
  if (Object.keys(table).length > 0) console.table(table);
}

const ratios = benchTargets({
  figures,
  exports: exportFigures,
  exportNames: EXPORTS.map((download) => download.name),
  historyBytes,
});
const missed = Object.entries(ratios).filter(([, r]) => (r.atLeast ? r.value < r.target : r.value > r.target));
console.table(
  Object.fromEntries(
    Object.entries(ratios).map(([k, r]) => [
      k,
      { ratio: Number(r.value.toFixed(3)), target: `${r.atLeast ? ">=" : "<="} ${r.target}` },
    ]),
  ),
);

mkdirSync(join(ROOT, "tests", "bench", "results"), { recursive: true });
writeFileSync(
  join(ROOT, "tests", "bench", "results", "latest.json"),
  `${JSON.stringify({ date: new Date().toISOString().slice(0, 10), rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, historyBytes, figures, exports: exportFigures, statementPdf: statementFigures, refusedSignIns: signInFigures, registrations: registrationFigures, ratios }, null, 2)}\n`,
);
if (missed.length > 0) {
  console.error(
    `Targets missed: ${missed.map(([name, r]) => `${name} ${r.value.toFixed(3)} ${r.atLeast ? "<" : ">"} ${r.target}`).join("; ")}`,
  );
  process.exit(1);
}
console.log("Every target holds.");
