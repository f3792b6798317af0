/**
 * The rules about amounts and counts of a client's requests (docs/product.md, "Transaction monitoring"): a large
 * single transaction, structuring and velocity. The large one is one statement; the windowed ones are two
 * (windowed.server.ts): an alert opens on the request that completes the pattern (with it the window meets the rule,
 * without it the window did not) and grows with the later requests that meet it, so their verdict depends on the
 * ledger alone, not on when or how often they run.
 */
import { type SQL, sql } from "drizzle-orm";
import { MONITORING_WINDOWS, STRUCTURING_BAND_PERCENT, STRUCTURING_MIN_REQUESTS } from "~/lib/monitoring/rules";
import { insertAlerts, isClientRequest, kindOf, largeCents, type RuleRun, scopeSql } from "./scope.server";
import { windowedStatements } from "./windowed.server";

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

/** What kind the requests `w` (those `only` picks) are: all deposits, all withdrawals, or both. */
const kindOfSet = (only: SQL = sql`true`) =>
  sql`CASE WHEN min(CASE WHEN ${only} THEN w.transaction_type = 'withdraw' END) = 1 THEN 'withdrawal'
           WHEN max(CASE WHEN ${only} THEN w.transaction_type = 'withdraw' END) = 0 THEN 'deposit' ELSE 'request' END`;

/**
 * Three or more requests in 7 days, each below AML_LARGE_AMOUNT, that together reach it: the shape of one large
 * amount cut into pieces (three pieces each between 80% and 100% of it always do). The detail counts the requests
 * just under it apart, so the words can name them beside the whole window.
 */
export function structuring(run: RuleRun) {
  const large = largeCents(run.env);
  const justUnder = sql`w.amount_cents * 100 >= ${large} * ${STRUCTURING_BAND_PERCENT}`;
  const justUnderCents = sql`CASE WHEN ${justUnder} THEN w.amount_cents END`;
  return windowedStatements(
    {
      rule: "structuring",
      windowMs: MONITORING_WINDOWS.structuring,
      counts: (row) => sql`${sql.raw(row)}.amount_cents < ${large}`,
      meets: sql`count(*) >= ${STRUCTURING_MIN_REQUESTS} AND sum(w.amount_cents) >= ${large}`,
      completes: sql`NOT (count(*) - 1 >= ${STRUCTURING_MIN_REQUESTS} AND sum(w.amount_cents) - t.amount_cents >= ${large})`,
      detail: sql`json_object('transactionIds', json_group_array(w.id), 'kind', ${kindOfSet()}, 'count', count(*),
                    'totalCents', sum(w.amount_cents), 'minCents', min(w.amount_cents),
                    'maxCents', max(w.amount_cents), 'spanMs', max(w.created_at) - min(w.created_at),
                    'thresholdCents', ${large}, 'nearCount', sum(${justUnder}),
                    'nearTotalCents', coalesce(sum(${justUnderCents}), 0), 'nearMinCents', min(${justUnderCents}),
                    'nearMaxCents', max(${justUnderCents}), 'nearKind', ${kindOfSet(justUnder)})`,
    },
    run,
  );
}

/** More than AML_VELOCITY_COUNT requests in 24 hours: opens on the one that passes the count. */
export function velocity(run: RuleRun) {
  const limit = run.env.AML_VELOCITY_COUNT;
  return windowedStatements(
    {
      rule: "velocity",
      windowMs: MONITORING_WINDOWS.velocity,
      counts: () => sql`true`,
      meets: sql`count(*) > ${limit}`,
      completes: sql`count(*) = ${limit + 1}`,
      detail: sql`json_object('transactionIds', json_group_array(w.id), 'kind', ${kindOfSet()}, 'count', count(*),
                    'limit', ${limit}, 'spanMs', max(w.created_at) - min(w.created_at))`,
    },
    run,
  );
}
