/**
 * Local demo data: one admin, one client with transactions of every type and status, and the firm's
 * deposit wallets. Runs only when the database has no users, so it is safe to run on every `npm run dev`.
 * Never used against the remote database.
 */
import { decodeBase32 } from "@oslojs/encoding";
import { profileProjectionSql, signedCents } from "../app/lib/money/rules.ts";
import { encryptTotpSecret, secretForManualEntry } from "../app/server/auth/totp-crypto.server.ts";
import { hashPassword } from "../app/server/password.server.ts";
import { type D1Target, devVar, ensureDevVars, executeStatements, query, sqlValue } from "./lib/local-d1.ts";

export const DEMO_ADMIN = {
  id: "00000000-0000-4000-8000-000000000001",
  email: "admin@example.com",
  password: "demo-admin-2026",
  firstName: "Avery",
  lastName: "Admin",
  /**
   * The demo admin's authenticator (base32, 20 bytes): admins must use two-factor sign-in, so the local demo
   * comes enrolled with a secret anyone may add to an app. Local data only, like the password.
   */
  totpSecret: "DEMOADMINTOTPSECRETNORTHWINDMKTS",
};
export const DEMO_CLIENT = {
  id: "00000000-0000-4000-8000-000000000002",
  email: "client@example.com",
  password: "demo-client-2026",
  firstName: "Casey",
  lastName: "Client",
};

/** Well-formed but unusable addresses: test vectors and burn addresses nobody holds keys for. */
export const DEMO_DEPOSIT_WALLETS = [
  { walletType: "BTC", walletAddress: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4" },
  { walletType: "ETH", walletAddress: "0x000000000000000000000000000000000000dEaD" },
  { walletType: "USDT (ERC20)", walletAddress: "0x1111111111111111111111111111111111111111" },
  { walletType: "USDT (TRC20)", walletAddress: "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb" },
];

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

/**
 * The seed's statements. `totpKey` is the TOTP_ENCRYPTION_KEY of the Worker that will read the database (the
 * local .dev.vars): the demo admin's secret is stored sealed with it, as an enrolment stores it.
 */
export async function buildSeedStatements(totpKey: string, now = Date.now()): Promise<string[]> {
  const day = 24 * 60 * 60 * 1000;
  const joined = now - 60 * day;
  const statements: string[] = [];
  for (const person of [
    { ...DEMO_ADMIN, role: "admin" },
    { ...DEMO_CLIENT, role: "user" },
  ]) {
    const hash = await hashPassword(person.password);
    statements.push(
      `INSERT INTO users (id, email, password_hash, role, email_confirmed_at, created_at, last_login_at) VALUES (${[
        person.id,
        person.email,
        hash,
        person.role,
        joined,
        joined,
        now - day,
      ]
        .map(sqlValue)
        .join(", ")})`,
    );
  }

  let balance = 0;
  for (const tx of DEMO_TRANSACTIONS) {
    const createdAt = now - tx.daysAgo * day;
    const approved = tx.status === "approved";
    if (approved) balance += signedCents(tx.type, tx.cents);
    const decided = tx.status !== "pending";
    const walletAddress = tx.byAdmin ? "admin" : (DEMO_DEPOSIT_WALLETS[0]?.walletAddress ?? null);
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

  for (const person of [
    { ...DEMO_ADMIN, role: "admin" },
    { ...DEMO_CLIENT, role: "user" },
  ]) {
    statements.push(
      `INSERT INTO profiles (user_id, email, first_name, last_name, phone_number, username, country, status, role, created_at, updated_at) VALUES (${[
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
      ]
        .map(sqlValue)
        .join(", ")})`,
    );
  }
  // The demo admin is enrolled (confirmed, no code used yet) and has no recovery codes: the secret is printed.
  const secretEncrypted = await encryptTotpSecret(totpKey, DEMO_ADMIN.id, decodeBase32(DEMO_ADMIN.totpSecret));
  statements.push(
    `INSERT INTO two_factor (user_id, secret_encrypted, confirmed_at, created_at) VALUES (${[
      DEMO_ADMIN.id,
      secretEncrypted,
      joined,
      joined,
    ]
      .map(sqlValue)
      .join(", ")})`,
  );
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
  return statements;
}

/**
 * Seeds the demo data when the database has no users yet. Returns whether it wrote anything. A local database
 * seeded before two-factor sign-in existed gets its demo admin enrolled with the demo key, so the printed key works.
 */
export async function seedIfEmpty(target: D1Target = {}): Promise<boolean> {
  const [row] = query<{ n: number }>("SELECT count(*) AS n FROM users", target);
  ensureDevVars();
  const totpKey = devVar("TOTP_ENCRYPTION_KEY");
  if (!totpKey) throw new Error("TOTP_ENCRYPTION_KEY is missing from .dev.vars (see .dev.vars.example)");
  if ((row?.n ?? 0) > 0) {
    await enrolOlderDemoAdmin(totpKey, target);
    return false;
  }
  executeStatements(await buildSeedStatements(totpKey), target);
  return true;
}

async function enrolOlderDemoAdmin(totpKey: string, target: D1Target): Promise<void> {
  const [admin] = query<{ id: string }>(
    `SELECT u.id FROM users u WHERE u.email = ${sqlValue(DEMO_ADMIN.email)} AND u.role = 'admin'
       AND NOT EXISTS (SELECT 1 FROM two_factor t WHERE t.user_id = u.id)`,
    target,
  );
  if (!admin) return;
  const secretEncrypted = await encryptTotpSecret(totpKey, admin.id, decodeBase32(DEMO_ADMIN.totpSecret));
  const now = Date.now();
  executeStatements(
    [
      `INSERT INTO two_factor (user_id, secret_encrypted, confirmed_at, created_at) VALUES (${[admin.id, secretEncrypted, now, now].map(sqlValue).join(", ")})`,
    ],
    target,
  );
  console.log("Enrolled the demo admin of this older local database in two-factor sign-in with the demo key.");
}

export function printDemoLogins(): void {
  const secret = secretForManualEntry(decodeBase32(DEMO_ADMIN.totpSecret));
  console.log("\nDemo logins (local only):");
  console.log(
    `  admin   ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password} / two-factor key ${secret} (add it to an authenticator app)`,
  );
  console.log(`  client  ${DEMO_CLIENT.email} / ${DEMO_CLIENT.password}\n`);
}

if (import.meta.main) {
  const seeded = await seedIfEmpty();
  console.log(
    seeded ? "Seeded the local database with demo data." : "The local database already has users; left as is.",
  );
  printDemoLogins();
}
