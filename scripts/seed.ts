/**
 * Local demo data: two owners (so that a second approval can be tried) and a support admin (least privilege), one
 * client with transactions of every
 * type and status, and the firm's deposit wallets. Runs only when the database has no users, so it is safe to run
 * on every `npm run dev`. Never used against the remote database.
 */
import { decodeBase32 } from "@oslojs/encoding";
import { profileProjectionSql, signedCents } from "../app/lib/money/rules.ts";
import { encryptTotpSecret, secretForManualEntry } from "../app/server/auth/totp-crypto.server.ts";
import { hashPassword } from "../app/server/password.server.ts";
import {
  DEMO_ADMIN,
  DEMO_ADMINS,
  DEMO_CLIENT,
  DEMO_MONITORED_CLIENT,
  DEMO_SECOND_ADMIN,
  DEMO_SECOND_CLIENT,
  DEMO_SUPPORT_ADMIN,
} from "./lib/demo-people.ts";
import { type D1Target, devVar, ensureDevVars, executeStatements, query, sqlValue } from "./lib/local-d1.ts";
import { MONITORED_JOINED_DAYS_AGO, seedDemoMonitoring } from "./seed-monitoring.ts";
import { seedDemoVerification } from "./seed-verification.ts";

export {
  DEMO_ADMIN,
  DEMO_ADMINS,
  DEMO_CLIENT,
  DEMO_MONITORED_CLIENT,
  DEMO_SECOND_ADMIN,
  DEMO_SECOND_CLIENT,
  DEMO_SUPPORT_ADMIN,
};

/**
 * The firm's deposit wallets. Bitcoin, Ether and USDT on Ethereum hold watch-only account keys, so each demo client
 * gets addresses of their own and `npm run chain -- pay <address> 0.01` credits them: the published test keys of
 * BIP39's "abandon … about" mnemonic (testnet for Bitcoin), which no one should ever fund for real. USDT on Tron holds
 * an address, and its deposits stay claims.
 */
export const DEMO_DEPOSIT_WALLETS = [
  {
    walletType: "BTC",
    walletAddress:
      "vpub5Y6cjg78GGuNLsaPhmYsiw4gYX3HoQiRBiSwDaBXKUafCt9bNwWQiitDk5VZ5BVxYnQdwoTyXSs2JHRPAgjAvtbBrf8ZhDYe2jWAqvZVnsc",
  },
  {
    walletType: "ETH",
    walletAddress:
      "xpub6DCoCpSuQZB2jawqnGMEPS63ePKWkwWPH4TU45Q7LPXWuNd8TMtVxRrgjtEshuqpK3mdhaWHPFsBngh5GFZaM6si3yZdUsT8ddYM3PwnATt",
  },
  {
    walletType: "USDT (ERC20)",
    walletAddress:
      "xpub6DCoCpSuQZB2jawqnGMEPS63ePKWkwWPH4TU45Q7LPXWuNd8TMtVxRrgjtEshuqpK3mdhaWHPFsBngh5GFZaM6si3yZdUsT8ddYM3PwnATt",
  },
  { walletType: "USDT (TRC20)", walletAddress: "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb" },
];

/** The address the demo client's past deposits were paid to, before the firm's wallets were watched. */
const PAST_DEPOSIT_ADDRESS = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";

type SeedTransaction = {
  type: "deposit" | "stock_deposit" | "fee_deposit" | "withdraw" | "profit" | "loss";
  cents: number;
  status: "pending" | "approved" | "rejected";
  daysAgo: number;
  tradingPair?: string;
  stock?: string;
  byAdmin?: boolean;
};

const DEMO_TRANSACTIONS: SeedTransaction[] = [
  { type: "deposit", cents: 500_000, status: "approved", daysAgo: 40 },
  { type: "stock_deposit", cents: 150_000, status: "approved", daysAgo: 35, stock: "AAPL" },
  { type: "fee_deposit", cents: 15_000, status: "approved", daysAgo: 34, byAdmin: true },
  { type: "profit", cents: 42_050, status: "approved", daysAgo: 30, tradingPair: "EUR/USD", byAdmin: true },
  { type: "loss", cents: 12_025, status: "approved", daysAgo: 25, tradingPair: "BTC/USD", byAdmin: true },
  { type: "withdraw", cents: 60_000, status: "approved", daysAgo: 20 },
  { type: "deposit", cents: 30_000, status: "rejected", daysAgo: 18 },
  { type: "profit", cents: 7_500, status: "approved", daysAgo: 15, tradingPair: "ETH/USD", byAdmin: true },
  { type: "withdraw", cents: 10_000, status: "rejected", daysAgo: 10 },
  { type: "stock_deposit", cents: 80_000, status: "pending", daysAgo: 3, stock: "TSLA" },
  { type: "withdraw", cents: 25_000, status: "pending", daysAgo: 2 },
  { type: "deposit", cents: 120_000, status: "pending", daysAgo: 1 },
];

