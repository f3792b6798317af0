/**
 * `npm run bench:profile -- /admin [--requests 400] [--d1]`: where a page's CPU goes in the Worker's own code. The
 * built Worker runs as `npm run bench:d1` runs it, its reads answered from memory (unless `--d1`), so that the
 * profile holds the Worker's work and not the database's; V8's sampling profiler runs over the requests (10 at a
 * time, after a warm-up), and each sample is traced through the bundle's source map to its source file. Prints the
 * self time by package (or by folder of our own code) and the functions that spend most, with their files. The
 * route is one of `npm run bench`'s, by name. Writes the raw profile to .wrangler/bench-profile.cpuprofile, which
 * Chrome's DevTools open.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";
import { BENCH_SESSIONS, BENCH_STATE, type BenchCookies, buildBenchData } from "./bench-data.ts";
import { benchRoutes } from "./lib/bench-routes.ts";
import { bundleWithReadsFromMemory, startBenchWorker } from "./lib/bench-worker.ts";
import { applyMigrations, ROOT } from "./lib/local-d1.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { requests: { type: "string", default: "400" }, d1: { type: "boolean", default: false } },
});
const PORT = Number(process.env.BENCH_PORT ?? 8794);
const INSPECTOR_PORT = PORT + 1;
const REQUESTS = Number(values.requests);
const CONCURRENCY = 10;

if (!existsSync(BENCH_SESSIONS)) await buildBenchData();
else applyMigrations({ persistTo: BENCH_STATE });
const cookies = JSON.parse(readFileSync(BENCH_SESSIONS, "utf8")) as BenchCookies;
const route = benchRoutes(cookies).find((r) => r.name === (positionals[0] ?? "/admin"));
if (!route) throw new Error(`no bench route named ${positionals[0]}: ${benchRoutes(cookies).map((r) => r.name)}`);

const modules = bundleWithReadsFromMemory();
const bundle = modules[1] as string;
const { mf, origin } = await startBenchWorker(modules, PORT, {}, BENCH_STATE, INSPECTOR_PORT);

const headers = {
  ...(route.cookie ? { cookie: route.cookie } : {}),
  ...(values.d1 ? {} : { "x-bench-reads": "memory" }),
};
async function drive(count: number) {
  let next = 0;
  const one = async () => {
    while (next++ < count)
      await (await fetch(`${origin}${route?.path}`, { headers, redirect: "manual" })).arrayBuffer();
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, one));
}
await drive(100);

/** The Chrome DevTools protocol over the inspector's socket: one call at a time, answered by id. */
const targets = (await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json`)).json()) as Array<{
  title: string;
  webSocketDebuggerUrl: string;
}>;
const target = targets.find((t) => !t.title.startsWith("core:")) ?? targets[0];
if (!target) throw new Error("the inspector lists no Worker");
const socket = new WebSocket(target.webSocketDebuggerUrl);
await new Promise((resolve) => socket.addEventListener("open", resolve, { once: true }));
let lastId = 0;
const pending = new Map<number, (result: unknown) => void>();
socket.addEventListener("message", (event) => {
  const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
  if (message.id !== undefined) pending.get(message.id)?.(message.result);
});
const call = <T>(method: string, params: object = {}) =>
  new Promise<T>((resolve) => {
    const id = ++lastId;
    pending.set(id, resolve as (result: unknown) => void);
    socket.send(JSON.stringify({ id, method, params }));
  });

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };
await call("Profiler.enable");
await call("Profiler.setSamplingInterval", { interval: 50 });
await call("Profiler.start");
await drive(REQUESTS);
const { profile } = await call<{ profile: Profile }>("Profiler.stop");
socket.close();
await mf.dispose();
writeFileSync(join(ROOT, ".wrangler", "bench-profile.cpuprofile"), JSON.stringify(profile));

// Each sample's time is the delta that follows it; every node's self time, traced to its source.
const selfMicros = new Map<number, number>();
profile.samples.forEach((nodeId, i) => {
  selfMicros.set(nodeId, (selfMicros.get(nodeId) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
});
const map = new TraceMap(readFileSync(`${bundle}.map`, "utf8"));
const sourceOf = (node: Node) => {
  const frame = node.callFrame;
  if (!frame.url.endsWith("app.js")) return { file: frame.url || `(${frame.functionName || "V8"})`, line: 0 };
  const original = originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber });
  return { file: original.source ?? "app.js", line: original.line ?? 0 };
};
/**
 * A package under node_modules (drizzle's own source map names its files `../src/…`, which resolve to
 * `node_modules/src/…`: drizzle-orm is the one package bundled whose map does so); the React Router build of our
 * routes and components (one file, `build/server/index.js`); our other code by its top folders; and the runtime's
 * own work (V8, the garbage collector, workerd's built-ins such as Response and URL) by name.
 */
const groupOf = (file: string) => {
  const dependency = file.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (dependency) return dependency[1] === "src" ? "drizzle-orm" : (dependency[1] as string);
  if (file.endsWith("build/server/index.js")) return "our routes and components";
  const own = file.match(/\/((?:app|workers|db)(?:\/[^/.]+)?)\//);
  if (own) return own[1] as string;
  return file.startsWith("(") ? `runtime ${file}` : file;
};
const byGroup = new Map<string, number>();
const byFunction = new Map<string, number>();
for (const node of profile.nodes) {
  const micros = selfMicros.get(node.id) ?? 0;
  if (micros === 0) continue;
  const { file, line } = sourceOf(node);
  byGroup.set(groupOf(file), (byGroup.get(groupOf(file)) ?? 0) + micros);
  const name = `${node.callFrame.functionName || "(anonymous)"} ${file.replace(/^.*node_modules\//, "")}:${line}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
}
const total = [...byGroup.values()].reduce((a, b) => a + b, 0);
const perRequest = (micros: number) => Number((micros / 1_000 / REQUESTS).toFixed(3));
const table = (entries: Map<string, number>, top: number) =>
  Object.fromEntries(
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => [
        name,
        { "ms/request": perRequest(micros), share: `${((micros / total) * 100).toFixed(1)}%` },
      ]),
  );
console.log(
  `${route.name}, ${REQUESTS} requests, reads ${values.d1 ? "from D1" : "from memory"}: ${perRequest(total)} ms a request sampled in the isolate`,
);
console.table(table(byGroup, 25));
console.table(table(byFunction, 40));
