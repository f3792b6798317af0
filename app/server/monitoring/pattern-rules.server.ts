/**
 * The rules about what happened around a withdrawal request (docs/product.md, "Transaction monitoring"): money out
 * soon after money in, a new payout address soon after a security change, and an account that wakes after months
 * of nothing. Each is one statement over the ledger and the records the account's security changes leave.
 */
import { sql } from "drizzle-orm";
import { MONITORING_WINDOWS, RAPID_OUT_PERCENT } from "~/lib/monitoring/rules";
import { neverPaidTo } from "../ledger/payout-address.server";
import { insertAlerts, isClientRequest, type RuleRun, scopeSql } from "./scope.server";

const isWithdrawalRequest = sql`${isClientRequest("t")} AND t.transaction_type = 'withdraw'`;

/** A withdrawal of at least 80% of a deposit approved in the 48 hours before it (the latest such deposit). */
export function rapidInOut({ scope, now }: RuleRun) {
  const deposit = sql`SELECT d.id FROM transactions d
    WHERE d.user_id = t.user_id AND d.transaction_type = 'deposit' AND d.status = 'approved'
      AND coalesce(d.decided_at, d.created_at) BETWEEN t.created_at - ${MONITORING_WINDOWS.rapidInOut} AND t.created_at
      AND t.amount_cents * 100 >= d.amount_cents * ${RAPID_OUT_PERCENT}
    ORDER BY coalesce(d.decided_at, d.created_at) DESC, d.id DESC LIMIT 1`;
  return insertAlerts(
    "rapid_in_out",
    now,
    sql`SELECT t.user_id, t.id AS trigger_id,
               json_object('transactionIds', json_array(d.id, t.id), 'amountCents', t.amount_cents,
                           'depositCents', d.amount_cents,
                           'spanMs', t.created_at - coalesce(d.decided_at, d.created_at)) AS detail
        FROM transactions t JOIN transactions d ON d.id = (${deposit})
        WHERE ${scopeSql(scope)} AND ${isWithdrawalRequest}`,
  );
}

/**
 * The security changes that count, as the account's security notices record them (each is written in the batch of
 * the change it reports, to the account's address): a password change or reset, two-factor sign-in turned on or
 * off, a provider linked, a sign-in from a browser the account never used.
 */
export const SECURITY_CHANGE_EVENTS = [
  "password_changed",
  "two_factor_on",
  "two_factor_off",
  "provider_linked",
  "new_browser",
] as const;
const securityEvents = sql.raw(SECURITY_CHANGE_EVENTS.map((event) => `'${event}'`).join(", "));

/** A withdrawal to an address this client was never paid to, within 72 hours after a security change. */
export function newDestinationAfterSecurityChange({ scope, now }: RuleRun) {
  const change = sql`SELECT e.id FROM email_outbox e
    WHERE e.template = 'security_notice' AND e.to_address = (SELECT email FROM users WHERE id = t.user_id)
      AND e.created_at BETWEEN t.created_at - ${MONITORING_WINDOWS.securityChange} AND t.created_at
      AND json_extract(e.payload, '$.event') IN (${securityEvents})
    ORDER BY e.created_at DESC, e.id DESC LIMIT 1`;
  return insertAlerts(
    "new_destination_after_security_change",
    now,
    sql`SELECT t.user_id, t.id AS trigger_id,
               json_object('transactionIds', json_array(t.id), 'amountCents', t.amount_cents,
                           'event', json_extract(e.payload, '$.event'), 'spanMs', t.created_at - e.created_at) AS detail
        FROM transactions t JOIN email_outbox e ON e.id = (${change})
        WHERE ${scopeSql(scope)} AND ${isWithdrawalRequest}
          AND ${neverPaidTo(sql`t.user_id`, sql`t.withdrawal_wallet_address`, { id: sql`t.id`, status: sql`t.status` })}`,
  );
}

/**
 * A withdrawal from an account 180 days old or more with no ledger row (made or decided) in the 180 days before
 * it. Sign-ins do not count as activity: the withdrawal needs one, and a taken-over account's sign-in is what
 * this rule is for.
 */
export function dormantAccount({ scope, now }: RuleRun) {
  const lastActivity = sql`coalesce((SELECT max(coalesce(a.decided_at, a.created_at)) FROM transactions a
    WHERE a.user_id = t.user_id AND a.id <> t.id AND a.created_at < t.created_at), u.created_at)`;
  return insertAlerts(
    "dormant_account",
    now,
    sql`SELECT t.user_id, t.id AS trigger_id,
               json_object('transactionIds', json_array(t.id), 'amountCents', t.amount_cents,
                           'idleDays', (t.created_at - ${lastActivity}) / 86400000) AS detail
        FROM transactions t JOIN users u ON u.id = t.user_id
        WHERE ${scopeSql(scope)} AND ${isWithdrawalRequest}
          AND ${lastActivity} <= t.created_at - ${MONITORING_WINDOWS.dormancy}`,
  );
}
