/**
 * `npx node scripts/db-footprint.ts` (the project's Node 24, for node:sqlite): the figures of
 * docs/decisions/0028-scale-plan.md, from the bench dataset (`npm run bench:data` first). Works on a copy of the
 * local D1 file, never on the file itself:
 * 1. what each table and index holds (SQLite's dbstat), per client and per transaction;
 * 2. each page's D1 batch, run through the app's own query code (app/server) on that copy, its statements counted
 *    and timed (SQLite on this machine, no network: a floor for what D1 spends), with the plan of the slow ones;
 * 3. what the app's write paths add: N deposit and N withdrawal requests with their decisions, and N sessions
 *    and sign-in records, written by the app's functions, measured as the growth of each table and index;
 * 4. what those requests keep: 30 days on (mail delivered and archived) and 14 months on (audit rows archived,
 *    notifications past their keeping time deleted, archived mail's compact rows gone to their objects), each by
 *    the cron's own functions.
 * Prints markdown. `--sample N` sets N (default 2,000).
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { BENCH_SESSIONS, BENCH_STATE, BENCH_USERS } from "./bench-data.ts";
import { SqliteD1 } from "./lib/app-on-sqlite.ts";
import { applyMigrations } from "./lib/local-d1.ts";

const SAMPLE = Number(process.argv[process.argv.indexOf("--sample") + 1]) || 2_000;
const D1_DIR = join(BENCH_STATE, "v3", "d1", "miniflare-D1DatabaseObject");

function benchDatabase(): string {
  const files = existsSync(D1_DIR) ? readdirSync(D1_DIR).filter((f) => /^[0-9a-f]{64}\.sqlite$/.test(f)) : [];
  if (files.length !== 1) throw new Error(`No bench database in ${D1_DIR}: run \`npm run bench:data\` first.`);
  return join(D1_DIR, files[0] as string);
}

// A dataset built before the latest migrations gets them first, as `npm run bench` gives them.
if (existsSync(D1_DIR)) applyMigrations({ persistTo: BENCH_STATE });
const work = mkdtempSync(join(tmpdir(), "db-footprint-"));
const copy = join(work, "bench.sqlite");
const source = benchDatabase();
for (const suffix of ["", "-wal", "-shm"])
  if (existsSync(source + suffix)) copyFileSync(source + suffix, copy + suffix);
const sqlite = new DatabaseSync(copy);
sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
// The decisions below are the bench admin's: an owner, as bench-data makes them (a dataset built before roles
// existed gets the role here, in the copy only; the database's guards refuse a decision by an admin without it).
sqlite.prepare("INSERT OR IGNORE INTO admin_roles (user_id, role) VALUES (?, 'owner')").run(BENCH_USERS.admin);

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
const row = (...cells: Array<string | number>) => console.log(`| ${cells.join(" | ")} |`);
const header = (...cells: string[]) => {
  row(...cells);
  row(...cells.map(() => "---"));
};

type Objects = Map<string, { table: string; bytes: number }>;

/**
 * Bytes per table and index (pages they own, page size included), from dbstat; `inUse` counts only the bytes the
 * rows take (page size less its unused space), which a row that shrinks gives back to later rows.
 */
function objects(inUse = false): Objects {
  const owner = new Map(
    (sqlite.prepare("SELECT name, tbl_name FROM sqlite_schema").all() as Array<{ name: string; tbl_name: string }>).map(
      (o) => [o.name, o.tbl_name],
    ),
  );
  const bytes = inUse ? "sum(pgsize - unused)" : "sum(pgsize)";
  const rows = sqlite.prepare(`SELECT name, ${bytes} AS bytes FROM dbstat GROUP BY name`).all() as Array<{
    name: string;
    bytes: number;
  }>;
  return new Map(rows.map((r) => [r.name, { table: owner.get(r.name) ?? r.name, bytes: r.bytes }]));
}

