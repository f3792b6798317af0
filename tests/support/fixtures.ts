import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import type { LedgerRow } from "~/lib/ledger";
import { encryptTotpSecret, newTotpSecret, totpCodeAt } from "~/server/auth/totp.server";
import { createDb, schema } from "~/server/db.server";
import { readAppEnv } from "~/server/env.server";
import { FAST_SCRYPT_COST, hashPassword } from "~/server/password.server";
import { insertSession, newSession } from "~/server/session.server";
import type { BackOfficeRole } from "../../db/enums";
import worker from "../../workers/app";
import { markVerified } from "./verification-state";

/** Cheap scrypt settings for fixtures: the format is the production one, only the cost differs. */
export const TEST_SCRYPT_COST = FAST_SCRYPT_COST;
export const TEST_PASSWORD = "correct horse battery";

export const db = createDb(env.DB);
export const appEnv = readAppEnv(env);
export const ORIGIN = "http://localhost";

let counter = 0;

/**
 * A user with a profile. Admins come with two-factor sign-in on, as they must have it (`twoFactor: false`
 * makes one who has not enrolled yet); `totpSecret` is then the authenticator's secret, to compute codes.
 */
export async function createUser(
  options: {
    role?: "user" | "admin";
    firstName?: string;
    email?: string;
    twoFactor?: boolean;
    /** An admin's back-office roles: an owner (who may do everything) unless the test says otherwise. */
    roles?: BackOfficeRole[];
  } = {},
) {
  counter++;
  const id = crypto.randomUUID();
  const email = options.email ?? `person${counter}-${id.slice(0, 8)}@example.com`;
  await db.batch([
    db.insert(schema.users).values({
      id,
      email,
      passwordHash: await hashPassword(TEST_PASSWORD, TEST_SCRYPT_COST),
      role: options.role ?? "user",
    }),
    db.insert(schema.profiles).values({
      userId: id,
      email,
      firstName: options.firstName ?? "Pat",
      lastName: "Tester",
      role: options.role ?? "user",
    }),
    ...(options.role === "admin" ? (options.roles ?? ["owner"]) : []).map((role) =>
      db.insert(schema.adminRoles).values({ userId: id, role }),
    ),
  ]);
  const twoFactor = options.twoFactor ?? options.role === "admin";
  const totpSecret = twoFactor ? await enableTwoFactor(id) : null;
  return { id, email, totpSecret };
}

/** Turns two-factor sign-in on for a user, as a confirmed enrolment would; returns the secret. */
export async function enableTwoFactor(userId: string): Promise<Uint8Array> {
  const secret = newTotpSecret();
  await db.insert(schema.twoFactor).values({
    userId,
    secretEncrypted: await encryptTotpSecret(appEnv.TOTP_ENCRYPTION_KEY, userId, secret),
    confirmedAt: Date.now(),
  });
  return secret;
}

/** The authenticator's code for a moment (now by default). */
export const totpCode = (secret: Uint8Array, at = Date.now()) => totpCodeAt(secret, at);

/**
 * A signed-in browser: the Cookie header for a fresh session of this user. The session counts as having
 * entered an authenticator's code when it began (as a sign-in with two-factor does); `freshSecondFactor: false`
 * makes one whose step-up window has passed.
 */
export async function sessionCookieFor(
  userId: string,
  now = Date.now(),
  {
    freshSecondFactor = true,
    secondFactorMethod = "totp",
  }: {
    freshSecondFactor?: boolean;
    /** How the sign-in's second step was passed: a recovery code never counts as a fresh factor for step-up. */
    secondFactorMethod?: "totp" | "recovery_code";
  } = {},
) {
  const session = await newSession(appEnv, userId, now, {
    secondFactor: freshSecondFactor ? { at: now, method: secondFactorMethod } : undefined,
  });
  await insertSession(db, session.row);
  return session.setCookie.split(";")[0] ?? "";
}

/** A signed-in admin (two-factor on, the session's code fresh), as most back-office tests need one. */
export async function signedInAdmin() {
  const created = await createUser({ role: "admin" });
  return { ...created, cookie: await sessionCookieFor(created.id) };
}

/**
 * A signed-in client with `cents` approved (one deposit) and nothing reserved. Verified, as a client who moves
 * money must be (docs/product.md, "Identity verification"); `verified: false` makes one who has not been.
 */
export async function fundedClient(cents = 10_000, firstName = "Pat", { verified = true } = {}) {
  const client = await createUser({ firstName });
  if (verified) await markVerified(client.id);
  await insertTransaction(client.id, { transactionType: "deposit", status: "approved", amountCents: cents });
  return { ...client, cookie: await sessionCookieFor(client.id) };
}

/** A withdrawal requested through /withdraw, as the client does it; its id. */
export async function requestWithdrawalAs(
  client: { id: string; cookie: string },
  { amount = "50.00", address = "0x3333333333333333333333333333333333333333" } = {},
): Promise<number> {
  const response = await postForm(
    "/withdraw",
    { amount, cryptoCurrency: "ETH", walletAddress: address, idempotencyKey: crypto.randomUUID() },
    { cookie: client.cookie },
  );
  if (response.status !== 302) throw new Error(`the withdrawal was refused (${response.status})`);
  const row = await db
    .select({ id: schema.transactions.id })
    .from(schema.transactions)
    .where(sql`${schema.transactions.userId} = ${client.id} AND ${schema.transactions.transactionType} = 'withdraw'`)
    .orderBy(sql`${schema.transactions.id} DESC`)
    .get();
  return row?.id ?? 0;
}

