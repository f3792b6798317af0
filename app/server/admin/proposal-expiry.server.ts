/**
 * Expiry of proposals: 72 hours after it was made, a proposal nobody decided is closed by the minute cron, with
 * its audit row and the proposer's mail. Approval after expiry is refused anyway, cron or not.
 */
import { sql } from "drizzle-orm";
import { type Actor, auditInsert } from "../audit.server";
import type { Db } from "../db.server";
import { returning, schema, writeTogether } from "../db.server";
import { enqueueEmailFor } from "../mail/outbox.server";
import { type LoadedProposal, proposalFor } from "./proposal-records.server";

const { proposals } = schema;

/** At most this many proposals are expired per cron run; the next minute takes the rest. */
const EXPIRY_BATCH = 50;

/** The scheduler's name in the audit log. */
const CRON: Actor = { id: "cron" };

/**
 * The cron's sweep: pending proposals past their expiry become 'expired', each with its audit row and the
 * proposer's mail in the same batch. Approval after expiry is refused anyway, cron or not.
 */
export async function expireProposals(db: Db, now = Date.now()): Promise<{ expired: number; emailIds: number[] }> {
  const due = await db
    .select({ id: proposals.id })
    .from(proposals)
    .where(sql`${proposals.status} = 'pending' AND ${proposals.expiresAt} <= ${now}`)
    .orderBy(proposals.expiresAt)
    .limit(EXPIRY_BATCH);
  if (due.length === 0) return { expired: 0, emailIds: [] };
  const loaded = (await Promise.all(due.map((row) => proposalFor(db, row.id)))).filter(
    (row): row is LoadedProposal => row !== null,
  );
  const writes = Object.fromEntries(
    loaded.flatMap((proposal) => {
      const expiredHere = sql`proposals p WHERE p.id = ${proposal.id} AND p.status = 'expired' AND p.decided_at = ${now}`;
      return [
        [
          `expire:${proposal.id}`,
          returning<{ id: number }>(
            sql`UPDATE proposals SET status = 'expired', decided_at = ${now}
                WHERE id = ${proposal.id} AND status = 'pending' AND expires_at <= ${now} RETURNING id`,
          ),
        ],
        [
          `audit:${proposal.id}`,
          auditInsert({
            actor: CRON,
            action: "proposal.expire",
            target: `proposal:${proposal.id}`,
            detail: sql`'kind', p.kind, 'proposedBy', ${proposal.proposerEmail}, 'expiresAt', p.expires_at`,
            from: sql`${expiredHere} AND NOT EXISTS (SELECT 1 FROM audit_log
                        WHERE target = ${`proposal:${proposal.id}`} AND action = 'proposal.expire')`,
            at: now,
          }),
        ],
        [
          `notice:${proposal.id}`,
          enqueueEmailFor({
            template: "proposal_decided",
            data: { description: proposal.description, decision: "expired" },
            to: sql`users.email`,
            from: sql`users JOIN ${expiredHere} AND users.id = p.proposed_by`,
            dedupeKey: sql`${`proposal_decided:${proposal.id}`}`,
          }),
        ],
      ];
    }),
  );
  const results = (await writeTogether(db, writes)) as Record<string, Array<{ id: number }>>;
  const expired = loaded.filter((p) => (results[`expire:${p.id}`] ?? []).length === 1).length;
  const emailIds = loaded.flatMap((p) => (results[`notice:${p.id}`] ?? []).map((row) => row.id));
  return { expired, emailIds };
}
