/**
 * `npm run bench`: load figures on the realistic dataset of `npm run bench:data`, as ratios taken in one run.
 * The built Worker runs under Miniflare's API (not `wrangler dev`, whose proxy would dominate), on loopback;
 * autocannon drives each route in turn, for several rounds, so that machine drift hits every route alike; the CSV
 * exports are then downloaded one at a time, timing their first and last bytes. Each route's CPU milliseconds per
 * request are the workerd process's user and system time over the route's run, divided by its requests. Prints the
 * tables and the targets (scripts/lib/bench-targets.ts), writes tests/bench/results/latest.json, and exits non-zero
 * when a target is missed, naming it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { BENCH_SESSIONS, BENCH_STATE, BENCH_USERS, type BenchCookies, buildBenchData } from "./bench-data.ts";
import { measureRequestPath, type Sample } from "./lib/bench-requests.ts";
import { benchTargets, REQUEST_ROWS } from "./lib/bench-targets.ts";
import { startBenchWorker } from "./lib/bench-worker.ts";
import { applyMigrations, BIN, quietEnv, ROOT } from "./lib/local-d1.ts";

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
const bundleDir = join(ROOT, ".wrangler", "bench-bundle");
const bundle = spawnSync(join(BIN, "wrangler"), ["deploy", "--dry-run", "--outdir", bundleDir], {
  cwd: ROOT,
  env: quietEnv,
  encoding: "utf8",
});
if (bundle.status !== 0) throw new Error(`bundling failed:\n${bundle.stderr}`);

const scriptPath = join(bundleDir, "app.js");
const { mf, origin, workerCpu } = await startBenchWorker(scriptPath, PORT);

/**
 * The routes driven by autocannon. /stocks for a visitor comes from the edge cache after its first request; the
 * same request with a cookie the cache does not know is rendered every time (such a cookie bypasses the cache):
 * the two rows are the cached and uncached rates of one public page.
 */
const ROUTES: Array<{ name: string; path: string; cookie?: string }> = [
  { name: "/healthz", path: "/healthz" },
  { name: "/login", path: "/login" },
  { name: "/stocks (visitor, cached)", path: "/stocks" },
  { name: "/stocks (uncached)", path: "/stocks", cookie: "bench-uncached=1" },
  { name: "/dashboard (light)", path: "/dashboard", cookie: cookies.light },
  { name: "/dashboard (heavy)", path: "/dashboard", cookie: cookies.heavy },
  { name: "/portfolio (light)", path: "/portfolio", cookie: cookies.light },
  { name: "/portfolio (heavy)", path: "/portfolio", cookie: cookies.heavy },
  { name: "/transactions (light)", path: "/transactions", cookie: cookies.light },
  { name: "/transactions (heavy)", path: "/transactions", cookie: cookies.heavy },
  { name: "/admin", path: "/admin", cookie: cookies.admin },
  { name: "/admin/transactions", path: "/admin/transactions", cookie: cookies.admin },
  { name: "/user/{heavy}", path: `/user/${BENCH_USERS.heavy}`, cookie: cookies.admin },
];

/** The heavy client's 20,000-row CSV downloads, timed one at a time: first byte and last byte. */
const EXPORTS: Array<{ name: string; path: string; cookie?: string }> = [
  { name: "/user/{heavy}/export", path: `/user/${BENCH_USERS.heavy}/export`, cookie: cookies.admin },
  { name: "/transactions.csv (heavy)", path: "/transactions.csv", cookie: cookies.heavy },
];
const EXPORT_RUNS = 5;