type DemoPerson = (typeof DEMO_ADMINS)[number] | typeof DEMO_CLIENT | typeof DEMO_MONITORED_CLIENT;
type SeededPerson = DemoPerson & { role: "admin" | "user"; joinedDaysAgo: number };
/** The second client joined days ago, so that their verification deadline is always ahead. */
const DEMO_PEOPLE: SeededPerson[] = [
  ...DEMO_ADMINS.map((admin) => ({ ...admin, role: "admin" as const, joinedDaysAgo: 60 })),
  { ...DEMO_CLIENT, role: "user", joinedDaysAgo: 60 },
  { ...DEMO_SECOND_CLIENT, role: "user", joinedDaysAgo: 3 },
  { ...DEMO_MONITORED_CLIENT, role: "user", joinedDaysAgo: MONITORED_JOINED_DAYS_AGO },
];

async function userInsert(person: DemoPerson & { role: string }, joined: number, lastLogin: number): Promise<string> {
  const hash = await hashPassword(person.password);
  const values = [person.id, person.email, hash, person.role, joined, joined, lastLogin];
  return `INSERT INTO users (id, email, password_hash, role, email_confirmed_at, created_at, last_login_at) VALUES (${values.map(sqlValue).join(", ")})`;
}

function profileInsert(person: DemoPerson & { role: string }, joined: number): string {
  const values = [
    person.id,
    person.email,
    person.firstName,
    person.lastName,
    "+1 555 0100",
    person.email.split("@")[0],
    "United States",
    "active",
    person.role,
    joined,
    joined,
  ];
  return `INSERT INTO profiles (user_id, email, first_name, last_name, phone_number, username, country, status, role, created_at, updated_at) VALUES (${values.map(sqlValue).join(", ")})`;
}

/** A confirmed enrolment with a demo key, sealed with the Worker's key as an enrolment seals it. */
async function twoFactorInsert(totpKey: string, userId: string, base32Secret: string, at: number): Promise<string> {
  const secretEncrypted = await encryptTotpSecret(totpKey, userId, decodeBase32(base32Secret));
  return `INSERT INTO two_factor (user_id, secret_encrypted, confirmed_at, created_at) VALUES (${[userId, secretEncrypted, at, at].map(sqlValue).join(", ")})`;
}

/**
 * The seed's statements. `totpKey` is the TOTP_ENCRYPTION_KEY of the Worker that will read the database (the
 * local .dev.vars): the demo admin's secret is stored sealed with it, as an enrolment stores it.
 */
