import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "./db.server";
import { schema } from "./db.server";

const { authFailures } = schema;

/**
 * Failure budgets kept in D1 (docs/product.md, "Accounts and sessions"): each failure (or, for registration,
 * each attempt) is a row; a key is over its budget while its rows in the window reach the limit, so that lifts
 * by itself once old rows age out of the window. What being over a budget means is the caller's rule: a
 * sign-in over the account's budget must pass the security check (Turnstile), an address over its sign-in
 * budget is refused.
 */
interface Budget {
  scope: string;
  limit: number;
  windowMs: number;
}

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const ONE_HOUR = 60 * 60 * 1000;

export const BUDGETS = {
  // Over it, signing in to the account needs the security check: an attacker cannot lock the owner out.
  signInPerAccount: { scope: "sign-in:email", limit: 10, windowMs: FIFTEEN_MINUTES },
  // The same failures of one address: over this, its sign-ins need the security check too...
  signInCheckPerIp: { scope: "sign-in:ip", limit: 10, windowMs: FIFTEEN_MINUTES },
  // ...and over this the address is refused. Wider: several people may share an address (an office, a carrier).
  signInPerIp: { scope: "sign-in:ip", limit: 50, windowMs: FIFTEEN_MINUTES },
  resetPerAccount: { scope: "reset:email", limit: 3, windowMs: ONE_HOUR },
  resetPerIp: { scope: "reset:ip", limit: 20, windowMs: ONE_HOUR },
  // New confirmation links a signed-in client asks for: each one mails them. Keyed by user id; only a link
  // sent counts, and one past the budget is refused with a message (the client is signed in: nothing to hide).
  confirmResendPerAccount: { scope: "confirm-resend:user", limit: 3, windowMs: ONE_HOUR },
  // Every registration is counted, refused or not: each one may mail the address it names.
  registerPerIp: { scope: "register:ip", limit: 30, windowMs: ONE_HOUR },
  registerPerEmail: { scope: "register:email", limit: 5, windowMs: ONE_HOUR },
  // Wrong second-factor codes of one account (sign-in's second step and step-up alike): at 5 the account's
  // code entry is locked until the oldest of them is 15 minutes old. Keyed by user id.
  secondFactorPerAccount: { scope: "2fa:user", limit: 5, windowMs: FIFTEEN_MINUTES },
  // Wrong current passwords typed into a signed-in account's forms (password change, two-factor on, off, new codes):
  // a session alone, a stolen one say, must not be a way to guess the password. Keyed by user id.
  currentPasswordPerAccount: { scope: "current-password:user", limit: 10, windowMs: FIFTEEN_MINUTES },
  // A Turnstile token is good for one use (it lives 5 minutes); the ones we have seen, by their hash.
  challengeToken: { scope: "turnstile:token", limit: 1, windowMs: 10 * 60 * 1000 },
} satisfies Record<string, Budget>;

export async function isOverBudget(db: Db, budget: Budget, key: string, now = Date.now()): Promise<boolean> {
  return (await countAttempts(db, budget, key, now)) >= budget.limit;
}

/** The key's rows in the budget's window. */
export async function countAttempts(db: Db, budget: Budget, key: string, now = Date.now()): Promise<number> {
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(authFailures)
    .where(
      and(
        eq(authFailures.scope, budget.scope),
        eq(authFailures.key, key),
        gt(authFailures.createdAt, now - budget.windowMs),
      ),
    )
    .get();
  return row?.n ?? 0;
}

/**
 * Takes a place in the key's budget if one is free, in one conditional statement, so that requests at once
 * cannot together exceed it: the new row's id, or null when the budget is spent.
 */
export async function takeBudgetPlace(db: Db, budget: Budget, key: string, now = Date.now()): Promise<number | null> {
  const rows = await db.all<{ id: number }>(sql`
    INSERT INTO auth_failures (scope, key, created_at)
    SELECT ${budget.scope}, ${key}, ${now}
    WHERE (SELECT count(*) FROM auth_failures
           WHERE scope = ${budget.scope} AND key = ${key} AND created_at > ${now - budget.windowMs}) < ${budget.limit}
    RETURNING id`);
  return rows[0]?.id ?? null;
}

export function recordAttempt(db: Db, budget: Budget, key: string, now = Date.now()) {
  return db.insert(authFailures).values({ scope: budget.scope, key, createdAt: now });
}

export function clearAttempts(db: Db, budget: Budget, key: string) {
  return db.delete(authFailures).where(and(eq(authFailures.scope, budget.scope), eq(authFailures.key, key)));
}

/** Housekeeping for the cron: rows older than the longest window count for nothing. */
export function pruneAttempts(db: Db, now = Date.now()) {
  return db.delete(authFailures).where(lt(authFailures.createdAt, now - 24 * ONE_HOUR));
}

export function clientIp(request: Request): string {
  return request.headers.get("CF-Connecting-IP") ?? "unknown";
}