const count = (table: string) => (sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const fileBytes = () => {
  const { page_count } = sqlite.prepare("PRAGMA page_count").get() as { page_count: number };
  const { page_size } = sqlite.prepare("PRAGMA page_size").get() as { page_size: number };
  return page_count * page_size;
};
const tableBytes = (o: Objects, table: string) =>
  [...o.values()].filter((x) => x.table === table).reduce((s, x) => s + x.bytes, 0);

// 1. The dataset as built.
const before = objects();
const total = fileBytes();
const clients = count("profiles WHERE role = 'user'");
const transactionCount = count("transactions");
console.log(`# Bench dataset footprint (${source.replace(process.cwd(), ".")})\n`);
console.log(`${int(clients)} clients, ${int(transactionCount)} transactions, file ${mb(total)} MB`);
const vacuumed = join(work, "vacuumed.sqlite");
sqlite.exec(`VACUUM INTO '${vacuumed}'`);
console.log(`after VACUUM: ${mb(statSync(vacuumed).size)} MB\n`);
rmSync(vacuumed);

header("table or index", "table", "rows of the table", "MB", "share", "bytes per row of its table");
const counted = new Map<string, number>();
for (const [name, o] of [...before.entries()].sort((a, b) => b[1].bytes - a[1].bytes)) {
  if (o.bytes <= 4096) continue;
  if (!counted.has(o.table)) counted.set(o.table, count(`"${o.table}"`));
  const rows = counted.get(o.table) ?? 0;
  row(
    name,
    o.table,
    int(rows),
    mb(o.bytes),
    `${((o.bytes / total) * 100).toFixed(1)} %`,
    rows ? int(o.bytes / rows) : "",
  );
}
const perClient = (tableBytes(before, "users") + tableBytes(before, "profiles")) / clients;
const ledgerTables = ["transactions", "ledger_totals", "ledger_months"];
const perTransaction = ledgerTables.reduce((s, t) => s + tableBytes(before, t), 0) / transactionCount;
console.log(`\nper client (users + profiles, with their indexes): ${int(perClient)} bytes`);
for (const t of ledgerTables)
  console.log(`${t} with its indexes, per transaction: ${int(tableBytes(before, t) / transactionCount)} bytes`);
console.log(
  `per transaction (transactions + ledger_totals + ledger_months, with indexes): ${int(perTransaction)} bytes\n`,
);

// 2. Each page's batch, through the app's own code.
const shim = new SqliteD1(sqlite);
const { createDb } = await import("../app/server/db.server.ts");
const db = createDb(shim as unknown as D1Database);
const { DEFAULT_VERIFICATION_INTRODUCED_AT: introducedAt } = await import("../app/lib/verification.ts");
const env = {
  ENVIRONMENT: "development",
  ADMIN_MAILBOX: "desk@bench.example",
  SITE_URL: "http://localhost",
  // The verification limits' defaults (the request statements check them).
  UNVERIFIED_DEPOSIT_LIMIT: 2000,
  WITHDRAWAL_LIMIT_DAY: 25000,
  WITHDRAWAL_LIMIT_MONTH: 100000,
  VERIFICATION_INTRODUCED_AT: introducedAt,
  // One admin decides every request here: approval limits high enough that each decision is written, as measured.
  FOUR_EYES_THRESHOLD: 1_000_000_000,
  ADMIN_DAILY_LIMIT: 1_000_000_000,
} as never;
const cookies = JSON.parse(readFileSync(BENCH_SESSIONS, "utf8")) as Record<string, string>;
const { getSessionUser, liveSessionIds, newSession, insertSession } = await import("../app/server/session.server.ts");
const { dashboardData } = await import("../app/server/ledger/reads.server.ts");
const { readHistoryPage } = await import("../app/server/ledger/history.server.ts");
const { clientHistoryCsv } = await import("../app/server/ledger/client-history.server.ts");
const { monthlyStatement, statementMonths, parseStatementMonth } = await import(
  "../app/server/ledger/statements.server.ts"
);
const { adminDesk } = await import("../app/server/admin/desk.server.ts");
const { clientDetail } = await import("../app/server/admin/clients.server.ts");
const { adminTransactionsPage, adminTransactionsCsv } = await import("../app/server/admin/transactions.server.ts");
const { statementCsv } = await import("../app/server/admin/statement.server.ts");
const { listAudit } = await import("../app/server/admin/audit-log.server.ts");
const { mailQueue } = await import("../app/server/admin/mail.server.ts");
const { expireProposals } = await import("../app/server/admin/proposal-expiry.server.ts");
const { pruneAttempts } = await import("../app/server/rate-limit.server.ts");
const { pruneDeadSessions, pruneSignInEvents } = await import("../app/server/auth/account-sessions.server.ts");
const { deliverDueEmails } = await import("../app/server/mail/outbox.server.ts");
const { requestDeposit } = await import("../app/server/ledger/deposit-requests.server.ts");
const { requestWithdrawal } = await import("../app/server/ledger/withdrawal-requests.server.ts");
const { decideTransaction } = await import("../app/server/admin/decisions.server.ts");
const { signInEventInsert } = await import("../app/server/auth/sign-in.server.ts");

const drain = async (stream: ReadableStream<Uint8Array>) => {
  const reader = stream.getReader();
  let bytes = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) bytes += chunk.value.byteLength;
  return bytes;
};
const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1))
  .toISOString()
  .slice(0, 7);