export async function buildSeedStatements(totpKey: string, now = Date.now()): Promise<string[]> {
  const day = 24 * 60 * 60 * 1000;
  const joined = now - 60 * day;
  const statements: string[] = [];
  const joinedAt = (person: SeededPerson) => now - person.joinedDaysAgo * day;
  for (const person of DEMO_PEOPLE) statements.push(await userInsert(person, joinedAt(person), now - day));

  let balance = 0;
  for (const tx of DEMO_TRANSACTIONS) {
    const createdAt = now - tx.daysAgo * day;
    const approved = tx.status === "approved";
    if (approved) balance += signedCents(tx.type, tx.cents);
    const decided = tx.status !== "pending";
    const walletAddress = tx.byAdmin ? "admin" : PAST_DEPOSIT_ADDRESS;
    statements.push(
      `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, wallet_address, withdrawal_wallet_address, balance_after_cents, trading_pair, stock, created_by, decided_by, decided_at, created_at) VALUES (${[
        DEMO_CLIENT.id,
        tx.type,
        tx.cents,
        tx.status,
        walletAddress,
        tx.type === "withdraw" ? "0x2222222222222222222222222222222222222222" : null,
        tx.byAdmin ? balance : null,
        tx.tradingPair ?? null,
        tx.stock ?? null,
        tx.byAdmin ? DEMO_ADMIN.id : DEMO_CLIENT.id,
        decided ? DEMO_ADMIN.id : null,
        decided ? createdAt + 60 * 60 * 1000 : null,
        createdAt,
      ]
        .map(sqlValue)
        .join(", ")})`,
    );
  }

  for (const person of DEMO_PEOPLE) statements.push(profileInsert(person, joinedAt(person)));
  // The demo admins are enrolled (confirmed, no code used yet) and have no recovery codes: their keys are printed.
  for (const admin of DEMO_ADMINS) statements.push(await twoFactorInsert(totpKey, admin.id, admin.totpSecret, joined));
  statements.push(rolesInsert());
  // Where each demo withdrawal pays out, as a client's request records it.
  statements.push(
    `INSERT INTO withdrawal_wallets (user_id, transaction_id, wallet_address, crypto_currency, amount_cents, created_at)
     SELECT user_id, id, withdrawal_wallet_address, 'ETH', amount_cents, created_at FROM transactions
     WHERE transaction_type = 'withdraw' AND withdrawal_wallet_address IS NOT NULL`,
  );
  // The profiles' balance, trades and win rate, from the ledger just written, by the rules every batch uses.
  statements.push(`UPDATE profiles SET ${profileProjectionSql()}`);

  for (const wallet of DEMO_DEPOSIT_WALLETS) {
    statements.push(
      `INSERT INTO deposit_wallets (wallet_type, wallet_address, updated_at) VALUES (${sqlValue(wallet.walletType)}, ${sqlValue(wallet.walletAddress)}, ${now})`,
    );
  }
  // One back-office note with the VIP flag on the demo client, so the client page's Notes and the desk's Flag filter
  // have something to show (never seen by the client).
  statements.push(
    `INSERT INTO client_notes (user_id, author_id, body, flags_added, created_at) VALUES (${[
      DEMO_CLIENT.id,
      DEMO_ADMIN.id,
      "Long-standing client, funds every month. Prefers e-mail to calls.",
      '["vip"]',
      now - 2 * day,
    ]
      .map(sqlValue)
      .join(", ")})`,
  );
  return statements;
}

/**
 * Seeds the demo data when the database has no users yet. Returns whether it wrote anything. A local database
 * seeded by an older version is brought up to the demo it would get today: its demo admins are enrolled in
 * two-factor sign-in with their demo keys (seeded before two-factor existed), the second demo admin and the second
 * demo client are added (seeded before four eyes and identity verification), so is the monitored client with the
 * requests that fire the demo's monitoring alerts (scripts/seed-monitoring.ts), and demo clients without a
 * verification case get the demo's (scripts/seed-verification.ts), so the printed logins work as printed.
 */
export async function seedIfEmpty(target: D1Target = {}): Promise<boolean> {
  const [row] = query<{ n: number }>("SELECT count(*) AS n FROM users", target);
  ensureDevVars();
  const totpKey = devVar("TOTP_ENCRYPTION_KEY");
  if (!totpKey) throw new Error("TOTP_ENCRYPTION_KEY is missing from .dev.vars (see .dev.vars.example)");
  const empty = (row?.n ?? 0) === 0;
  if (empty) executeStatements(await buildSeedStatements(totpKey), target);
  else {
    await addOlderDemoPeople(target);
    await enrolOlderDemoAdmins(totpKey, target);
    grantOlderDemoRoles(target);
  }
  for (const email of seedDemoVerification(target)) {
    if (!empty) console.log(`Added the demo identity verification of ${email} to this older local database.`);
  }
  await seedDemoMonitoring(target);
  return empty;
}

/**
 * A demo database from before the second admin (four eyes) or the second client (identity verification) gets
 * them, unless their address or id is taken by someone else.
 */
async function addOlderDemoPeople(target: D1Target): Promise<void> {
  const later = DEMO_PEOPLE.filter((person) =>
    [DEMO_SECOND_ADMIN.id, DEMO_SECOND_CLIENT.id, DEMO_SUPPORT_ADMIN.id, DEMO_MONITORED_CLIENT.id].includes(person.id),
  );
  for (const person of later) {
    const [state] = query<{ demo: number; taken: number }>(
      `SELECT EXISTS (SELECT 1 FROM users WHERE email = ${sqlValue(DEMO_ADMIN.email)} AND role = 'admin') AS demo,
         EXISTS (SELECT 1 FROM users WHERE email = ${sqlValue(person.email)} OR id = ${sqlValue(person.id)}) AS taken`,
      target,
    );
    if (!state?.demo || state.taken) continue;
    const joined = Date.now() - person.joinedDaysAgo * 24 * 60 * 60 * 1000;
    executeStatements([await userInsert(person, joined, joined), profileInsert(person, joined)], target);
    console.log(
      `Added the demo ${person.role === "admin" ? "admin" : "client"} ${person.email} to this older local database.`,
    );
  }
}

