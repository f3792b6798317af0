import { env } from "cloudflare:workers";

/**
 * A projection kept by triggers and the same figures counted from the tables it projects, read with the same
 * bound values, for a test to hold equal: `{ projected, counted }`.
 */
export async function projectionPair(projectedSql: string, countedSql: string, ...values: unknown[]) {
  const read = (query: string) =>
    env.DB.prepare(query)
      .bind(...values)
      .all();
  const [projected, counted] = await Promise.all([read(projectedSql), read(countedSql)]);
  return { projected: projected.results, counted: counted.results };
}

/**
 * What a per-period projection of approved rows must hold for a client (`ledger_months` by 'YYYY-MM',
 * `ledger_days` by 'YYYY-MM-DD'): the GROUP BY of its approved rows by the UTC period the money moved.
 */
export const periodPair = (table: "ledger_months" | "ledger_days", userId: string) => {
  const [column, format] = table === "ledger_days" ? ["day", "%Y-%m-%d"] : ["month", "%Y-%m"];
  return projectionPair(
    `SELECT ${column}, transaction_type, count, cents FROM ${table} WHERE user_id = ? ORDER BY ${column}, transaction_type`,
    `SELECT strftime('${format}', coalesce(decided_at, created_at) / 1000, 'unixepoch') AS ${column}, transaction_type,
            count(*) AS count, sum(amount_cents) AS cents
     FROM transactions WHERE user_id = ? AND status = 'approved' GROUP BY 1, 2 ORDER BY 1, 2`,
    userId,
  );
};
