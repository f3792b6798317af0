/**
 * Approval limits per admin, in SQL (the rules table's `ADMIN_SUM_LIMITS`, app/lib/money/constraints.ts): the sums
 * of what one admin did alone over the last 24 hours, and the condition the statement of each act puts in its
 * WHERE, so that parallel acts cannot all pass a check made before them (docs/decisions/0041). When the statement
 * refuses, `approvalLimitBroken` says which limit and the sum, for the proposal the act becomes.
 */
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import {
  ADMIN_SUM_LIMITS,
  ADMIN_SUM_REQUEST_TYPES,
  ADMIN_SUM_WINDOW_MS,
  type AdminLimits,
  type AdminSumLimit,
  adminLimitBroken,
  adminLimitBrokenFromCents,
} from "~/lib/money/constraints";
import { approvalLimitMessage } from "~/lib/proposals";
import { ADMIN_ENTRY_WALLET } from "../../../db/enums";
import type { Db } from "../db.server";

type Value = string | number | SQLWrapper;

/**
 * The admin's own approved acts in the window, over `t`: entries they posted themselves (created and decided by
 * them) and approvals they decided of the counted request types; a row a second admin approved (through a
 * proposal) counts for nobody.
 */
const countedActs = (adminId: string, now: number) => {
  const requestTypes = sql.join(
    ADMIN_SUM_REQUEST_TYPES.map((type) => sql`${type}`),
    sql`, `,
  );
  return sql`t.status = 'approved' AND t.decided_by = ${adminId} AND t.decided_at > ${now - ADMIN_SUM_WINDOW_MS}
    AND (CASE WHEN t.wallet_address = ${ADMIN_ENTRY_WALLET} THEN t.created_by = ${adminId}
              ELSE t.transaction_type IN (${requestTypes}) END)
    AND NOT EXISTS (SELECT 1 FROM proposals p WHERE p.transaction_id = t.id AND p.status = 'approved')`;
};

/** One limit's sum so far: the client's acts, or every client's. */
function sumSoFarSql(name: AdminSumLimit, adminId: string, userId: Value, now: number): SQL<number> {
  const scope = ADMIN_SUM_LIMITS[name].scope === "client" ? sql`AND t.user_id = ${userId}` : sql``;
  return sql`(SELECT coalesce(sum(t.amount_cents), 0) FROM transactions t WHERE ${countedActs(adminId, now)} ${scope})`;
}

const limitNames = Object.keys(ADMIN_SUM_LIMITS) as AdminSumLimit[];

/**
 * The act may be done alone: for every limit, the sum so far plus `amountCents` stays under where it breaks. For
 * the WHERE of the statement writing the act; `userId` and `amountCents` may be the row's own columns.
 */
export function withinApprovalLimitsSql(
  limits: AdminLimits,
  adminId: string,
  userId: Value,
  amountCents: Value,
  now: number,
): SQL {
  return sql.join(
    limitNames.map(
      (name) =>
        sql`${sumSoFarSql(name, adminId, userId, now)} + ${amountCents} < ${adminLimitBrokenFromCents(name, limits)}`,
    ),
    sql` AND `,
  );
}

/** The SQL condition for an approval's UPDATE: only the counted request types are held by the limits. */
export function approvalWithinLimitsSql(limits: AdminLimits, adminId: string, now: number): SQL {
  const requestTypes = sql.join(
    ADMIN_SUM_REQUEST_TYPES.map((type) => sql`${type}`),
    sql`, `,
  );
  const within = withinApprovalLimitsSql(
    limits,
    adminId,
    sql`transactions.user_id`,
    sql`transactions.amount_cents`,
    now,
  );
  return sql`(transactions.transaction_type NOT IN (${requestTypes}) OR (${within}))`;
}

/** Whether the approval of a request of this type is held by the limits at all. */
export const countsTowardLimits = (transactionType: string) =>
  (ADMIN_SUM_REQUEST_TYPES as readonly string[]).includes(transactionType);

/**
 * Which limit an act of `amountCents` for this client would break now, in the words the admin reads, or null.
 * Read after the statement refused, to tell the limit from the act's other rules.
 */
export async function approvalLimitBroken(
  db: Db,
  limits: AdminLimits,
  adminId: string,
  userId: string,
  amountCents: number,
  now: number,
): Promise<string | null> {
  const row = await db.get<Record<AdminSumLimit, number>>(
    sql`SELECT ${sql.join(
      limitNames.map((name) => sql`${sumSoFarSql(name, adminId, userId, now)} AS ${sql.identifier(name)}`),
      sql`, `,
    )}`,
  );
  const sums = { perClient: Number(row?.perClient ?? 0), daily: Number(row?.daily ?? 0) };
  const broken = adminLimitBroken(sums, amountCents, limits);
  if (!broken) return null;
  return approvalLimitMessage(broken, sums[broken] + amountCents, limits[ADMIN_SUM_LIMITS[broken].limit] * 100);
}
