/**
 * What every monitoring rule shares: which transactions may trigger an alert (a client's own deposit, stock deposit
 * or withdrawal request: admin entries are the firm's doing), which ones a run looks at, and the alert's insert,
 * which the unique key (client, rule, trigger) makes safe to repeat and to run in parallel.
 */
import { type SQL, sql } from "drizzle-orm";
import { CHAIN_DEPOSIT_KEY_PREFIX, CLIENT_REQUEST_TYPES } from "~/lib/money/constraints";
import type { MonitoringRule } from "../../../db/enums";
import { returning } from "../db.server";
import type { AppEnv } from "../env.server";

/**
 * A client's own request, as the alias `row` (a request is written by its client; an admin entry is not), or a
 * deposit seen on chain (written by the watcher, the client's money in all the same).
 */
export const isClientRequest = (row: string) =>
  sql.raw(
    `(${row}.created_by = ${row}.user_id OR ${row}.idempotency_key LIKE '${CHAIN_DEPOSIT_KEY_PREFIX}%') AND ${row}.transaction_type IN (${CLIENT_REQUEST_TYPES.map((type) => `'${type}'`).join(", ")})`,
  );

/** How a detail names the kind of one request. */
export const kindOf = (row: string) =>
  sql.raw(`CASE ${row}.transaction_type WHEN 'withdraw' THEN 'withdrawal' ELSE 'deposit' END`);

/** Which requests a run judges, as a condition on the alias `t`: one just made, or those of a recent period. */
export type TriggerScope = { transactionId: number } | { from: number; to: number };

export function scopeSql(scope: TriggerScope): SQL {
  return "transactionId" in scope
    ? sql`t.id = ${scope.transactionId}`
    : sql`t.created_at > ${scope.from} AND t.created_at <= ${scope.to}`;
}

export interface RuleRun {
  env: AppEnv;
  scope: TriggerScope;
  /** When the alerts are written. */
  now: number;
}

export const largeCents = (env: AppEnv) => env.AML_LARGE_AMOUNT * 100;

/**
 * The one statement of a rule: `select` yields (user_id, trigger id, detail) rows for the alias `t` (the trigger)
 * and ends with its own WHERE/GROUP BY, so the ON CONFLICT clause parses as the upsert's.
 */
export function insertAlerts(rule: MonitoringRule, now: number, select: SQL) {
  return returning<{
    id: number;
  }>(sql`INSERT INTO monitoring_alerts (user_id, rule, trigger_transaction_id, detail, created_at)
    SELECT user_id, ${rule}, trigger_id, detail, ${now} FROM (${select})
    WHERE true
    ON CONFLICT (user_id, rule, trigger_transaction_id) DO NOTHING
    RETURNING id`);
}