/** BENCH_ONLY=/login,/admin measures only the routes whose names start so (a quick look; ratios need their pairs). */
const only = process.env.BENCH_ONLY?.split(",").map((name) => name.trim());
const picked = (route: { name: string }) => !only || only.some((prefix) => route.name.startsWith(prefix));
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** One download, alone on the Worker: milliseconds to the first body byte and to the last, and its size. */
async function timeDownload(path: string, cookie?: string) {
  const started = performance.now();
  const response = await fetch(`${origin}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let firstByte = 0;
  let bytes = 0;
  let lines = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    if (firstByte === 0) firstByte = performance.now() - started;
    bytes += chunk.value.length;
    for (const byte of chunk.value) if (byte === 10) lines++;
  }
  return { firstByte, total: performance.now() - started, bytes, rows: lines - 1 };
}
const downloads = new Map<string, Array<Awaited<ReturnType<typeof timeDownload>>>>();
for (let run = 0; run < EXPORT_RUNS; run++) {
  for (const download of EXPORTS) {
    const list = downloads.get(download.name) ?? [];
    list.push(await timeDownload(download.path, download.cookie));
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

/**
 * A statement PDF of the heavy client's busiest closed month (about 830 rows): the first download builds and keeps
 * it, the second is the kept copy. Its kept copies are deleted first, so every run times a build.
 */
async function timeStatementPdf() {
  const statements = await mf.getR2Bucket("STATEMENTS");
  const prefix = `statements/${BENCH_USERS.heavy}/`;
  for (const object of (await statements.list({ prefix })).objects) await statements.delete(object.key);
  const thisMonth = new Date().toISOString().slice(0, 7);
  const busiest = await d1
    .prepare(
      "SELECT strftime('%Y-%m', created_at / 1000, 'unixepoch') AS month, count(*) AS rows FROM transactions WHERE user_id = ? GROUP BY month HAVING month < ? ORDER BY rows DESC LIMIT 1",
    )
    .bind(BENCH_USERS.heavy, thisMonth)
    .first<{ month: string; rows: number }>();
  if (!busiest) throw new Error("the heavy client has no closed month");
  const first = await timeDownload(`/statements/${busiest.month}.pdf`, cookies.heavy);
  const second = await timeDownload(`/statements/${busiest.month}.pdf`, cookies.heavy);
  const kept = (await statements.list({ prefix })).objects.length;
  if (kept !== 1 || second.bytes !== first.bytes) throw new Error("the statement PDF was not kept");
  return {
    [`statement PDF ${busiest.month} (heavy)`]: {
      "rows made that month": busiest.rows,
      KiB: Math.round(first.bytes / 1024),
      "first download ms (build, keep)": Math.round(first.total),
      "second download ms (kept copy)": Math.round(second.total),
    },
  };
}

/**
 * Refused sign-ins at production's password cost: a wrong password for an unknown e-mail and for an account that
 * has no password (the light client's, emptied for the run and put back) should take alike, so that the time does
 * not tell which e-mails have an account. Each try comes from its own address, so none counts towards another's
 * budget.
 */
async function timeRefusedSignIns() {
  const light = await d1
    .prepare("SELECT email, password_hash FROM users WHERE id = ?")
    .bind(BENCH_USERS.light)
    .first<{ email: string; password_hash: string }>();
  if (!light) throw new Error("the light client is missing");
  let address = 0;
  const refusal = async (email: string) => {
    const started = performance.now();
    const response = await fetch(`${origin}/login`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: origin,
        "Sec-Fetch-Site": "same-origin",
        "CF-Connecting-IP": `198.51.100.${++address}`,
      },
      body: new URLSearchParams({ email, password: "a wrong password", redirectTo: "" }).toString(),
      redirect: "manual",
    });
    await response.arrayBuffer();
    if (response.status !== 401) throw new Error(`a refused sign-in answered ${response.status}`);
    return performance.now() - started;
  };
  await d1.prepare("UPDATE users SET password_hash = '' WHERE id = ?").bind(BENCH_USERS.light).run();
  try {
    // The throwaway hash an unknown e-mail is checked against is made at the first.
    await refusal("warm-up@bench.example");
    const unknown: number[] = [];
    const passwordless: number[] = [];
    for (let run = 0; run < SIGN_IN_RUNS; run++) {
      unknown.push(await refusal(`nobody-${run}@bench.example`));
      passwordless.push(await refusal(light.email));
    }
    return {
      [`refused sign-ins (median of ${SIGN_IN_RUNS})`]: {
        "unknown e-mail ms": Math.round(median(unknown)),
        "account without a password ms": Math.round(median(passwordless)),
        "ratio (without a password / unknown)": Number((median(passwordless) / median(unknown)).toFixed(2)),
      },
    };
  } finally {
    // The failures the tries recorded, so that the next run starts within every budget again.
    await d1
      .prepare("DELETE FROM auth_failures WHERE key = ? OR key LIKE '%@bench.example' OR key LIKE '198.51.100.%'")
      .bind(light.email)
      .run();
    await d1
      .prepare("UPDATE users SET password_hash = ? WHERE id = ?")
      .bind(light.password_hash, BENCH_USERS.light)
      .run();
  }
}
// Within the per-account budget (10 failures in 15 minutes), so that every try is a plain refusal.
const SIGN_IN_RUNS = 7;
const statementFigures = picked({ name: "statement PDF" }) ? await timeStatementPdf() : {};
const signInFigures = picked({ name: "refused sign-ins" }) ? await timeRefusedSignIns() : {};
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
if (Object.keys(statementFigures).length > 0) console.table(statementFigures);
if (Object.keys(signInFigures).length > 0) console.table(signInFigures);

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
  `${JSON.stringify({ date: new Date().toISOString().slice(0, 10), rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, historyBytes, figures, exports: exportFigures, statementPdf: statementFigures, refusedSignIns: signInFigures, ratios }, null, 2)}\n`,
);
if (missed.length > 0) {
  console.error(
    `Targets missed: ${missed.map(([name, r]) => `${name} ${r.value.toFixed(3)} ${r.atLeast ? "<" : ">"} ${r.target}`).join("; ")}`,
  );
  process.exit(1);
}
console.log("Every target holds.");
