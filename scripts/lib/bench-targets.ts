/**
 * The bench's targets (docs/performance.md), as ratios and limits computed from one run's figures: rates
 * against /login's taken in the same run, so that the load on the machine cancels out, and CPU milliseconds per
 * request in the Worker's own process, which that load barely moves.
 */

type RouteFigures = Record<string, Record<string, number>>;
export type Target = { value: number; target: number; atLeast?: boolean };

/** Every page's CPU per request, in the Worker's process: under this, a page stays well inside Workers' limits. */
export const CPU_MS_PER_REQUEST_TARGET = 5;

/**
 * The request path's rows (scripts/lib/bench-requests.ts): the same deposit and withdrawal requests with
 * monitoring on and off, under load and one at a time.
 */
export const REQUEST_ROWS = {
  on: { loaded: "requests (monitoring on)", alone: "requests one at a time (monitoring on)" },
  off: { loaded: "requests (monitoring off)", alone: "requests one at a time (monitoring off)" },
};
const isRequestRow = (name: string) => name.startsWith("requests ");

/** What monitoring may add to the CPU a request costs, in milliseconds. */
export const MONITORING_CPU_MS_TARGET = 2;

/** The "over /login" targets: each page's request rate at least half of /login's. */
const WITHIN_2X_OF_LOGIN = [
  "/admin",
  "/admin/transactions",
  "/user/{heavy}",
  "/transactions (heavy)",
  "/stocks (uncached)",
];

export function benchTargets({
  figures,
  exports,
  exportNames,
  historyBytes,
}: {
  figures: RouteFigures;
  exports: RouteFigures;
  exportNames: string[];
  historyBytes: number;
}): Record<string, Target> {
  // A route left out of the run (BENCH_ONLY) gives NaN, and every target that needs it is left out below.
  const figure = (name: string, key: string) => {
    const value = figures[name]?.[key];
    return value === undefined ? Number.NaN : Math.max(Number(value), 1e-3);
  };
  const p50 = (name: string) => figure(name, "p50 ms");
  const rps = (name: string) => figure(name, "req/s");
  const exportFigure = (name: string, key: "first byte ms" | "total ms") => Number(exports[name]?.[key] ?? Number.NaN);
  const targets: Record<string, Target> = {
    // The cache against a render that costs little: compared with /login, not with the uncached page, whose own
    // rate rises whenever rendering gets cheaper and would make the cache look worse.
    "/stocks cached over /login (req/s, at least)": {
      value: rps("/stocks (visitor, cached)") / rps("/login"),
      target: 2.5,
      atLeast: true,
    },
    "heavy/light dashboard (p50)": { value: p50("/dashboard (heavy)") / p50("/dashboard (light)"), target: 1.2 },
    "heavy/light /portfolio (p50)": { value: p50("/portfolio (heavy)") / p50("/portfolio (light)"), target: 1.2 },
    "heavy/light /transactions (p50)": {
      value: p50("/transactions (heavy)") / p50("/transactions (light)"),
      target: 1.2,
    },
    ...Object.fromEntries(
      WITHIN_2X_OF_LOGIN.map((name) => [
        `${name} over /login (req/s)`,
        { value: rps("/login") / rps(name), target: 2 },
      ]),
    ),
    // Monitoring runs after the answer: what it costs shows in the rate a Worker keeps up and in its CPU; the
    // answer itself, alone on the Worker, may take only a few milliseconds longer.
    "requests, monitoring off over on (req/s)": {
      value: rps(REQUEST_ROWS.off.loaded) / rps(REQUEST_ROWS.on.loaded),
      target: 1.25,
    },
    "requests, CPU ms per request added by monitoring": {
      value: figure(REQUEST_ROWS.on.loaded, "cpu ms/request") - figure(REQUEST_ROWS.off.loaded, "cpu ms/request"),
      target: MONITORING_CPU_MS_TARGET,
    },
    "requests one at a time, p50 added by monitoring (ms)": {
      value: p50(REQUEST_ROWS.on.alone) - p50(REQUEST_ROWS.off.alone),
      target: 3,
    },
    "dashboard bytes over the heavy history's JSON bytes": {
      value: figure("/dashboard (heavy)", "bytes/response") / Math.max(historyBytes, 1),
      target: 0.02,
    },
    ...Object.fromEntries(
      exportNames.flatMap((name) => [
        [
          `${name} first byte over /login (p50)`,
          { value: exportFigure(name, "first byte ms") / p50("/login"), target: 2 },
        ],
        [`${name} total (s)`, { value: exportFigure(name, "total ms") / 1000, target: 1 }],
      ]),
    ),
    // Pages only: a request's figure includes the database's writes and their triggers (see docs/performance.md).
    ...Object.fromEntries(
      Object.entries(figures)
        .filter(([name]) => !isRequestRow(name))
        .map(([name, figure]) => [
          `${name} CPU ms per request`,
          { value: Number(figure["cpu ms/request"] ?? 0), target: CPU_MS_PER_REQUEST_TARGET },
        ]),
    ),
  };
  return Object.fromEntries(Object.entries(targets).filter(([, target]) => Number.isFinite(target.value)));
}
