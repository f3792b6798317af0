/**
 * The rules about amounts and counts of a client's requests (docs/product.md, "Transaction monitoring"): a large
 * single transaction, structuring and velocity. Each is one statement; the windowed ones fire on the request that
 * completes the pattern (with it the window meets the rule, without it the window did not), so their verdict
 * depends on the ledger alone, not on when or how often they run.
 */
import { sql } from "drizzle-orm";
import { MONITORING_WINDOWS, STRUCTURING_MIN_REQUESTS } from "~/lib/monitoring/rules";
import { insertAlerts, isClientRequest, kindOf, largeCents, type RuleRun, scopeSql } from "./scope.server";

/** A request of AML_LARGE_AMOUNT or more. */
export function largeTransaction({ env, scope, now }: RuleRun) {
  const large = largeCents(env);
  return insertAlerts(
    "large_transaction",
    now,
    sql`SELECT t.user_id, t.id AS trigger_id,
               json_object('transactionIds', json_array(t.id), 'kind', ${kindOf("t")},
                           'amountCents', t.amount_cents, 'thresholdCents', ${large}) AS detail
        FROM transactions t
        WHERE ${scopeSql(scope)} AND ${isClientRequest("t")} AND t.amount_cents >= ${large}`,
  );
}

/** The requests in the window ending at the trigger `t`, as the alias `w`, joined on (GROUP BY t.id follows). */
const windowOf = (ms: number) =>
  sql`JOIN transactions w ON w.user_id = t.user_id AND ${isClientRequest("w")}
        AND w.created_at > t.created_at - ${ms} AND w.created_at <= t.created_at`;

/** What kind the window's requests are: all deposits, all withdrawals, or both. */
const windowKind = sql`CASE WHEN min(w.transaction_type = 'withdraw') = 1 THEN 'withdrawal'
                            WHEN max(w.transaction_type = 'withdraw') = 0 THEN 'deposit' ELSE 'request' END`;

/**
 * Three or more requests in 7 days, each below AML_LARGE_AMOUNT, that together reach it: the shape of one large
 * amount cut into pieces (three pieces each between 80% and 100% of it always do; the words then say so).
 */
export function structuring({ env, scope, now }: RuleRun) {
  const large = largeCents(env);
  return insertAlerts(
    "structuring",
    now,
    sql`SELECT t.user_id, t.id AS trigger_id,
               json_object('transactionIds', json_group_array(w.id), 'kind', ${windowKind}, 'count', count(*),
                           'totalCents', sum(w.amount_cents), 'minCents', min(w.amount_cents),
                           'maxCents', max(w.amount_cents), 'spanMs', t.created_at - min(w.created_at),
                           'thresholdCents', ${large}) AS detail
        FROM transactions t ${windowOf(MONITORING_WINDOWS.structuring)} AND w.amount_cents < ${large}
        WHERE ${scopeSql(scope)} AND ${isClientRequest("t")} AND t.amount_cents < ${large}
        GROUP BY t.id
        HAVING count(*) >= ${STRUCTURING_MIN_REQUESTS} AND sum(w.amount_cents) >= ${large}
           AND NOT (count(*) - 1 >= ${STRUCTURING_MIN_REQUESTS} AND sum(w.amount_cents) - t.amount_cents >= ${large})`,
  );
}

/** More than AML_VELOCITY_COUNT requests in 24 hours: fires on the one that passes the count. */
export function velocity({ env, scope, now }: RuleRun) {
  return insertAlerts(
    "velocity",
    now,
    sql`SELECT t.user_id, t.id AS trigger_id,
               json_object('transactionIds', json_group_array(w.id), 'kind', ${windowKind}, 'count', count(*),
                           'limit', ${env.AML_VELOCITY_COUNT}, 'spanMs', t.created_at - min(w.created_at)) AS detail
        FROM transactions t ${windowOf(MONITORING_WINDOWS.velocity)}
        WHERE ${scopeSql(scope)} AND ${isClientRequest("t")}
        GROUP BY t.id
        HAVING count(*) = ${env.AML_VELOCITY_COUNT + 1}`,
  );
}
