/**
 * The proposal to approve a client's request (a deposit, a stock deposit or a withdrawal), made when the rules
 * table says the approval waits for a second admin (`approveOrPropose` in money-acts.server.ts decides; docs/
 * decisions/0022-four-eyes.md). A deposit's approval credits the balance the client may then withdraw, so it
 * waits like a withdrawal's: otherwise one admin could credit a large deposit that never arrived and pay it out in
 * withdrawals under the threshold.
 */
import { sql } from "drizzle-orm";
import { describeProposal, PROPOSAL_LIFETIME_MS } from "~/lib/proposals";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import type { Actor } from "../audit.server";
import type { Result } from "../commands.server";
import type { Db } from "../db.server";
import { returning, schema, writeTogether } from "../db.server";
import { type RequestToDecide, requestToDecide, withdrawalApprovalRefusal } from "./decisions.server";
import { PROPOSAL_KIND_RECORDS } from "./proposal-kinds.server";
import { announceWrites, clientName, emailIdsOf, type ProposalMade } from "./proposals.server";

const { proposals, transactions } = schema;

/**
 * A request-approval proposal: the client's pending request, while it is still pending (and, for a withdrawal,
 * the client verified and the amount covered). One waits per request (a unique index); a second try while one waits is answered as the same proposal.
 */
export async function proposeRequestApproval(
  db: Db,
  actor: Required<Actor>,
  input: { transactionId: number; userId: string },
  now = Date.now(),
): Promise<Result<ProposalMade>> {
  const request = await requestToDecide(db, input.transactionId);
  if (!request || request.userId !== input.userId) return { ok: false, error: ADMIN_MESSAGES.transactionNotFound };
  return proposeApprovalOf(db, actor, request, now);
}

/**
 * The proposal for a request the caller has read (`requestToDecide`), this client's; `limitReason` when the
 * approval is under the threshold but held by the admin's approval limits.
 */
export async function proposeApprovalOf(
  db: Db,
  actor: Required<Actor>,
  request: RequestToDecide,
  now = Date.now(),
  limitReason: string | null = null,
): Promise<Result<ProposalMade>> {
  const input = { transactionId: request.id, userId: request.userId };
  const name = (await clientName(db, input.userId)) ?? "";
  const mine = sql`p.kind = 'request_approval' AND p.transaction_id = ${input.transactionId}`;
  const { inserted, ...rest } = await writeTogether(db, {
    inserted: returning<{ id: number }>(
      sql`INSERT INTO proposals (kind, user_id, transaction_id, transaction_type, amount_cents, stock, limit_reason,
                                 proposed_by, proposed_at, expires_at)
          SELECT 'request_approval', user_id, id, transaction_type, amount_cents, stock, ${limitReason}, ${actor.id},
                 ${now}, ${now + PROPOSAL_LIFETIME_MS}
          FROM transactions
          WHERE id = ${input.transactionId} AND user_id = ${input.userId} AND status = 'pending'
            AND ${PROPOSAL_KIND_RECORDS.request_approval.check(input.userId)}
          ON CONFLICT DO NOTHING
          RETURNING id`,
    ),
    ...announceWrites(
      actor,
      now,
      mine,
      describeProposal({
        kind: "request_approval",
        transactionType: request.transactionType,
        amountCents: request.amountCents,
        stock: request.stock,
        clientName: name,
      }),
      limitReason ?? undefined,
    ),
  });
  const row = inserted[0];
  if (row) return { ok: true, proposalId: row.id, created: true, emailIds: emailIdsOf(rest.waiting) };
  const waiting = await db
    .select({ id: proposals.id })
    .from(proposals)
    .where(
      sql`${proposals.kind} = 'request_approval' AND ${proposals.transactionId} = ${input.transactionId} AND ${proposals.status} = 'pending'`,
    )
    .get();
  if (waiting) return { ok: true, proposalId: waiting.id, created: false, emailIds: [] };
  const current = await db
    .select({ status: transactions.status })
    .from(transactions)
    .where(sql`${transactions.id} = ${input.transactionId}`)
    .get();
  if (current?.status !== "pending") return { ok: false, error: ADMIN_MESSAGES.alreadyDecided };
  return { ok: false, error: await withdrawalApprovalRefusal(db, input.userId) };
}
