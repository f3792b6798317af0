/**
 * A client's verification level as the money commands and pages need it (docs/product.md, "Identity
 * verification", "Money by level"): read once per request for the messages, and as SQL conditions the money
 * statements carry themselves, so that the database decides at the moment of writing.
 */
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { LEVEL_LIMITS, type LevelLimitName, VERIFIED_ONLY } from "~/lib/money/constraints";
import {
  VERIFICATION_ROLLING_DAY_MS,
  VERIFICATION_ROLLING_MONTH_MS,
  type VerificationLevel,
  verificationDaysLeft,
  verificationLevel,
} from "~/lib/verification";
import type { WithdrawalWindow } from "~/lib/verification-money";
import type { VerificationStatus } from "../../../db/enums";
import type { Db } from "../db.server";
import type { AppEnv } from "../env.server";
import { figureSql } from "../ledger/figures.server";

/** True while the client's live case is approved: the only state in which money may leave (`VERIFIED_ONLY`). */
export const verifiedSql = (userId: string | SQLWrapper): SQL<number> =>
  sql`EXISTS (SELECT 1 FROM verification_cases vc
              WHERE vc.user_id = ${userId} AND vc.status = ${VERIFIED_ONLY.liveCaseStatus} AND vc.ended_at IS NULL)`;

export async function isVerified(db: Db, userId: string): Promise<boolean> {
  const row = await db.get<{ verified: number }>(sql`SELECT ${verifiedSql(userId)} AS verified`);
  return Boolean(row?.verified);
}

export interface ClientLevel {
  level: VerificationLevel;
  status: VerificationStatus | null;
  /** Whole days before deposits stop (0 once verified or past the deadline). */
  daysLeft: number;
}

/** The level of a client now: their live case's status, their registration time and VERIFICATION_INTRODUCED_AT. */
export async function readClientLevel(db: Db, env: AppEnv, userId: string, now = Date.now()): Promise<ClientLevel> {
  const row = await db.get<{ created_at: number; status: VerificationStatus | null }>(
    sql`SELECT u.created_at, vc.status
        FROM users u LEFT JOIN verification_cases vc ON vc.user_id = u.id AND vc.ended_at IS NULL
        WHERE u.id = ${userId}`,
  );
  const createdAt = Number(row?.created_at ?? now);
  const status = row?.status ?? null;
  const introducedAt = env.VERIFICATION_INTRODUCED_AT;
  const level = verificationLevel(status, createdAt, now, introducedAt);
  return { level, status, daysLeft: level === "verified" ? 0 : verificationDaysLeft(createdAt, now, introducedAt) };
}

/** What the unverified deposit limit counts (the rules table's `LEVEL_LIMITS`), from the ledger's totals. */
export const depositsSoFarSql = (userId: string | SQLWrapper): SQL<number> =>
  figureSql(LEVEL_LIMITS.unverifiedDeposits.figure, userId);

/**
 * The deposit's level condition, for the insert's WHERE: a verified client deposits without this limit; anyone
 * else only while their deposits so far plus this one stay within UNVERIFIED_DEPOSIT_LIMIT. (A Restricted client is
 * refused before the statement; the deadline is a matter of time, not of data a parallel request could change.)
 */
export const depositWithinLevelSql = (env: AppEnv, userId: string, amountCents: number): SQL =>
  sql`(${verifiedSql(userId)} OR ${depositsSoFarSql(userId)} + ${amountCents} <= ${limitCents(env, LEVEL_LIMITS.unverifiedDeposits.limit)})`;

const limitCents = (env: AppEnv, name: LevelLimitName) => env[name] * 100;

export async function depositRemainingCents(db: Db, env: AppEnv, userId: string): Promise<number> {
  const row = await db.get<{ value: number }>(sql`SELECT ${depositsSoFarSql(userId)} AS value`);
  return limitCents(env, LEVEL_LIMITS.unverifiedDeposits.limit) - Number(row?.value ?? 0);
}

const WINDOW_MS: Record<WithdrawalWindow, number> = {
  day: VERIFICATION_ROLLING_DAY_MS,
  month: VERIFICATION_ROLLING_MONTH_MS,
};

const WINDOW_LIMIT = { day: LEVEL_LIMITS.withdrawalDay, month: LEVEL_LIMITS.withdrawalMonth } as const;

export const withdrawalLimitCents = (env: AppEnv, window: WithdrawalWindow) =>
  limitCents(env, WINDOW_LIMIT[window].limit);

/** The client's withdrawals the window's limit counts (the rules table's statuses), asked for before `now`. */
const withdrawnInWindowSql = (userId: string, window: WithdrawalWindow, now: number): SQL<number> =>
  sql`(SELECT coalesce(sum(amount_cents), 0) FROM transactions
       WHERE user_id = ${userId} AND transaction_type = 'withdraw'
         AND status IN (${sql.join(
           WINDOW_LIMIT[window].counts.map((status) => sql`${status}`),
           sql`, `,
         )})
         AND created_at > ${now - WINDOW_MS[window]})`;

/**
 * The withdrawal's level conditions, for the insert's WHERE beside the withdrawable check: the client is
 * verified, and this amount fits both rolling limits with what they already asked for.
 */
export const withdrawalWithinLevelSql = (env: AppEnv, userId: string, amountCents: number, now: number): SQL =>
  sql`${verifiedSql(userId)}
      AND ${withdrawnInWindowSql(userId, "day", now)} + ${amountCents} <= ${withdrawalLimitCents(env, "day")}
      AND ${withdrawnInWindowSql(userId, "month", now)} + ${amountCents} <= ${withdrawalLimitCents(env, "month")}`;

/** What is left of each rolling limit now (may be negative after the limits were lowered). */
export async function withdrawalRemaining(
  db: Db,
  env: AppEnv,
  userId: string,
  now = Date.now(),
): Promise<Record<WithdrawalWindow, { limitCents: number; remainingCents: number }>> {
  const row = await db.get<{ day: number; month: number }>(
    sql`SELECT ${withdrawnInWindowSql(userId, "day", now)} AS day, ${withdrawnInWindowSql(userId, "month", now)} AS month`,
  );
  const left = (window: WithdrawalWindow) => ({
    limitCents: withdrawalLimitCents(env, window),
    remainingCents: withdrawalLimitCents(env, window) - Number(row?.[window] ?? 0),
  });
  return { day: left("day"), month: left("month") };
}

/** What the deposit pages show above the form: the level and, before verification, what may still be deposited. */
export async function depositLevelView(db: Db, env: AppEnv, userId: string, now = Date.now()) {
  const { level, status, daysLeft } = await readClientLevel(db, env, userId, now);
  return {
    level,
    // Documents sent and not decided yet: there is nothing to do but wait, and the page says so.
    inReview: status === "submitted",
    daysLeft,
    limitCents: env.UNVERIFIED_DEPOSIT_LIMIT * 100,
    remainingCents: level === "unverified" ? await depositRemainingCents(db, env, userId) : 0,
  };
}

/** What the withdrawal page shows above the form: whether the client may withdraw, and what is left of each limit. */
export async function withdrawalLevelView(db: Db, env: AppEnv, userId: string, now = Date.now()) {
  const { level, status } = await readClientLevel(db, env, userId, now);
  return {
    level,
    inReview: status === "submitted",
    limits: level === "verified" ? await withdrawalRemaining(db, env, userId, now) : null,
  };
}
