/**
 * The compliance queue's decisions on a monitoring alert (docs/product.md, "Transaction monitoring", "The alerts
 * queue"): Dismiss, Escalate and Report filed. Each is one atomic batch whose first statement decides (the alert is
 * still open) and whose other statements write only if it did, so an alert is decided once however many admins try
 * at the same moment; the table's trigger refuses any later change as well.
 */

import { sql } from "drizzle-orm";
import {
  ALERT_DISPOSITIONS,
  ALERT_MESSAGES,
  type AlertDisposition,
  escalationNoteText,
  parseDisposition,
} from "~/lib/monitoring/alerts";
import { MONITORING_RULE_NAMES } from "~/lib/monitoring/rules";
import { parseRowId } from "~/lib/row-id";
import type { MonitoringRule } from "../../../db/enums";
import { noteWrites } from "../admin/notes.server";
import { auditInsert } from "../audit.server";
import { afterCommit, type CommandContext, type FormOutcome } from "../commands.server";
import { returning, writeTogether } from "../db.server";
import { assertMay, type BackOfficeActor } from "../permissions.server";

const DONE: Record<AlertDisposition, string> = {
  dismiss: ALERT_MESSAGES.dismissed,
  escalate: ALERT_MESSAGES.escalated,
  report: ALERT_MESSAGES.reported,
};

const hasProfile = (userId: string) => sql`EXISTS (SELECT 1 FROM profiles WHERE user_id = ${userId} AND role = 'user')`;

/**
 * Decides an open alert: `alertId` and the decision's text come from the form (a reason, a note, a report's
 * reference). Escalating also puts the client on Watch with a note saying which alert it came from, written by the
 * client-notes command's own statements in the same batch; it needs the client's profile, so a deleted client's
 * alert is dismissed or reported instead. The form says how many requests the page listed (`listed`): an open
 * alert grows, and a decision covers only what its officer saw, so one that grew since is refused. A form without
 * it (a page loaded before it was sent) decides as before.
 */
export async function decideAlert(
  context: CommandContext,
  admin: BackOfficeActor,
  disposition: AlertDisposition,
  form: FormData,
  now = Date.now(),
): Promise<FormOutcome> {
  const allowed = assertMay(admin, "reviewAlerts");
  if (!allowed.ok) return allowed;
  const alertId = parseRowId(form.get("alertId"));
  if (alertId === null) return { ok: false, error: ALERT_MESSAGES.notFound, status: 404 };
  const parsed = parseDisposition(disposition, form);
  if (!parsed.ok) return { ok: false, error: parsed.error, status: 400, field: parsed.field };

  const { db } = context;
  const alert = await db.get<{ userId: string; rule: MonitoringRule; status: string }>(
    sql`SELECT user_id AS userId, rule, status FROM monitoring_alerts WHERE id = ${alertId}`,
  );
  if (!alert) return { ok: false, error: ALERT_MESSAGES.notFound, status: 404 };
  if (alert.status !== "open") return { ok: false, error: ALERT_MESSAGES.alreadyDecided, status: 409 };
  const listed = parseRowId(form.get("listed"));
  const unchanged = listed === null ? sql`` : sql`AND json_array_length(detail, '$.transactionIds') = ${listed}`;
  const escalating = disposition === "escalate";
  const action = `alert.${disposition}` as const;

  const { decided } = await writeTogether(db, {
    decided: returning<{ id: number }>(sql`
      UPDATE monitoring_alerts
      SET status = ${ALERT_DISPOSITIONS[disposition]}, disposed_by = ${admin.id}, disposed_at = ${now},
          disposition_note = ${parsed.note}, report_reference = ${parsed.reference}
      WHERE id = ${alertId} AND status = 'open' ${unchanged} ${escalating ? sql`AND ${hasProfile(alert.userId)}` : sql``}
      RETURNING id`),
    // changes() is the previous statement's: each of these writes only after the one before it did.
    audit: auditInsert({
      actor: admin,
      action,
      target: `alert:${alertId}`,
      detail: sql`'client', user_id, 'rule', rule, 'note', disposition_note, 'reference', report_reference`,
      from: sql`monitoring_alerts WHERE id = ${alertId} AND changes() = 1`,
      at: now,
    }),
    ...(escalating
      ? noteWrites({
          clientId: alert.userId,
          author: admin,
          note: {
            body: escalationNoteText(alertId, MONITORING_RULE_NAMES[alert.rule], parsed.note ?? ""),
            correctsId: null,
            added: ["watch"],
            removed: [],
          },
          at: now,
          onlyIf: sql`changes() = 1`,
        })
      : {}),
  });
  if (decided.length === 0) {
    const current = await db.get<{ status: string; listed: number }>(
      sql`SELECT status, json_array_length(detail, '$.transactionIds') AS listed FROM monitoring_alerts WHERE id = ${alertId}`,
    );
    if (current?.status !== "open") return { ok: false, error: ALERT_MESSAGES.alreadyDecided, status: 409 };
    if (listed !== null && current.listed !== listed) return { ok: false, error: ALERT_MESSAGES.grown, status: 409 };
    return { ok: false, error: ALERT_MESSAGES.clientDeleted, status: 409 };
  }
  afterCommit(context, {
    deskEvents: [
      { type: "alerts.changed" },
      ...(escalating ? [{ type: "client.notes.changed" as const, userId: alert.userId }] : []),
    ],
  });
  return { ok: true, message: DONE[disposition] };
}
