/**
 * The rules table's figures on the server: the client's totals read from `ledger_totals` (kept by triggers
 * in the statement that writes each ledger row, so at most one row per status, type and stock however long
 * the history), and the figures as SQL expressions for use inside conditional statements.
 */
import { eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import {
  type CoverRuleName,
  coverFigureSql as coverFigureSqlText,
  coverSql as coverSqlText,
  openPositionsCostSql as openPositionsCostSqlText,
  spendCoveredSql as spendCoveredSqlText,
} from "~/lib/money/constraints";
import {
  emptyTotals,
  type FigureName,
  figureSql as figureSqlText,
  type LedgerTotals,
  profileProjectionSql,
  summarize,
} from "~/lib/money/rules";
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from "../../../db/enums";
import type { Db } from "../db.server";
import { schema } from "../db.server";

const { ledgerTotals: totalsTable } = schema;

/** The client's totals by status and type (`userId` a value, or an expression that finds it). */
export function ledgerTotalsQuery(db: Db, userId: string | SQLWrapper) {
  return db
    .select({
      status: totalsTable.status,
      type: totalsTable.transactionType,
      count: sql<number>`sum(${totalsTable.count})`,
      cents: sql<number>`sum(${totalsTable.cents})`,
    })
    .from(totalsTable)
    .where(eq(totalsTable.userId, userId))
    .groupBy(totalsTable.status, totalsTable.transactionType);
}

type TotalsRow = Awaited<ReturnType<typeof ledgerTotalsQuery>>[number];

export function totalsOf(rows: TotalsRow[]): LedgerTotals {
  const totals = emptyTotals();
  for (const row of rows) {
    if (!TRANSACTION_STATUSES.includes(row.status) || !TRANSACTION_TYPES.includes(row.type)) continue;
    totals[row.status][row.type] = { count: Number(row.count), cents: Number(row.cents) };
  }
  return totals;
}

export async function ledgerTotals(db: Db, userId: string): Promise<LedgerTotals> {
  return totalsOf(await ledgerTotalsQuery(db, userId));
}

export async function ledgerSummary(db: Db, userId: string) {
  return summarize(await ledgerTotals(db, userId));
}

/**
 * One figure of the rules table for one client, as an SQL expression (`userId` a bound value or a column
 * expression), for the conditions of a statement: the database checks it at the moment of writing.
 */
export function figureSql(name: FigureName, userId: string | SQLWrapper): SQL<number> {
  return bindUserId((placeholder) => figureSqlText(name, placeholder), userId);
}

type Bindable = string | number | SQLWrapper;

/**
 * The rules module writes SQL text around expressions it is given; here each becomes a bound value (or the SQL
 * it is). The marks hold a NUL, which no SQL of the rules module contains.
 */
function bindAll(text: (...placeholders: string[]) => string, values: Bindable[]): SQL<number> {
  // Each value's mark is its index between two NULs, so splitting on NUL alternates text and indexes.
  const marks = values.map((_, i) => `\u0000${i}\u0000`);
  const parts = text(...marks)
    .split("\u0000")
    .map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part)]}`));
  return sql.join(parts) as SQL<number>;
}

const bindUserId = (text: (userIdSql: string) => string, userId: Bindable) =>
  bindAll((placeholder = "") => text(placeholder), [userId]);

/**
 * A cover rule of the rules table (`COVER_RULES`) as a condition for a statement's WHERE: the move's type and
 * amount are bound values, or the columns of the row the statement writes (`sql\`transaction_type\``).
 */
export function coverSql(
  name: CoverRuleName,
  userId: string | SQLWrapper,
  move: { type: Bindable; amountCents: Bindable },
): SQL {
  return bindAll(
    (user = "", type = "", amount = "") => coverSqlText(name, user, type, amount),
    [userId, move.type, move.amountCents],
  );
}

/** A cover rule's figure for one client, the open positions' cost taken off where the rule says. */
export const coverFigureSql = (name: CoverRuleName, userId: string | SQLWrapper): SQL<number> =>
  bindUserId((placeholder) => coverFigureSqlText(name, placeholder), userId);

/** A buy of `amountCents` (a value or an expression) is covered by the rule's figure for this client. */
export const spendCoveredSql = (name: CoverRuleName, userId: string | SQLWrapper, amountCents: Bindable): SQL =>
  bindAll((user = "", amount = "") => spendCoveredSqlText(name, user, amount), [userId, amountCents]);

/** The cost of the client's open positions, reserved until they are sold. */
export const openPositionsCostSql = (userId: string | SQLWrapper): SQL<number> =>
  bindUserId((placeholder) => openPositionsCostSqlText(placeholder), userId);

export async function openPositionsCostCents(db: Db, userId: string): Promise<number> {
  const row = await db.get<{ value: number }>(sql`SELECT ${openPositionsCostSql(userId)} AS value`);
  return Number(row?.value ?? 0);
}

/** What the client may still withdraw: pending withdrawals and the open positions' cost reserved. */
export const withdrawableSql = (userId: string | SQLWrapper) => coverFigureSql("withdrawalRequest", userId);

export async function withdrawableCents(db: Db, userId: string): Promise<number> {
  const row = await db.get<{ value: number }>(sql`SELECT ${withdrawableSql(userId)} AS value`);
  return Number(row?.value ?? 0);
}

/**
 * Brings the profile's stored projections (balance, Total Trades, Win Rate) up to date with the ledger; the
 * last statement of every batch that changes a client's approved rows. The admin's client page reads the
 * balance and the dashboard the trades and win rate from them; a property test holds them equal to the
 * rules table's figures.
 */
export function refreshProfileProjection(userId: string | SQL, at: number): SQL {
  const assignments = bindUserId(profileProjectionSql, userId);
  return sql`UPDATE profiles SET ${assignments}, updated_at = ${at} WHERE user_id = ${userId}`;
}
