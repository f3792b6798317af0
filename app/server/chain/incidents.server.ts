/**
 * What on chain the desk must hear of, by mail as well as on its pages: a recorded payout the watcher refused (to
 * those who may record payouts), a payment in the ledger reorganised out of the chain (to those who read the chain
 * payments page). One mail per incident and admin, however often a run is replayed (the outbox's dedupe key).
 */
import { type SQL, sql } from "drizzle-orm";
import { rolesFor } from "~/lib/permissions";
import type { Db } from "../db.server";
import { writeTogether } from "../db.server";
import { enqueueEmailFor } from "../mail/outbox.server";

export interface Incident {
  kind: "payout_refused" | "credit_reorganised_out";
  /** Unique per incident: the payout's or the payment's id. */
  key: string;
  userId: string;
  txid: string;
  reason: string;
}

const quoted = (roles: readonly string[]) => sql.raw(roles.map((role) => `'${role}'`).join(", "));

/** The incident's mails to the admins it concerns, as one statement: a caller may put it in its own batch. */
export function incidentMails(incident: Incident, client: string, onlyIf?: SQL) {
  const roles = rolesFor(incident.kind === "payout_refused" ? "decideWithdrawals" : "readChainPayments");
  const page = incident.kind === "payout_refused" ? `/user/${incident.userId}` : "/admin/chain-payments";
  return enqueueEmailFor({
    template: "chain_incident",
    data: { kind: incident.kind, client, txid: incident.txid, reason: incident.reason, page },
    to: sql`users.email`,
    from: sql`users WHERE users.role = 'admin' AND users.deactivated_at IS NULL
      AND EXISTS (SELECT 1 FROM admin_roles r WHERE r.user_id = users.id AND r.role IN (${quoted(roles)}))
      ${onlyIf ? sql`AND ${onlyIf}` : sql``}`,
    dedupeKey: sql`${`chain_incident:${incident.kind}:${incident.key}:`} || users.id`,
  });
}

/** How the desk's mail names a client: their name, else their e-mail. */
export async function clientNameOf(db: Db, userId: string): Promise<string> {
  const client = await db.get<{ name: string }>(
    sql`SELECT coalesce(nullif(trim(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '')), ''), u.email) AS name
        FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.id = ${userId}`,
  );
  return client?.name ?? userId;
}

/** Enqueues the desk's mails of these incidents; answers the outbox ids to deliver after the run. */
export async function tellTheDesk(db: Db, incidents: readonly Incident[]): Promise<number[]> {
  const ids: number[] = [];
  for (const incident of incidents) {
    const { mails } = await writeTogether(db, {
      mails: incidentMails(incident, await clientNameOf(db, incident.userId)),
    });
    ids.push(...mails.map((row) => row.id));
  }
  return ids;
}
