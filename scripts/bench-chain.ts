/**
 * `npm run bench:chain`: what the deposit watcher costs per Bitcoin block (docs/decisions/0067). A block of 3,000
 * transactions, 100 of them paying clients' addresses among 10,000 clients (scripts/lib/chain-bench-world.ts), is
 * served by the chain simulator (in this process) and read by the built Worker's scheduled handler, in workerd under
 * Miniflare, as `npm run bench` runs it:
 * - **CPU ms per block**: the workerd process's user and system time (the Worker, its local D1 and Durable Objects)
 *   over a cron run that reads one full block, minus a run that reads one empty block (the cron's other jobs and the
 *   run's fixed reads). Full blocks of three kinds: paying 100 clients already paid before (their feed objects
 *   exist), 100 clients paid for the first time (each feed object is made, locally in this process), and no client
 *   (the read and the match alone). Medians of BENCH_ROUNDS rounds. Confirmations are out of reach and each run's
 *   payments are set aside after it: the figure is one block's scan, not credits.
 * - **D1 statements per block**: the same scan code (app/server/chain) run in Node over a copy of that database
 *   (scripts/lib/app-on-sqlite.ts), each statement counted: a run reading two full blocks, less a run reading none.
 *   There too, where the CPU goes: Node's time to parse the block, and SQLite's for the block's statements.
 * Writes tests/bench/results/chain.json.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { SqliteD1 } from "./lib/app-on-sqlite.ts";
import { median } from "./lib/bench-timings.ts";
import { startBenchWorker } from "./lib/bench-worker.ts";
import {
  CLIENTS,
  mineFullBlock,
  PAYMENTS_PER_BLOCK,
  pickPayees,
  seedClients,
  TRANSACTIONS_PER_BLOCK,
} from "./lib/chain-bench-world.ts";
import { chainControl, chainWorkerVars } from "./lib/chain-simulator/client.ts";
import { startChainSimulator } from "./lib/chain-simulator.ts";
import { applyMigrations, ROOT } from "./lib/local-d1.ts";
import { bundleWorker } from "./lib/local-worker.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PORT = Number(process.env.BENCH_PORT ?? 8795);
const STATE = join(ROOT, ".wrangler", "bench-chain-state");
const NS = "bench-chain";

rmSync(STATE, { recursive: true, force: true });
applyMigrations({ persistTo: STATE });
const simulator = await startChainSimulator();
const chain = chainControl(simulator.url, NS);
const vars = {
  ...chainWorkerVars(simulator.url, NS),
  // Bitcoin only, and no payment reaches its confirmations: the figures are the scan's.
  ETHEREUM_RPC_URL: "",
  BITCOIN_CONFIRMATIONS: "999",
};
const scriptPath = bundleWorker(join(ROOT, ".wrangler", "bench-chain-bundle"));
const { mf, workerCpu } = await startBenchWorker(scriptPath, PORT, vars, STATE);
const d1 = await mf.getD1Database("DB");
const addresses = await seedClients(d1);
const worker = await mf.getWorker();

const cursor = async () =>
  (await d1.prepare("SELECT height FROM chain_scans WHERE network = 'bitcoin'").first<{ height: number }>())?.height;

/**
 * One cron run, until its scan reached the simulator's tip; the workerd CPU milliseconds it took. Its payments are
 * then taken out of `seen` (as their confirmations would in production): the next run's figure is its block's only.
 */
