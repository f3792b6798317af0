/**
 * `npm run bench:data [-- --clients N]`: a fresh local D1 for the benchmarks: N clients (10,000 unless told) and 20
 * transactions per client of every type and status over two years, one heavy client (20,000 transactions), one light
 * client (60: more than one history page of 50, so that the two clients' history pages hold the same number of
 * rows), one admin, and sessions for the three of them created directly in the database (no password hashing in the
 * loop; the admin enrolled in two-factor sign-in and its session past the second step, as admins must be), and
 * 1,000 of the other clients verified and funded, with sessions, to make the requests whose monitoring the bench
 * measures. The heavy and light clients and the requesters are the same at every size: what grows is the firm
 * around them, which is what `npm run bench:growth` compares. Writes the state folder's sessions.v4.json with
 * their cookies.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { profileProjectionSql } from "../app/lib/money/rules.ts";
import { encryptTotpSecret, newTotpSecret } from "../app/server/auth/totp-crypto.server.ts";
import { hashPassword } from "../app/server/password.server.ts";
import { applyMigrations, ROOT } from "./lib/local-d1.ts";

export const BENCH_STATE = join(ROOT, ".wrangler", "bench-state");
/**
 * The sessions' cookies. Versioned with what the dataset must hold, so that a dataset made before is built again
 * rather than measuring the wrong thing: v2, the admin enrolled in two-factor sign-in (admins must be, or the
 * bench measures a redirect); v3, the light client with a full history page; v4, the requesters.
 */
const SESSIONS_FILE = "sessions.v4.json";
export const BENCH_SESSIONS = join(BENCH_STATE, SESSIONS_FILE);
/** The sessions file: one cookie per named user, and the requesters' cookies. */
export type BenchCookies = Record<keyof typeof BENCH_USERS, string> & { requesters: string[] };
/** The bench Worker's TOTP_ENCRYPTION_KEY: the bench admin's authenticator is sealed with it. */
export const BENCH_TOTP_KEY = "YmVuY2gtdG90cC1lbmNyeXB0aW9uLWtleS0zMi1ieXQ=";
export const DATABASE_ID = "00000000-0000-0000-0000-000000000000";
export const BENCH_USERS = {
  admin: "00000000-0000-4000-8000-00000000a001",
  heavy: "00000000-0000-4000-8000-00000000c001",
  light: "00000000-0000-4000-8000-00000000c002",
};

/** The size `npm run bench` measures; other sizes live in folders of their own beside it. */
export const DEFAULT_CLIENTS = 10_000;
const TRANSACTIONS_PER_CLIENT = 20;
const HEAVY = 20_000;
const LIGHT = 60;
/** Clients who make deposit and withdrawal requests in the bench: enough that each makes only a few per run. */
const REQUESTERS = 1_000;
const DAY = 86_400_000;
const TYPES = ["deposit", "deposit", "stock_deposit", "fee_deposit", "withdraw", "profit", "profit", "loss"] as const;
const STOCKS = ["AAPL", "TSLA", "MSFT", "NVDA", "AMZN"];
const PAIRS = ["EUR/USD", "BTC/USD", "ETH/USD", "XAU/USD"];

/** Deterministic pseudo-random numbers, so every run builds the same dataset. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

async function sha256Hex(value: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export interface BenchDataset {
  clients: number;
  transactions: number;
  /** The local state folder (`--persist-to` layout). */
  state: string;
  sessions: string;
}

export function benchDataset(clients = DEFAULT_CLIENTS): BenchDataset {
  if (!Number.isSafeInteger(clients) || clients < REQUESTERS + 2) {
    throw new Error(`--clients must be a whole number of at least ${REQUESTERS + 2}`);
  }
  const state = clients === DEFAULT_CLIENTS ? BENCH_STATE : join(ROOT, ".wrangler", `bench-state-${clients}`);
  return { clients, transactions: clients * TRANSACTIONS_PER_CLIENT, state, sessions: join(state, SESSIONS_FILE) };
}

