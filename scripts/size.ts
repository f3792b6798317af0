/**
 * `npm run size`: the JavaScript each route sends (entry + shared chunks + the route chain's modules, gzip),
 * read from the React Router build manifest (build/client/assets/manifest-*.js, written by `npm run build`). Fails when a
 * route exceeds 171 KiB, the landing page 136 KiB or the back office's client page 175 KiB: React 19's client costs
 * about 23 KiB of each, the theme switch about 1 KiB, a client's positions and orders on the client page 3 KiB
 * (docs/decisions/0062).
 * Runs in CI after the build.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT } from "./lib/local-d1.ts";

const BUDGET_KIB = 171;
const LANDING_BUDGET_KIB = 136;
/** The client page of the back office (/user/{id}): staff's desktop page, which carries the most (decision 0062). */
const CLIENT_PAGE_BUDGET_KIB = 175;

const budgetOf = (route: string) =>
  route === "/" ? LANDING_BUDGET_KIB : route === "/user/:id" ? CLIENT_PAGE_BUDGET_KIB : BUDGET_KIB;

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
}
interface Manifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
}

/** The browser's build: the manifest's URLs (`/assets/…`) are paths under it. */
const clientDir = join(ROOT, "build", "client");
const assetsDir = join(clientDir, "assets");
/**
 * The manifest the server build names: after `npm run dev` the folder also holds the manifests of earlier rebuilds.
 * A server build without one (or none at all) falls back to the only manifest there is.
 */
function manifestOfTheBuild(): string | undefined {
  const serverBuild = join(ROOT, "build", "server", "index.js");
  const named = existsSync(serverBuild)
    ? /"\/assets\/(manifest-[0-9a-f]+\.js)"/.exec(readFileSync(serverBuild, "utf8"))?.[1]
    : undefined;
  if (named && existsSync(join(assetsDir, named))) return named;
  const found = existsSync(assetsDir) ? readdirSync(assetsDir).filter((name) => /^manifest-.*\.js$/.test(name)) : [];
  return found.length === 1 ? found[0] : undefined;
}
const manifestFile = manifestOfTheBuild();
if (!manifestFile) {
  console.error("No React Router build manifest in build/client/assets: run `npm run build` first.");
  process.exit(1);
}
const manifestSource = readFileSync(join(assetsDir, manifestFile), "utf8");
const manifest = JSON.parse(
  manifestSource.slice(manifestSource.indexOf("{"), manifestSource.lastIndexOf("}") + 1),
) as Manifest;

const gzipCache = new Map<string, number>();
function gzipBytes(url: string): number {
  let size = gzipCache.get(url);
  if (size === undefined) {
    size = gzipSync(readFileSync(join(clientDir, url))).length;
    gzipCache.set(url, size);
  }
  return size;
}

function urlOf(route: ManifestRoute): string {
  const parts: string[] = [];
  let current: ManifestRoute | undefined = route;
  while (current && current.id !== "root") {
    if (current.path) parts.unshift(current.path);
    current = current.parentId ? manifest.routes[current.parentId] : undefined;
  }
  return `/${parts.join("/")}`.replace(/\/+/g, "/");
}

/** Resource routes (robots.txt, CSV export, …) render no page and send no JavaScript. */
function rendersPage(routeId: string): boolean {
  for (const extension of [".tsx", ".ts", ".jsx", ".js"]) {
    const file = join(ROOT, "app", `${routeId}${extension}`);
    if (existsSync(file)) return /export default/.test(readFileSync(file, "utf8"));
  }
  return true;
}

const rows: Array<{ route: string; files: number; kib: number }> = [];
for (const route of Object.values(manifest.routes)) {
  if (route.id === "root" || !rendersPage(route.id)) continue;
  const files = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
  let current: ManifestRoute | undefined = route;
  while (current) {
    files.add(current.module);
    for (const file of current.imports ?? []) files.add(file);
    current = current.parentId ? manifest.routes[current.parentId] : undefined;
  }
  const bytes = [...files].reduce((sum, file) => sum + gzipBytes(file), 0);
  rows.push({ route: urlOf(route), files: files.size, kib: Math.round((bytes / 1024) * 10) / 10 });
}
rows.sort((a, b) => b.kib - a.kib);
console.table(Object.fromEntries(rows.map((row) => [row.route, { files: row.files, "JS gzip (KiB)": row.kib }])));

const overBudget = rows.filter((row) => row.kib > budgetOf(row.route));
if (overBudget.length > 0) {
  for (const row of overBudget) {
    console.error(`Over budget: ${row.route} sends ${row.kib} KiB (budget ${budgetOf(row.route)} KiB)`);
  }
  process.exit(1);
}
console.log(
  `Every route is within ${BUDGET_KIB} KiB (the landing page within ${LANDING_BUDGET_KIB} KiB, the back office's client page within ${CLIENT_PAGE_BUDGET_KIB} KiB).`,
);
