/** Ledgers made for the monitoring rules: a client's own requests at chosen times, and reading their alerts back. */
import { env } from "cloudflare:workers";
import { evaluateRules } from "~/server/monitoring/evaluate.server";
import type { MonitoringRule } from "../../db/enums";
import { appEnv, createUser, db, insertTransaction } from "./fixtures";

export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;
/** A fixed clock, well in the past, so the cron's "last 24 hours" of other tests never reaches these rows. */
export const T = Date.UTC(2026, 0, 15, 12);

export async function client() {
  const person = await createUser();
  // Old enough for the dormant rule to apply: a young account cannot have slept 180 days.
  await env.DB.prepare("UPDATE users SET created_at = ? WHERE id = ?")
    .bind(T - 400 * DAY, person.id)
    .run();
  return person;
}

/** A request the client made themselves (created_by is the client), `ago` before T. */
export function request(
  userId: string,
  type: "deposit" | "withdraw",
  amountCents: number,
  ago: number,
  extra: { status?: "pending" | "approved"; decidedAt?: number; withdrawalWalletAddress?: string } = {},
) {
  return insertTransaction(userId, {
    transactionType: type,
    amountCents,
    createdBy: userId,
    createdAt: T - ago,
    status: extra.status ?? "pending",
    decidedAt: extra.decidedAt,
    withdrawalWalletAddress: type === "withdraw" ? (extra.withdrawalWalletAddress ?? "0xabc") : undefined,
  });
}

/** Every rule judges one request, as after its batch. */
export const judge = (transactionId: number, now = T) => evaluateRules(db, appEnv, { transactionId }, now);

export async function alertsOf(userId: string, rule?: MonitoringRule) {
  const { results } = await env.DB.prepare(
    `SELECT rule, trigger_transaction_id AS triggerId, detail, status FROM monitoring_alerts
     WHERE user_id = ? ${rule ? "AND rule = ?" : ""} ORDER BY id`,
  )
    .bind(...(rule ? [userId, rule] : [userId]))
    .all<{ rule: MonitoringRule; triggerId: number; detail: string; status: string }>();
  return results.map((row) => ({ ...row, detail: JSON.parse(row.detail) }));
}

/** The one alert the client has (of the rule), failing the test when there is none or more. */
export async function theAlert(userId: string, rule?: MonitoringRule) {
  const [alert, ...more] = await alertsOf(userId, rule);
  if (!alert || more.length > 0) throw new Error(`expected one alert, found ${more.length + (alert ? 1 : 0)}`);
  return alert;
}