export async function buildBenchData(dataset = benchDataset()) {
  const { clients: CLIENTS, transactions: TRANSACTIONS, state } = dataset;
  const started = performance.now();
  rmSync(state, { recursive: true, force: true });
  applyMigrations({ persistTo: state });
  // The same persistence root wrangler uses for --persist-to, so `wrangler` and the bench read this database.
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: "export default { fetch() { return new Response(null, { status: 204 }); } };",
      compatibilityDate: "2026-08-15",
      d1Databases: { DB: DATABASE_ID },
      resourcePersistencePath: join(state, "v3"),
    }),
  );
  const db = await mf.getD1Database("DB");
  const next = random(42);
  const now = Date.now();
  const passwordHash = await hashPassword("bench-password-unused");
  const q = (value: string) => `'${value.replaceAll("'", "''")}'`;

  const clientIds = [BENCH_USERS.heavy, BENCH_USERS.light];
  for (let i = clientIds.length; i < CLIENTS; i++)
    clientIds.push(`00000000-0000-4000-9000-${String(i).padStart(12, "0")}`);

  const statements: string[] = [];
  const people = [
    { id: BENCH_USERS.admin, role: "admin", n: 0 },
    ...clientIds.map((id, n) => ({ id, role: "user", n })),
  ];
  // D1 refuses statements over 100 KB: a few hundred rows each.
  for (let i = 0; i < people.length; i += 200) {
    const chunk = people.slice(i, i + 200);
    const joined = (n: number) => now - 730 * DAY + n * 6_000;
    statements.push(
      `INSERT INTO users (id, email, password_hash, role, email_confirmed_at, created_at, last_login_at) VALUES ${chunk
        .map(
          (p) =>
            `(${q(p.id)}, ${q(`${p.role}${p.n}-${p.id.slice(-6)}@bench.example`)}, ${q(passwordHash)}, ${q(p.role)}, ${p.n % 3 ? joined(p.n) : "NULL"}, ${joined(p.n)}, ${now - (p.n % 30) * DAY})`,
        )
        .join(", ")}`,
      `INSERT INTO profiles (user_id, email, first_name, last_name, phone_number, username, country, role, created_at, updated_at) VALUES ${chunk
        .map(
          (p) =>
            `(${q(p.id)}, ${q(`${p.role}${p.n}-${p.id.slice(-6)}@bench.example`)}, ${q(`First${p.n}`)}, ${q(`Last${p.n}`)}, '+1 555 0100', ${q(`user${p.n}`)}, 'Canada', ${q(p.role)}, ${joined(p.n)}, ${joined(p.n)})`,
        )
        .join(", ")}`,
    );
  }

  const runBatches = async (list: string[]) => {
    for (let i = 0; i < list.length; i += 20) await db.batch(list.slice(i, i + 20).map((sql) => db.prepare(sql)));
    list.length = 0;
  };
  await runBatches(statements);

  // The heavy client's rows, the light one's, and the rest spread over the other clients, shuffled, then given
  // their times in order: rows are written oldest first, as a live ledger writes them, so that a read in time order
  // meets the table in its own order rather than at random. Written 400 rows a statement and 20 statements a batch.
  const owners: string[] = new Array(TRANSACTIONS);
  for (let i = 0; i < TRANSACTIONS; i++) {
    owners[i] =
      i < HEAVY
        ? BENCH_USERS.heavy
        : i < HEAVY + LIGHT
          ? BENCH_USERS.light
          : (clientIds[2 + Math.floor(next() * (CLIENTS - 2))] ?? BENCH_USERS.light);
  }
  for (let i = TRANSACTIONS - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [owners[i], owners[j]] = [owners[j] ?? BENCH_USERS.light, owners[i] ?? BENCH_USERS.light];
  }
  const times = new Float64Array(TRANSACTIONS).map(() => now - Math.floor(next() * 730 * DAY)).sort();
  const row = (owner: string, createdAt: number) => {
    const type = TYPES[Math.floor(next() * TYPES.length)] ?? "deposit";
    const roll = next();
    const status = roll < 0.8 ? "approved" : roll < 0.9 ? "pending" : "rejected";
    const cents = 100 + Math.floor(next() * 500_000);
    const pair =
      type === "profit" || type === "loss" ? q(PAIRS[Math.floor(next() * PAIRS.length)] ?? "EUR/USD") : "NULL";
    const stock = type === "stock_deposit" ? q(STOCKS[Math.floor(next() * STOCKS.length)] ?? "AAPL") : "NULL";
    return `(${q(owner)}, '${type}', ${cents}, '${status}', ${pair}, ${stock}, ${createdAt})`;
  };
  for (let i = 0; i < TRANSACTIONS; i += 400) {
    const rows: string[] = [];
    for (let j = i; j < Math.min(i + 400, TRANSACTIONS); j++)
      rows.push(row(owners[j] ?? BENCH_USERS.light, times[j] ?? now));
    statements.push(
      `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, trading_pair, stock, created_at) VALUES ${rows.join(", ")}`,
    );
    if (statements.length === 20) await runBatches(statements);
  }
  // The requesters: verified (the identity rules let them deposit and withdraw) and funded well beyond what a
  // run withdraws, with the funding a year old so that it starts no monitoring window.
  const requesters = clientIds.slice(2, 2 + REQUESTERS);
  for (let i = 0; i < requesters.length; i += 200) {
    const chunk = requesters.slice(i, i + 200);
    statements.push(
      `INSERT INTO verification_cases (user_id, status, submitted_at, reviewed_at) VALUES ${chunk
        .map((id) => `(${q(id)}, 'approved', ${now - 400 * DAY}, ${now - 399 * DAY})`)
        .join(", ")}`,
      `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, created_at) VALUES ${chunk
        .map((id) => `(${q(id)}, 'deposit', 100000000, 'approved', ${now - 365 * DAY})`)
        .join(", ")}`,
    );
  }
  statements.push(
    // The bench admin may do everything, as the firm's first admin does (docs/product.md, "Back-office roles").
    `INSERT INTO admin_roles (user_id, role) VALUES (${q(BENCH_USERS.admin)}, 'owner')`,
    `UPDATE profiles SET ${profileProjectionSql()}`,
    "INSERT INTO deposit_wallets (wallet_type, wallet_address) VALUES ('BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'), ('ETH', '0x000000000000000000000000000000000000dEaD')",
  );

  await runBatches(statements);

  // Admins must use two-factor sign-in: the bench admin is enrolled, and its session passed the second step.
  await db
    .prepare("INSERT INTO two_factor (user_id, secret_encrypted, confirmed_at) VALUES (?, ?, ?)")
    .bind(BENCH_USERS.admin, await encryptTotpSecret(BENCH_TOTP_KEY, BENCH_USERS.admin, newTotpSecret()), now)
    .run();

  const insertSession = db.prepare(
    "INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at, second_factor_at, second_factor_method) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  /** A session for `userId`, as the statement to write it and the cookie that carries it. */
  async function session(userId: string) {
    const token = crypto.randomUUID() + crypto.randomUUID();
    const isAdmin = userId === BENCH_USERS.admin;
    const statement = insertSession.bind(
      await sha256Hex(token),
      userId,
      now,
      now + 11 * 3_600_000,
      now + 11 * 3_600_000,
      isAdmin ? now : null,
      isAdmin ? "totp" : null,
    );
    // The session cookie's encoding (React Router's createCookie): base64 of the JSON value.
    return {
      statement,
      cookie: `session=${encodeURIComponent(Buffer.from(JSON.stringify(token)).toString("base64"))}`,
    };
  }
  const named = await Promise.all(
    Object.entries(BENCH_USERS).map(async ([name, userId]) => [name, await session(userId)] as const),
  );
  const requesterSessions = await Promise.all(requesters.map(session));
  const sessions = [...named.map(([, s]) => s), ...requesterSessions];
  for (let i = 0; i < sessions.length; i += 100) await db.batch(sessions.slice(i, i + 100).map((s) => s.statement));
  const cookies = {
    ...Object.fromEntries(named.map(([name, s]) => [name, s.cookie])),
    requesters: requesterSessions.map((s) => s.cookie),
  } as BenchCookies;
  await mf.dispose();
  writeFileSync(dataset.sessions, JSON.stringify(cookies, null, 2));
  console.log(
    `Bench dataset: ${CLIENTS} clients, ${TRANSACTIONS} transactions (heavy client ${HEAVY}, light ${LIGHT}) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { clients: { type: "string" } } });
  await buildBenchData(benchDataset(values.clients === undefined ? DEFAULT_CLIENTS : Number(values.clients)));
}
