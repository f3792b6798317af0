/**
 * An admin approves a client's request (a deposit, a stock deposit or a withdrawal): below FOUR_EYES_THRESHOLD
 * the decision is written at once (decisions.server.ts); at or above it the approval is a proposal a second
 * admin decides (docs/decisions/0022-four-eyes.md). A deposit's approval credits the balance the client may then
 * withdraw, so it waits like a withdrawal's: otherwise one admin could credit a large deposit that never arrived
 * and pay it out in withdrawals under the threshold. Step-up is checked by the route before this runs.
 */
import { sql } from "drizzle-orm";
import { describeProposal, PROPOSAL_LIFETIME_MS } from "~/lib/proposals";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import type { Actor } from "../audit.server";
import type { CommandContext, Outcome, Result } from "../commands.server";
import type { Db } from "../db.server";
import { returning, schema, writeTogether } from "../db.server";
import { approvableRequest, decide, withdrawalApprovalRefusal } from "./decisions.server";
import {
  announceWrites,
  clientName,
  emailIdsOf,
  needsSecondApproval,
  type ProposalMade,
  proposalChanged,
} from "./proposals.server";

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
  const request = await db
    .select({ amountCents: transactions.amountCents, type: transactions.transactionType, stock: transactions.stock })
    .from(transactions)
    .where(sql`${transactions.id} = ${input.transactionId} AND ${transactions.userId} = ${input.userId}`)
    .get();
  if (!request) return { ok: false, error: ADMIN_MESSAGES.transactionNotFound };
  const name = (await clientName(db, input.userId)) ?? "";
  const mine = sql`p.kind = 'request_approval' AND p.transaction_id = ${input.transactionId}`;
  const { inserted, ...rest } = await writeTogether(db, {
    inserted: returning<{ id: number }>(
      sql`INSERT INTO proposals (kind, user_id, transaction_id, transaction_type, amount_cents, stock, proposed_by,
                                 proposed_at, expires_at)
          SELECT 'request_approval', user_id, id, transaction_type, amount_cents, stock, ${actor.id}, ${now},
                 ${now + PROPOSAL_LIFETIME_MS}
          FROM transactions
          WHERE id = ${input.transactionId} AND user_id = ${input.userId} AND status = 'pending'
            AND ${approvableRequest(input.userId)}
          ON CONFLICT DO NOTHING
          RETURNING id`,
    ),
    ...announceWrites(
      actor,
      now,
      mine,
      describeProposal({
        kind: "request_approval",
        transactionType: request.type,
        amountCents: request.amountCents,
        stock: request.stock,
        clientName: name,
      }),
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

/**
 * The desk's Approve on a client's request: the row is read once; at or above the threshold it becomes a
 * proposal (then its mails and the desk's card), below it the decision is written. `proposed` says which.
 */
export async function approveRequest(
  context: CommandContext,
  actor: Required<Actor>,
  input: { transactionId: number; userId: string },
): Promise<Outcome<{ proposed: boolean }>> {
  const row = await context.db
    .select({ type: transactions.transactionType, amountCents: transactions.amountCents })
    .from(transactions)
    .where(sql`${transactions.id} = ${input.transactionId} AND ${transactions.userId} = ${input.userId}`)
    .get();
  if (row && needsSecondApproval(context.env, row.amountCents)) {
    const result = await proposeRequestApproval(context.db, actor, input);
    if (!result.ok) return { ok: false, error: result.error, status: 409 };
    if (result.created) proposalChanged(context, result.emailIds);
    return { ok: true, proposed: true };
  }
  // Not this client's row, or none: the decision answers that it was not found.
  const decided = await decide(context, actor, { ...input, decision: "approved" });
  return decided.ok ? { ok: true, proposed: false } : decided;
}