/**
 * Each demo admin's back-office roles, for those who hold none yet (a new database, or one seeded before roles
 * existed: the migration made the admins it found owners, not those seeded after it).
 */
function rolesInsert(): string {
  const rows = DEMO_ADMINS.flatMap((admin) => admin.roles.map((role) => `(${sqlValue(admin.id)}, ${sqlValue(role)})`));
  return `INSERT INTO admin_roles (user_id, role) SELECT column1, column2 FROM (VALUES ${rows.join(", ")}) AS demo
    WHERE EXISTS (SELECT 1 FROM users WHERE id = column1 AND role = 'admin')
      AND NOT EXISTS (SELECT 1 FROM admin_roles WHERE user_id = column1)`;
}

/** Demo admins of an older database who hold no role get their demo roles. */
function grantOlderDemoRoles(target: D1Target): void {
  const [before] = query<{ n: number }>("SELECT count(*) AS n FROM admin_roles", target);
  executeStatements([rolesInsert()], target);
  const [after] = query<{ n: number }>("SELECT count(*) AS n FROM admin_roles", target);
  if ((after?.n ?? 0) > (before?.n ?? 0)) {
    console.log("Gave the demo admins of this older local database their back-office roles.");
  }
}

/** Demo admins of an older database who have no two-factor enrolment get one with their demo key. */
async function enrolOlderDemoAdmins(totpKey: string, target: D1Target): Promise<void> {
  const unenrolled = query<{ id: string; email: string }>(
    `SELECT u.id, u.email FROM users u WHERE u.email IN (${DEMO_ADMINS.map((admin) => sqlValue(admin.email)).join(", ")})
       AND u.role = 'admin' AND NOT EXISTS (SELECT 1 FROM two_factor t WHERE t.user_id = u.id) ORDER BY u.id`,
    target,
  );
  if (unenrolled.length === 0) return;
  const now = Date.now();
  const statements: string[] = [];
  for (const admin of unenrolled) {
    const demo = DEMO_ADMINS.find((candidate) => candidate.email === admin.email);
    if (demo) statements.push(await twoFactorInsert(totpKey, admin.id, demo.totpSecret, now));
  }
  executeStatements(statements, target);
  for (const admin of unenrolled) {
    console.log(
      `Enrolled the demo admin ${admin.email} of this older local database in two-factor sign-in with the demo key.`,
    );
  }
}

/** The demo logins as `npm run dev` prints them; the admins' keys as authenticator apps take them. */
export function demoLoginLines(): string[] {
  return [
    "Demo logins (local only):",
    ...DEMO_ADMINS.map(
      (admin) =>
        `  ${admin.label.padEnd(7)} ${admin.email} / ${admin.password} / two-factor key ${secretForManualEntry(decodeBase32(admin.totpSecret))} (add it to an authenticator app; ${admin.roles.join(", ")})`,
    ),
    `  client  ${DEMO_CLIENT.email} / ${DEMO_CLIENT.password} (identity verified)`,
    `  client2 ${DEMO_SECOND_CLIENT.email} / ${DEMO_SECOND_CLIENT.password} (identity documents waiting in Verifications)`,
    `  client3 ${DEMO_MONITORED_CLIENT.email} / ${DEMO_MONITORED_CLIENT.password} (one open monitoring alert of each rule; never verified, so Restricted locally)`,
    "  Ledger entries and withdrawal approvals at or above FOUR_EYES_THRESHOLD (US dollars, .dev.vars) and every",
    "  deposit-wallet change wait for a second admin: propose as one demo admin, approve as the other.",
  ];
}

export function printDemoLogins(): void {
  console.log(`\n${demoLoginLines().join("\n")}\n`);
}

if (import.meta.main) {
  const seeded = await seedIfEmpty();
  console.log(
    seeded ? "Seeded the local database with demo data." : "The local database already has users; left as is.",
  );
  printDemoLogins();
}
