/**
 * The windowed rules' two statements (docs/product.md, "Transaction monitoring"; docs/decisions/0055): the request
 * that completes a pattern opens an alert when the client has no open one of the rule, and every request whose window
 * meets the rule adds its window's requests to the client's open alert, whose figures are then read again over all
 * of them. So a pattern that goes on, or starts again while its alert waits, is seen whole in the one alert the
 * officer decides, not hidden behind the requests that opened it.
 */
import { type SQL, sql } from "drizzle-orm";
import type { MonitoringRule } from "../../../db/enums";
import { returning } from "../db.server";
import { insertAlerts, isClientRequest, type RuleRun, scopeSql } from "./scope.server";

export interface WindowedRule {
  rule: Extract<MonitoringRule, "structuring" | "velocity">;
  /** How far back from a request its window reaches (the request's own moment included). */
  windowMs: number;
  /** Which requests may trigger the rule and which ones its window counts, as a condition on the alias given. */
  counts: (row: string) => SQL;
  /** The window meets the rule: a condition over the aggregates of the window `w` of the trigger `t`. */
  meets: SQL;
  /** Without the trigger it did not: the trigger completes the pattern. Over the same aggregates. */
  completes: SQL;
  /** The alert's detail: one json_object over the aggregates of a set of requests `w`, in the order they were made. */
  detail: SQL;
}

/** The requests `w` in the window ending at the request `t` (a transaction or any row with its columns). */
const inWindow = (rule: WindowedRule) =>
  sql`w.user_id = t.user_id AND ${isClientRequest("w")} AND ${rule.counts("w")}
      AND w.created_at > t.created_at - ${rule.windowMs} AND w.created_at <= t.created_at`;

/** The detail over the requests `rows` picks (a condition on `w`), read in the order they were made. */
const detailOver = (rule: WindowedRule, rows: SQL) =>
  sql`(SELECT ${rule.detail} FROM (SELECT * FROM transactions w WHERE ${rows} ORDER BY w.created_at, w.id) w)`;

/** The run's requests that may trigger the rule, each `t` grouped with its window `w` (a HAVING follows). */
const judgedWindows = (rule: WindowedRule, run: RuleRun) =>
  sql`FROM transactions t JOIN transactions w ON ${inWindow(rule)}
      WHERE ${scopeSql(run.scope)} AND ${isClientRequest("t")} AND ${rule.counts("t")}
      GROUP BY t.id`;

const isOpenAlertOf = (rule: WindowedRule, userId: SQL) =>
  sql`user_id = ${userId} AND rule = ${rule.rule} AND status = 'open'`;

/**
 * A new alert on the request that completes the pattern, for a client with no open alert of the rule: one per client
 * and run (the earliest), as an INSERT … SELECT does not see its own rows; the statement after it adds the others.
 */
function openAlert(rule: WindowedRule, run: RuleRun) {
  return insertAlerts(
    rule.rule,
    run.now,
    sql`SELECT user_id, trigger_id, detail FROM (
          SELECT t.user_id, t.id AS trigger_id, ${detailOver(rule, inWindow(rule))} AS detail,
                 row_number() OVER (PARTITION BY t.user_id ORDER BY t.created_at, t.id) AS nth
          ${judgedWindows(rule, run)}
          HAVING ${rule.meets} AND ${rule.completes}
        ) AS completed
        WHERE nth = 1 AND NOT EXISTS (SELECT 1 FROM monitoring_alerts WHERE ${isOpenAlertOf(rule, sql`completed.user_id`)})`,
  );
}

/**
 * The client's open alert of the rule (the newest, should there be more) takes in the windows of the run's requests
 * that meet the rule, when they hold a request it does not list yet: judging again changes nothing, and tells no one.
 */
function growAlert(rule: WindowedRule, run: RuleRun) {
  const listed = (alert: string) => sql.raw(`SELECT value FROM json_each(${alert}.detail, '$.transactionIds')`);
  return returning<{ id: number }>(sql`
    WITH matching AS (SELECT t.user_id, t.created_at ${judgedWindows(rule, run)} HAVING ${rule.meets}),
         joining AS (SELECT DISTINCT w.user_id, w.id FROM matching t JOIN transactions w ON ${inWindow(rule)}),
         growing AS (
           SELECT (SELECT max(id) FROM monitoring_alerts WHERE ${isOpenAlertOf(rule, sql`clients.user_id`)}) AS id
           FROM (SELECT DISTINCT user_id FROM joining) clients)
    UPDATE monitoring_alerts AS a
    SET detail = ${detailOver(
      rule,
      sql`w.id IN (${listed("a")}) OR w.id IN (SELECT j.id FROM joining j WHERE j.user_id = a.user_id)`,
    )}
    WHERE a.id IN (SELECT id FROM growing)
      AND EXISTS (SELECT 1 FROM joining j WHERE j.user_id = a.user_id AND j.id NOT IN (${listed("a")}))
    RETURNING id`);
}

/** A windowed rule's statements, in the order the batch runs them: open first, so one run's later requests join. */
export const windowedStatements = (rule: WindowedRule, run: RuleRun) => [openAlert(rule, run), growAlert(rule, run)];