const period = parseStatementMonth(lastMonth);
if (typeof period === "string") throw new Error("no last month");
const signedIn = (who: "heavy" | "admin") =>
  getSessionUser(
    new Request("http://localhost/", { headers: { Cookie: cookies[who] ?? "" } }),
    { db, env },
    Date.now(),
  );

const reads: Array<[string, () => Promise<unknown>, number]> = [
  ["session check (every signed-in request)", () => signedIn("heavy"), 50],
  ["/dashboard, light client", () => dashboardData(db, BENCH_USERS.light), 50],
  ["/dashboard, heavy client", () => dashboardData(db, BENCH_USERS.heavy), 50],
  ["/transactions, heavy client", () => readHistoryPage(db, { filters: {}, userId: BENCH_USERS.heavy }), 50],
  ["/statements, heavy client", () => statementMonths(db, BENCH_USERS.heavy), 50],
  [`/statements/${lastMonth}, heavy client`, () => monthlyStatement(db, BENCH_USERS.heavy, period), 50],
  ["/admin (desk)", () => adminDesk(db, introducedAt), 20],
  [
    "/admin, client search matching nobody",
    () =>
      adminDesk(db, introducedAt, {
        search: "nobody-matches",
        status: null,
        level: null,
        flag: null,
        sort: "joined",
        dir: "desc",
        after: null,
        before: null,
      }),
    20,
  ],
  ["/admin/transactions", () => adminTransactionsPage(db, {}, {}, introducedAt), 50],
  [
    "/admin/transactions?client=… (matching nobody)",
    () => adminTransactionsPage(db, { client: "nobody-matches" }, {}, introducedAt),
    10,
  ],
  [
    "/admin/transactions?min=4999.99 (a rare amount)",
    () => adminTransactionsPage(db, { minCents: 499_999 }, {}, introducedAt),
    10,
  ],
  ["/admin/transactions?status=pending", () => adminTransactionsPage(db, { status: "pending" }, {}, introducedAt), 50],
  ["/user/{heavy}", () => clientDetail(db, BENCH_USERS.heavy, introducedAt), 50],
  // No archive object is recorded yet: the page reads D1 alone, and the bucket is never asked.
  ["/admin/audit", () => listAudit(db, {} as R2Bucket, {}), 50],
  ["/admin/mail", () => mailQueue(db), 50],
  ["realtime: live sessions before a publish", () => liveSessionIds(db, ["a", "b", "c"]), 50],
  [
    "cron (every minute), nothing due",
    async () => {
      await deliverDueEmails(db, env);
      await expireProposals(db);
      await pruneAttempts(db).run();
      await pruneDeadSessions(db).run();
      await pruneSignInEvents(db).run();
    },
    20,
  ],
  ["CSV /transactions.csv, heavy client (20,000 rows)", () => drain(clientHistoryCsv(db, BENCH_USERS.heavy, {})), 3],
  ["CSV /user/{heavy}/export (20,000 rows)", () => drain(statementCsv(db, BENCH_USERS.heavy)), 3],
  ["CSV /admin/transactions.csv, whole firm (200,000 rows)", () => drain(adminTransactionsCsv(db, {})), 1],
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
/** D1 runs one query at a time per database, about 1,000 a second at 1 ms each: a statement costs at least 1 ms. */
const d1Ms = (ms: number[]) => ms.reduce((s, m) => s + Math.max(1, m), 0);
console.log("# Reads: statements per page and their time on this machine (median of runs)\n");
header(
  "page or job",
  "statements",
  "ms, all statements",
  "ms, slowest",
  "D1 ms (each >= 1 ms)",
  "per second, one database",
  "rows returned",
);
const slow: Array<{ label: string; ms: number; sql: string }> = [];
for (const [label, read, runs] of reads) {
  await read();
  shim.log.take();
  const perStatement: number[][] = [];
  let sqls: string[] = [];
  let rowsOut = 0;
  for (let i = 0; i < runs; i++) {
    await read();
    const log = shim.log.take();
    sqls = log.map((e) => e.sql);
    rowsOut = log.reduce((s, e) => s + e.rows, 0);
    log.forEach((e, j) => {
      perStatement[j] ??= [];
      perStatement[j].push(e.ms);
    });
  }
  const medians = perStatement.map(median);
  const budget = d1Ms(medians);
  const all = medians.reduce((s, m) => s + m, 0);
  row(
    label,
    medians.length,
    all.toFixed(2),
    Math.max(...medians).toFixed(2),
    budget.toFixed(0),
    int(1000 / budget),
    int(rowsOut),
  );
  medians.forEach((ms, j) => {
    const sql = sqls[j] ?? "";
    const seen = slow.find((x) => x.label === label && x.sql === sql);
    if (ms > 1 && !seen) slow.push({ label, ms, sql });
    else if (seen && ms > seen.ms) seen.ms = ms;
  });
}
console.log("\nStatements over 1 ms (median), with their plan:\n");
for (const { label, ms, sql } of slow) {
  const plan = sqlite
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .all(...new Array((sql.match(/\?/g) ?? []).length).fill(null)) as Array<{ detail: string }>;
  console.log(`- ${label}: ${ms.toFixed(2)} ms: \`${sql.replace(/\s+/g, " ").slice(0, 160)}…\``);
  console.log(`  plan: ${plan.map((p) => p.detail).join("; ")}`);
}

// The desk's parts alone: its counts, and the waiting list's payout look-up for the heavy client and a usual one.
const aloneMs = (sql: string, ...params: string[]) => {
  const statement = sqlite.prepare(sql);
  const times: number[] = [];
  for (let i = 0; i < 51; i++) {
    const started = performance.now();
    statement.all(...params);
    times.push(performance.now() - started);
  }
  return median(times.slice(1)).toFixed(3);
};
const usual = (
  sqlite.prepare("SELECT user_id AS id FROM transactions WHERE user_id <> ? LIMIT 1").get(BENCH_USERS.heavy) as {
    id: string;
  }
).id;
const payout = `SELECT t.id FROM transactions t WHERE t.user_id = ? AND t.status = 'pending'
  AND t.transaction_type = 'withdraw' AND t.withdrawal_wallet_address IS NOT NULL ORDER BY t.created_at, t.id LIMIT 1`;
console.log("\nThe desk's parts alone (ms, median of 50):\n");
header("statement", "ms");
row("count of clients (profiles_role_idx)", aloneMs("SELECT count(*) FROM profiles WHERE role = 'user'"));
row("count of pending requests (status index)", aloneMs("SELECT count(*) FROM transactions WHERE status = 'pending'"));
row("payout look-up, heavy client", aloneMs(payout, BENCH_USERS.heavy));
row("payout look-up, a usual client", aloneMs(payout, usual));

// 3. What the write paths add.
const admin = { id: BENCH_USERS.admin, email: "admin0-00a001@bench.example" };
const sampleClients = (
  sqlite
    .prepare(
      `SELECT u.id, u.email, p.first_name AS firstName, p.last_name AS lastName FROM users u JOIN profiles p ON p.user_id = u.id
       WHERE u.role = 'user' AND p.balance_cents > 100000 ORDER BY u.id LIMIT ?`,
    )
    .all(SAMPLE) as Array<{ id: string; email: string; firstName: string; lastName: string }>
).map((c) => ({ ...c, firstName: String(c.firstName), lastName: String(c.lastName) }));
if (sampleClients.length < SAMPLE) throw new Error(`only ${sampleClients.length} funded clients`);

const writeTimes: Record<string, { ms: number[]; statements: number }> = {};
const timed = async <T>(label: string, write: () => Promise<T>) => {
  const result = await write();
  const log = shim.log.take();
  writeTimes[label] ??= { ms: [], statements: log.length };
  writeTimes[label].ms.push(log.reduce((s, e) => s + e.ms, 0));
  return result;
};
// The sampled clients are verified, as a client who withdraws must be; written before the measured writes.
for (const client of sampleClients) {
  sqlite
    .prepare(
      `INSERT INTO verification_cases (user_id, status, submitted_at, reviewed_at) VALUES (?, 'approved', ?, ?)
       ON CONFLICT (user_id) WHERE ended_at IS NULL DO UPDATE SET status = 'approved'`,
    )
    .run(client.id, Date.now(), Date.now());
}
const beforeWrites = objects();
const beforeWritesInUse = objects(true);
const ids: number[] = [];
for (const [i, client] of sampleClients.entries()) {
  const deposit = await timed("deposit request", () =>
    requestDeposit(db, env, client, {
      amountCents: 50_000,
      walletType: "BTC",
      walletAddress: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
      idempotencyKey: crypto.randomUUID(),
    }),
  );
  const withdrawal = await timed("withdrawal request", () =>
    requestWithdrawal(
      db,
      env,
      client,
      {
        amountCents: 10_000,
        cryptoCurrency: "BTC",
        address: `bc1q${String(i).padStart(38, "0")}`,
        idempotencyKey: crypto.randomUUID(),
      },
      "http://localhost",
    ),
  );
  for (const outcome of [deposit, withdrawal]) if (outcome.ok) ids.push(outcome.transactionId);
}
for (const [i, id] of ids.entries()) {
  const decision = i % 4 === 3 ? "rejected" : "approved";
  await timed(`decision (${decision})`, () =>
    decideTransaction(db, admin, id, decision, {
      limits: env,
      reason: decision === "rejected" ? "Funds not received" : null,
    }),
  );
}
const userAgent =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const meta = { userAgent, country: "CA", city: "Toronto" };
for (const client of sampleClients) {
  const session = await newSession(env, client.id, Date.now(), { meta });
  await timed("session insert (sign-in)", () => insertSession(db, session.row));
  await timed("sign-in record", () =>
    signInEventInsert(
      { db },
      { userId: client.id, result: "success", method: "password", meta, deviceHash: session.row.id, now: Date.now() },
    ),
  );
}
const afterWrites = objects();
const written = ids.length;

console.log(
  `\n# Writes: ${int(written)} requests (${int(SAMPLE)} deposits, ${int(SAMPLE)} withdrawals), decided; ${int(SAMPLE)} sessions and sign-in records\n`,
);
header("write", "statements in its batch", "ms, median");
for (const [label, { ms, statements }] of Object.entries(writeTimes)) row(label, statements, median(ms).toFixed(2));
console.log();
header("table or index", "growth, bytes per request", "growth, bytes per sign-in");
const perSignIn = new Set(["sessions", "sign_in_events"]);
let perRequest = 0;
for (const [name, o] of [...afterWrites.entries()].sort((a, b) => b[1].bytes - a[1].bytes)) {
  const grown = o.bytes - (beforeWrites.get(name)?.bytes ?? 0);
  if (grown <= 0) continue;
  if (perSignIn.has(o.table)) row(name, "", int(grown / SAMPLE));
  else {
    perRequest += grown;
    row(name, int(grown / written), "");
  }
}
console.log(
  `\nper decided request, everything it writes (ledger, projections, audit, outbox, payout address): ${int(perRequest / written)} bytes`,
);

// 4. What a decided request keeps once its mails are delivered and, 30 days on, archived (docs/decisions/0075):
// the bytes in use before the writes, against after delivery and the archive's runs (to an in-memory bucket).
const afterWritesInUse = objects(true);
const { archiveDeliveredMail, MAIL_ARCHIVE_AFTER_MS } = await import("../app/server/mail/archive.server.ts");
const stored = new Map<string, Uint8Array>();
const bucket = {
  head: async (key: string) => (stored.has(key) ? {} : null),
  put: async (key: string, bytes: Uint8Array) => void stored.set(key, bytes),
  get: async (key: string) => {
    const bytes = stored.get(key);
    return bytes ? { size: bytes.byteLength, arrayBuffer: async () => bytes.slice().buffer } : null;
  },
} as unknown as R2Bucket;
while ((await deliverDueEmails(db, env, Date.now(), 1_000)).captured > 0);
const later = Date.now() + MAIL_ARCHIVE_AFTER_MS + 60_000;
while ((await archiveDeliveredMail(db, bucket, later)) > 0);
const archivedInUse = objects(true);
const grownInUse = (after: Objects) => {
  const byName = new Map<string, number>();
  for (const [name, o] of after) {
    if (perSignIn.has(o.table)) continue;
    const grown = o.bytes - (beforeWritesInUse.get(name)?.bytes ?? 0);
    if (grown !== 0) byName.set(name, grown);
  }
  return byName;
};
const inUseAfterWrites = grownInUse(afterWritesInUse);
const kept = grownInUse(archivedInUse);
const archiveBytes = [...stored.values()].reduce((s, b) => s + b.byteLength, 0);

// 5. What the audit archive takes off (docs/decisions/0077): every audit row of the dataset and the writes, 14
// months on, moved to an in-memory bucket by the cron's own step; audit_log's bytes in use before and after.
const { archiveOldAuditRows } = await import("../app/server/audit-archive.server.ts");
const auditStored = new Map<string, Uint8Array>();
const auditBucket = {
  head: async (key: string) => (auditStored.has(key) ? {} : null),
  put: async (key: string, bytes: Uint8Array) => void auditStored.set(key, bytes),
} as unknown as R2Bucket;
const auditRows = count("audit_log");
const auditBytes = (o: Objects) =>
  [...o.values()]
    .filter((x) => x.table === "audit_log" || x.table === "audit_archives")
    .reduce((s, x) => s + x.bytes, 0);
const auditBefore = auditBytes(objects(true));
const fourteenMonthsOn = Date.now() + 14 * 31 * 86_400_000;
while ((await archiveOldAuditRows(db, auditBucket, fourteenMonthsOn)) > 0);
const auditAfter = auditBytes(objects(true));
const auditArchived = [...auditStored.values()].reduce((s, b) => s + b.byteLength, 0);
console.log(
  `\n# The audit archive, 14 months on\n\n${int(auditRows)} audit rows: audit_log and audit_archives (with their ` +
    `indexes) in use ${int(auditBefore)} bytes before, ${int(auditAfter)} after (${int(auditBefore / auditRows)} and ` +
    `${int(auditAfter / auditRows)} per row); in R2 ${int(auditArchived)} bytes (${int(auditArchived / auditRows)} per ` +
    `row, ${auditStored.size} objects)`,
);

// 6. What a decided request keeps for good: 14 months on, its audit rows are in the audit archive (above), its
// notifications past their keeping time are deleted and its mails' compact rows have left D1 for their archive
// objects, each by the cron's own step.
const { pruneOldNotifications } = await import("../app/server/notifications/notifications.server.ts");
const { removeOldArchivedMailRows } = await import("../app/server/mail/old-rows.server.ts");
while ((await pruneOldNotifications(db, fourteenMonthsOn).returning()).length > 0);
while ((await removeOldArchivedMailRows(db, bucket, fourteenMonthsOn)).emptied > 0);
const keptForGood = grownInUse(objects(true));
console.log(
  `\n# Kept per decided request (bytes in use: dbstat pgsize - unused): after the writes; 30 days on, mails delivered ` +
    `and archived; 14 months on, audit rows archived, notifications deleted, mail rows left for their objects\n`,
);
header("table or index", "after the writes", "30 days on", "14 months on");
const names = [...new Set([...inUseAfterWrites.keys(), ...kept.keys(), ...keptForGood.keys()])].sort(
  (a, b) => (keptForGood.get(b) ?? 0) - (keptForGood.get(a) ?? 0) || (kept.get(b) ?? 0) - (kept.get(a) ?? 0),
);
const perRequestOf = (m: Map<string, number>, name: string) => int((m.get(name) ?? 0) / written);
for (const name of names)
  row(name, perRequestOf(inUseAfterWrites, name), perRequestOf(kept, name), perRequestOf(keptForGood, name));
const sum = (m: Map<string, number>) => [...m.values()].reduce((s, b) => s + b, 0);
console.log(
  `\nper decided request, in use: ${int(sum(inUseAfterWrites) / written)} bytes after the writes, ` +
    `${int(sum(kept) / written)} bytes 30 days on, ${int(sum(keptForGood) / written)} bytes 14 months on; the mail ` +
    `archive holds ${int(archiveBytes / written)} bytes per request in R2 (${stored.size} objects)`,
);
sqlite.close();
rmSync(work, { recursive: true, force: true });