export async function insertTransaction(
  userId: string,
  values: Partial<typeof schema.transactions.$inferInsert> = {},
): Promise<number> {
  const row = await db
    .insert(schema.transactions)
    .values({ userId, transactionType: "deposit", amountCents: 10_000, status: "pending", ...values })
    .returning({ id: schema.transactions.id })
    .get();
  return row.id;
}

/** The database's own message for a refused statement (drizzle wraps it as the error's cause). */
export async function dbRefusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? cause.message : String(error);
  }
  throw new Error("expected the database to refuse the statement, but it succeeded");
}

/**
 * A form POST as a browser sends it from one of our pages: fields as an object, or as pairs (which may repeat a
 * name, as a tampered page could), with the session cookie and the client's address when given.
 */
export function formRequest(
  path: string,
  fields: Record<string, string> | Array<[string, string]>,
  options: { cookie?: string; ip?: string; origin?: string } = {},
) {
  const origin = options.origin ?? ORIGIN;
  return new Request(`${origin}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "Sec-Fetch-Site": "same-origin",
      Origin: origin,
      Host: new URL(origin).host,
      ...(options.ip ? { "CF-Connecting-IP": options.ip } : {}),
      ...(options.cookie ? { Cookie: options.cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/** A form POST through the Worker, from an address of the documentation range unless one is given. */
export async function postForm(
  path: string,
  fields: Record<string, string> | Array<[string, string]>,
  options: { cookie?: string; ip?: string; bindings?: typeof env } = {},
) {
  const request = formRequest(path, fields, { ...options, ip: options.ip ?? "203.0.113.10" });
  if (!options.bindings) return exports.default.fetch(request);
  // Other settings (a world of the quotes simulator): the same Worker, given them.
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, options.bindings, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** A registration form that passes every check, with a fresh e-mail address; `fields` override any of it. */
export function registrationFields<T extends Record<string, string>>(fields: T = {} as T) {
  return {
    email: `client-${crypto.randomUUID().slice(0, 8)}@example.com`,
    password: "secret1",
    confirmPassword: "secret1",
    firstName: "Jamie",
    lastName: "Rivera",
    phoneNumber: "+44 20 7946 0000",
    username: "jrivera",
    country: "United Kingdom",
    referralId: "",
    terms: "on",
    ...fields,
  };
}

export function getPage(path: string, cookie?: string) {
  return exports.default.fetch(`${ORIGIN}${path}`, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });
}

/** The cookie pair ("name=value") a response sets, ready to send back. */
export function cookieFrom(response: Response, name = "session"): string {
  const header = response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  return header?.split(";")[0] ?? "";
}

export async function countRows(table: string, where = "1 = 1", ...params: unknown[]): Promise<number> {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`)
    .bind(...params)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

export const TEST_WALLETS = [
  { walletType: "BTC", walletAddress: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4" },
  { walletType: "ETH", walletAddress: "0x000000000000000000000000000000000000dEaD" },
];

/** The firm's deposit wallets, once per test file. */
export async function ensureDepositWallets() {
  await db.insert(schema.depositWallets).values(TEST_WALLETS).onConflictDoNothing();
  return db.select().from(schema.depositWallets).orderBy(schema.depositWallets.id);
}

/** Row counts that a refused request must leave unchanged. */
export async function moneyCounts(userId: string) {
  return {
    transactions: await countRows("transactions", "user_id = ?", userId),
    withdrawalWallets: await countRows("withdrawal_wallets", "user_id = ?", userId),
    outbox: await countRows("email_outbox"),
  };
}

/** Bulk insert for generated ledgers. Values are numbers and enum names, written as literals (D1 binds at most 100). */
export async function insertLedger(userId: string, rows: LedgerRow[]) {
  const statements = [];
  for (let i = 0; i < rows.length; i += 500) {
    const values = rows
      .slice(i, i + 500)
      .map((r, j) => {
        const stock = r.transactionType === "stock_deposit" ? "'AAPL'" : "NULL";
        return `('${userId}', '${r.transactionType}', ${r.amountCents}, '${r.status}', ${stock}, ${1_700_000_000_000 + i + j})`;
      })
      .join(", ");
    statements.push(
      env.DB.prepare(
        `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, stock, created_at) VALUES ${values}`,
      ),
    );
  }
  if (statements.length > 0) await env.DB.batch(statements);
}

/** The test Worker's bindings as production would have them: what a production-only setting check runs against. */
export const productionBindings = () => ({
  ...env,
  ENVIRONMENT: "production",
  PASSWORD_HASH_COST: "standard",
  SITE_URL: "https://portal.example",
  TURNSTILE_SITE_KEY: "0x4AAAAAAADnPIDROrmt1Wwj",
  TURNSTILE_SECRET_KEY: "0x4AAAAAAADnPIDROrmt1Wwj-real-looking-secret",
});