async function cronRun(): Promise<number> {
  const tip = (await chain.state()).bitcoin.height;
  const before = workerCpu();
  await worker.scheduled({ cron: "* * * * *" });
  // The scheduled event ends with its waitUntil work; the check guards against a runtime that ends it sooner.
  for (let waited = 0; (await cursor()) !== tip; waited++) {
    if (waited > 600) throw new Error(`the watcher did not reach block ${tip}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const cpu = workerCpu() - before;
  await d1.prepare("UPDATE chain_payments SET status = 'dropped' WHERE status = 'seen'").run();
  return cpu;
}

/** The same 100 clients each round: their feeds' Durable Objects exist after the first, as a live client's do. */
const regulars = pickPayees(addresses);
await cronRun();
await mineFullBlock(chain, regulars);
await cronRun(); // The isolate warms up, and the regulars' feeds are made: not counted.
const runs = { empty: [] as number[], unpaid: [] as number[], regulars: [] as number[], newcomers: [] as number[] };
for (let round = 1; round <= ROUNDS; round++) {
  await chain.mine(1);
  runs.empty.push(await cronRun());
  await mineFullBlock(chain, []);
  runs.unpaid.push(await cronRun());
  await mineFullBlock(chain, regulars);
  runs.regulars.push(await cronRun());
  await mineFullBlock(chain, pickPayees(addresses));
  runs.newcomers.push(await cronRun());
  console.log(`round ${round} of ${ROUNDS} done`);
}
const { hash } = (await chain.state()).bitcoin;
const rawBlock = new Uint8Array(await (await fetch(`${chain.esploraUrl}/block/${hash}/raw`)).arrayBuffer());
const payments = await d1.prepare("SELECT count(*) AS n FROM chain_payments").first<{ n: number }>();
const perBlockCpu = (kind: keyof typeof runs) => median(runs[kind]) - median(runs.empty);
await mf.dispose();

// The statements: the same scan in Node over a copy of the database, every statement the app sends counted.
const d1Dir = join(STATE, "v3", "d1", "miniflare-D1DatabaseObject");
const [file] = readdirSync(d1Dir).filter((name) => name.endsWith(".sqlite"));
if (!file) throw new Error(`no database in ${d1Dir}`);
const work = mkdtempSync(join(tmpdir(), "bench-chain-"));
for (const suffix of ["", "-wal", "-shm"]) {
  try {
    copyFileSync(join(d1Dir, file + suffix), join(work, `chain.sqlite${suffix}`));
  } catch {
    // No WAL file to copy.
  }
}
/** The statements a scan sends, and its round trips to D1 (a batch is one, however many statements it holds). */
class CountingD1 extends SqliteD1 {
  batches = 0;
  batched = 0;
  override async batch(statements: Parameters<SqliteD1["batch"]>[0]) {
    this.batches++;
    this.batched += statements.length;
    return super.batch(statements);
  }
}
const sqlite = new DatabaseSync(join(work, "chain.sqlite"));
sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
const counting = new CountingD1(sqlite);
const { createDb } = await import("../app/server/db.server.ts");
const { bitcoinReader } = await import("../app/server/chain/readers.server.ts");
const { scanChain } = await import("../app/server/chain/scan.server.ts");
const { blockOutputs } = await import("../app/lib/chain/bitcoin-block.ts");
const db = createDb(counting as unknown as D1DatabaseSession);
const reader = bitcoinReader(db, { esploraUrl: chain.esploraUrl, network: "testnet", confirmations: 999 });

/** One scan in Node: its statements (those matching addresses, those recording payments) and round trips. */
async function countedScan() {
  counting.log.take();
  counting.batches = 0;
  counting.batched = 0;
  const scan = await scanChain(db, reader, "bench-chain", Date.now());
  if (!scan) throw new Error("the scan did not take its lease");
  const statements = counting.log.take();
  const ms = (pick: (sql: string) => boolean) =>
    statements.filter((s) => pick(s.sql)).reduce((sum, s) => sum + s.ms, 0);
  return {
    statements: statements.length,
    matchingMs: ms((sql) => sql.includes("json_each")),
    recordingMs: ms((sql) => sql.startsWith("INSERT INTO chain_payments")),
    matching: statements.filter((s) => s.sql.includes("json_each")).length,
    recording: statements.filter((s) => s.sql.startsWith("INSERT INTO chain_payments")).length,
    roundTrips: statements.length - counting.batched + counting.batches,
  };
}
/** Node's time to parse the full block (every output's address encoded), as the watcher does before matching. */
const parseMs: number[] = [];
for (let run = 0; run < 7; run++) {
  const started = performance.now();
  blockOutputs(rawBlock, "tb");
  parseMs.push(performance.now() - started);
}
const idle = await countedScan();
await mineFullBlock(chain, pickPayees(addresses));
await mineFullBlock(chain, pickPayees(addresses));
const twoBlocks = await countedScan();
await simulator.close();
sqlite.close();
rmSync(work, { recursive: true, force: true });

const perBlock = (key: keyof typeof idle) => (twoBlocks[key] - idle[key]) / 2;
const figures = {
  block: {
    transactions: TRANSACTIONS_PER_BLOCK,
    "paying clients": PAYMENTS_PER_BLOCK,
    "clients' addresses": CLIENTS,
    "raw block KiB": Math.round(rawBlock.byteLength / 1024),
  },
  "workerd CPU ms per block (a cron run reading it, less one reading an empty block)": {
    "100 payments to clients whose feeds exist": perBlockCpu("regulars"),
    "100 payments to clients paid for the first time": perBlockCpu("newcomers"),
    "no payment of ours (reading and matching only)": perBlockCpu("unpaid"),
    "cron run reading an empty block": median(runs.empty),
  },
  "D1 per block": {
    statements: perBlock("statements"),
    "of which matching addresses": perBlock("matching"),
    "of which recording payments": perBlock("recording"),
    "round trips": perBlock("roundTrips"),
  },
  "D1 per run, besides its blocks": { statements: idle.statements, "round trips": idle.roundTrips },
  "Node ms per block (where the CPU goes)": {
    "parsing the raw block": Number(median(parseMs).toFixed(1)),
    "SQLite, the matching statement": Number(perBlock("matchingMs").toFixed(1)),
    "SQLite, recording 100 payments": Number(perBlock("recordingMs").toFixed(1)),
  },
};
if ((payments?.n ?? 0) < PAYMENTS_PER_BLOCK * 2 * ROUNDS) throw new Error(`only ${payments?.n} payments were recorded`);
for (const [name, table] of Object.entries(figures)) {
  console.log(name);
  console.table(table);
}
mkdirSync(join(ROOT, "tests", "bench", "results"), { recursive: true });
writeFileSync(
  join(ROOT, "tests", "bench", "results", "chain.json"),
  `${JSON.stringify({ date: new Date().toISOString().slice(0, 10), rounds: ROUNDS, runs, ...figures }, null, 2)}\n`,
);
