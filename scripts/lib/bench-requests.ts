/**
 * The request path with transaction monitoring on and off (docs/product.md, "Transaction monitoring"): deposit
 * and withdrawal requests posted in turn by the bench's 1,000 verified clients, through the same forms a browser
 * posts. Each round starts the Worker twice, once with AML_MONITORING=on and once with it off (the switch is a
 * var), so that the two runs share the machine's drift. The rules run after the answer (in waitUntil): the rate
 * and the CPU per request include their cost, the answer's latency only what they take from the requests beside.
 * The requests are written to the bench dataset: its database is copied first and put back after, so that every
 * bench run measures the same data.
 */
import { cpSync, renameSync, rmSync } from "node:fs";
import autocannon from "autocannon";
import { BENCH_STATE } from "../bench-data.ts";
import { REQUEST_ROWS } from "./bench-targets.ts";
import { type BenchWorker, startBenchWorker } from "./bench-worker.ts";

export type Sample = { rps: number; p50: number; p99: number; bytes: number; cpu: number };

/** A valid Bitcoin address outside the firm's wallets: where the requesters withdraw to. */
const PAYOUT_ADDRESS = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";

/** The forms' fields, for the n-th request of a run: deposits of $50 to $3,000, withdrawals of $20 to $500. */
function formFields(kind: "deposit" | "withdraw", n: number): Record<string, string> {
  const spread = (n * 7919) % 1000;
  const idempotencyKey = crypto.randomUUID();
  return kind === "deposit"
    ? { amount: (50 + spread * 2.95).toFixed(2), walletType: "BTC", idempotencyKey }
    : { amount: (20 + spread * 0.48).toFixed(2), cryptoCurrency: "BTC", walletAddress: PAYOUT_ADDRESS, idempotencyKey };
}

function formRequest(origin: string, cookie: string, kind: "deposit" | "withdraw", n: number) {
  return {
    method: "POST" as const,
    path: `/${kind}`,
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin,
      "sec-fetch-site": "same-origin",
      cookie,
    },
    body: new URLSearchParams(formFields(kind, n)).toString(),
  };
}

/** One autocannon run of the requests, alternating deposit and withdrawal, each from the next requester. */
async function drive(worker: BenchWorker, cookies: string[], connections: number, seconds: number): Promise<Sample> {
  let made = 0;
  const next = (kind: "deposit" | "withdraw") => {
    made++;
    return formRequest(worker.origin, cookies[made % cookies.length] ?? "", kind, made);
  };
  const cpuBefore = worker.workerCpu();
  const result = await autocannon({
    url: worker.origin,
    connections,
    duration: seconds,
    // autocannon's request carries its Host header: kept, with the form's own headers added.
    requests: (["deposit", "withdraw"] as const).map((kind) => ({
      setupRequest: (request: autocannon.Request) => {
        const form = next(kind);
        return { ...request, ...form, headers: { ...request.headers, ...form.headers } };
      },
    })),
  });
  // The last requests' rules finish after their answers.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const refused = result["4xx"] + result["5xx"] + result.errors;
  if (refused > 0) throw new Error(`${refused} requests were refused or failed`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
    cpu: result.requests.total > 0 ? (worker.workerCpu() - cpuBefore) / result.requests.total : 0,
  };
}

/** A deposit and a withdrawal, each of which must be taken as a browser's would: a refusal measures the wrong thing. */
async function checkTaken(worker: BenchWorker, cookie: string) {
  for (const kind of ["deposit", "withdraw"] as const) {
    const { method, path, headers, body } = formRequest(worker.origin, cookie, kind, 0);
    const response = await fetch(`${worker.origin}${path}`, { method, headers, body, redirect: "manual" });
    const text = await response.text();
    if (response.status !== 302) throw new Error(`POST ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  }
}

/**
 * Per round and per setting: the requests under load (`connections` at once: the rate a Worker keeps up and its
 * CPU per request), then one at a time (the answer's own latency, which monitoring must not slow by more than a
 * few milliseconds).
 */
export async function measureRequestPath({
  scriptPath,
  port,
  cookies,
  rounds,
  seconds,
  connections,
}: {
  scriptPath: string;
  port: number;
  cookies: string[];
  rounds: number;
  seconds: number;
  connections: number;
}): Promise<Map<string, Sample[]>> {
  const database = `${BENCH_STATE}/v3/d1`;
  const copy = `${BENCH_STATE}/d1-before-requests`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(database, copy, { recursive: true });
  const samples = new Map<string, Sample[]>();
  const add = (name: string, sample: Sample) => samples.set(name, [...(samples.get(name) ?? []), sample]);
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const monitoring of ["on", "off"] as const) {
        const worker = await startBenchWorker(scriptPath, port, { AML_MONITORING: monitoring });
        try {
          await checkTaken(worker, cookies[0] ?? "");
          add(REQUEST_ROWS[monitoring].loaded, await drive(worker, cookies, connections, seconds));
          add(REQUEST_ROWS[monitoring].alone, await drive(worker, cookies, 1, Math.max(1, seconds / 2)));
        } finally {
          await worker.mf.dispose();
        }
      }
      console.log(`request path round ${round} of ${rounds} done`);
    }
  } finally {
    rmSync(database, { recursive: true, force: true });
    renameSync(copy, database);
  }
  return samples;
}
