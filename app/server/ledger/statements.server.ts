/**
 * Monthly statements (/statements): which months a client has, and one month's statement. A statement reads
 * only that month's rows plus one opening figure, the signed sum of the months before it in `ledger_months`
 * (at most one row per type and month), so its cost does not grow with the client's history.
 *
 * A movement belongs to the month the money moved: its decision (`decided_at`), or when it was written for a
 * row written approved without one. Requests (pending, rejected, cancelled) belong to the month they were made.
 */
import { and, asc, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import { approvedWeightSql, signedCents } from "~/lib/money/rules";
import { FIRST_STATEMENT_YEAR } from "~/lib/statement-month";
import { TRANSACTION_STATUSES, TRANSACTION_TYPES, type TransactionType } from "../../../db/enums";
import type { Db } from "../db.server";
import { readTogether, schema } from "../db.server";
import { afterCursor, keysetOrderBy } from "../paging.server";
import { type OrderKey, type OrderRow, ordersQuery } from "../positions/reads.server";

const { transactions, ledgerMonths, profiles } = schema;

/** A month as the address names it: 'YYYY-MM', UTC. */
export const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

export interface StatementPeriod {
  month: string;
  /** First millisecond of the month, and of the next one (UTC). */
  start: number;
  end: number;
}

export type PeriodRefusal = "malformed" | "future" | "early";

/** The month of an address, or why there is no statement for it: not a month, or one that has not begun. */
export function parseStatementMonth(input: string, now = Date.now()): StatementPeriod | PeriodRefusal {
  const match = MONTH_PATTERN.exec(input);
  if (!match) return "malformed";
  const year = Number(match[1]);
  const monthIndex = Number(match[2]) - 1;
  if (year < FIRST_STATEMENT_YEAR) return "early";
  const start = Date.UTC(year, monthIndex, 1);
  if (start > now) return "future";
  return { month: input, start, end: Date.UTC(year, monthIndex + 1, 1) };
}

/** When an approved row moved money: the same expression as the index `transactions_user_moved_idx`. */
const movedAt = sql<number>`coalesce(${transactions.decidedAt}, ${transactions.createdAt})`;

/** The statuses of requests that moved nothing, listed apart on a statement. */
export const REQUEST_STATUSES = TRANSACTION_STATUSES.filter((status) => status !== "approved");

/** How each type's approved cents count toward the balance, as SQL: the rules table's weights, never spelled here. */
const LEDGER_SIGN_SQL = sql.raw(approvedWeightSql("ledgerBalance"));

/** The ledger balance at the start of `month`: the signed sum of the client's earlier months. */
export function openingQuery(db: Db, userId: string, month: string) {
  return db
    .select({ cents: sql<number>`coalesce(sum(${ledgerMonths.cents} * ${LEDGER_SIGN_SQL}), 0)` })
    .from(ledgerMonths)
    .where(and(eq(ledgerMonths.userId, userId), lt(ledgerMonths.month, month)));
}

const statementColumns = {
  id: transactions.id,
  transactionType: transactions.transactionType,
  status: transactions.status,
  amountCents: transactions.amountCents,
  tradingPair: transactions.tradingPair,
  stock: transactions.stock,
  createdAt: transactions.createdAt,
  movedAt,
};

export type StatementRow = {
  id: number;
  transactionType: TransactionType;
  status: (typeof TRANSACTION_STATUSES)[number];
  amountCents: number;
  tradingPair: string | null;
  stock: string | null;
  createdAt: number;
  movedAt: number;
};

export interface MovedKey {
  movedAt: number;
  id: number;
}

/** A client's rows for a statement: those that meet `conditions`, in `order`, at most `limit` when given (a CSV page). */
function statementRowsQuery(
  db: Db,
  userId: string,
  conditions: Array<SQL | undefined>,
  order: readonly SQL[],
  limit?: number,
) {
  const query = db
    .select(statementColumns)
    .from(transactions)
    .where(and(eq(transactions.userId, userId), ...conditions))
    .orderBy(...order);
  return limit === undefined ? query : query.limit(limit);
}

/**
 * The month's approved movements in the order money moved, after `after` when given. One range of the partial
 * index `transactions_user_moved_idx` (user_id, coalesce(decided_at, created_at), id), in its order.
 */
export function movementsQuery(db: Db, userId: string, period: StatementPeriod, after?: MovedKey, limit?: number) {
  return statementRowsQuery(
    db,
    userId,
    [
      eq(transactions.status, "approved"),
      sql`${movedAt} >= ${period.start}`,
      sql`${movedAt} < ${period.end}`,
      after
        ? sql`(${movedAt} > ${after.movedAt} OR (${movedAt} = ${after.movedAt} AND ${transactions.id} > ${after.id}))`
        : undefined,
    ],
    [asc(movedAt), asc(transactions.id)],
    limit,
  );
}

/** The requests made in the month that moved nothing: a range of (user_id, created_at, id), oldest first. */
export function requestsQuery(
  db: Db,
  userId: string,
  period: StatementPeriod,
  after?: { createdAt: number; id: number },
  limit?: number,
) {
  return statementRowsQuery(
    db,
    userId,
    [
      gte(transactions.createdAt, period.start),
      lt(transactions.createdAt, period.end),
      inArray(transactions.status, REQUEST_STATUSES),
      afterCursor(transactions, after, "oldest"),
    ],
    keysetOrderBy(transactions, "oldest"),
    limit,
  );
}

export interface Movement extends StatementRow {
  signedCents: number;
  balanceCents: number;
}

/** Opening balance, the movements with their running balance, totals per type, closing balance. */
export function statementFigures(openingCents: number, rows: readonly StatementRow[]) {
  let balance = openingCents;
  const totals = new Map<TransactionType, { count: number; signedCents: number }>();
  const movements: Movement[] = rows.map((row) => {
    const signed = signedCents(row.transactionType, row.amountCents);
    balance += signed;
    const total = totals.get(row.transactionType) ?? { count: 0, signedCents: 0 };
    totals.set(row.transactionType, { count: total.count + 1, signedCents: total.signedCents + signed });
    return { ...row, signedCents: signed, balanceCents: balance };
  });
  return {
    openingCents,
    movements,
    totals: TRANSACTION_TYPES.flatMap((type) => {
      const total = totals.get(type);
      return total ? [{ type, ...total }] : [];
    }),
    closingCents: balance,
  };
}

/**
 * The month's orders (UTC, by the order's time), oldest first: all of them, as the month's movements, or a page
 * after `after` (the CSV).
 */
export const monthOrdersQuery = (
  db: Db,
  userId: string,
  period: StatementPeriod,
  page: { after?: OrderKey; limit?: number } = {},
) =>
  ordersQuery(db, userId, {
    from: period.start,
    to: period.end,
    order: "oldest",
    after: page.after,
    limit: page.limit ?? Number.MAX_SAFE_INTEGER,
  });

/** One month's statement: its ledger rows in one round trip, its orders (a raw read, not batchable) beside it. */
export async function monthlyStatement(db: Db, userId: string, period: StatementPeriod) {
  const [{ profile, opening, movements, requests }, orders] = await Promise.all([
    readTogether(db, {
      profile: db
        .select({ firstName: profiles.firstName, lastName: profiles.lastName })
        .from(profiles)
        .where(eq(profiles.userId, userId))
        .limit(1),
      opening: openingQuery(db, userId, period.month),
      movements: movementsQuery(db, userId, period),
      requests: requestsQuery(db, userId, period),
    }),
    monthOrdersQuery(db, userId, period),
  ]);
  return {
    holder: profile[0] ?? { firstName: "", lastName: "" },
    requests: requests as StatementRow[],
    orders: orders as OrderRow[],
    ...statementFigures(Number(opening[0]?.cents ?? 0), movements as StatementRow[]),
  };
}

/** How a statement names its client: their name, or their e-mail address when they gave none. */
export function holderName(profile: { firstName: string; lastName: string } | undefined, email: string): string {
  return [profile?.firstName, profile?.lastName].filter(Boolean).join(" ") || email;
}

/**
 * A month's statement as the client reads it, on the page and in the PDF alike: the figures, the period (the
 * current month's runs to `now`) and who it is for (their name, or their e-mail address when they gave none).
 */
export async function clientStatement(
  db: Db,
  user: { id: string; email: string },
  period: StatementPeriod,
  now = Date.now(),
) {
  const { holder, ...statement } = await monthlyStatement(db, user.id, period);
  return {
    ...statement,
    month: period.month,
    periodStart: period.start,
    periodEnd: Math.min(period.end, now + 1) - 1,
    accountId: user.id,
    email: user.email,
    holder: holderName(holder, user.email),
  };
}

export type ClientStatement = Awaited<ReturnType<typeof clientStatement>>;

/**
 * The first request (not approved) a client made at or after `fromSql`: one seek per status on the index
 * (user_id, status, created_at, id), the smallest of the three.
 */
function firstRequestAtOrAfter(userId: string, fromSql: SQL): SQL {
  const seeks = REQUEST_STATUSES.map(
    (status) =>
      sql`SELECT (SELECT min(created_at) FROM transactions WHERE user_id = ${userId} AND status = ${status} AND created_at >= ${fromSql}) AS at`,
  );
  return sql`(SELECT min(at) FROM (${sql.join(seeks, sql` UNION ALL `)}))`;
}

/**
 * Every month with activity, newest first: the months money moved in (`ledger_months`), and the months requests
 * were made in, found by jumping from one request to the first one of the next month (one seek per status and
 * month with requests, on (user_id, status, created_at, id)), never a walk through the history. The only sort is
 * of the months found.
 */
export async function statementMonths(db: Db, userId: string): Promise<string[]> {
  const nextMonth = sql.raw(
    `CAST(strftime('%s', at / 1000, 'unixepoch', 'start of month', '+1 month') AS INTEGER) * 1000`,
  );
  const rows = await db.all<{ month: string }>(sql`
    WITH RECURSIVE asked(at) AS (
      SELECT ${firstRequestAtOrAfter(userId, sql`0`)}
      UNION ALL
      SELECT ${firstRequestAtOrAfter(userId, nextMonth)} FROM asked WHERE at IS NOT NULL
    )
    SELECT strftime('%Y-%m', at / 1000, 'unixepoch') AS month FROM asked WHERE at IS NOT NULL
    UNION
    SELECT month FROM ledger_months WHERE user_id = ${userId}
    ORDER BY month DESC`);
  return rows.map((row) => row.month);
}
