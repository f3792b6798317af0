/**
 * Second approval (four eyes, docs/decisions/0022-four-eyes.md): at or above FOUR_EYES_THRESHOLD an admin's
 * ledger entry or approval of a client's request (request-approvals.server.ts), and every deposit-wallet change,
 * is first a proposal. Proposing writes the proposal, its audit row and the mail to every other admin in one
 * batch; the ledger, balances and wallets do not change until another admin approves
 * (proposal-decisions.server.ts).
 */

import { eq, type SQL, sql } from "drizzle-orm";
import { needsSecondAdmin } from "~/lib/acts";
import type { ChainNetwork } from "~/lib/chain/addresses";
import type { LedgerEntry } from "~/lib/ledger";
import { displayName } from "~/lib/person-name";
import { describeProposal, PROPOSAL_LIFETIME_MS, PROPOSAL_MESSAGES } from "~/lib/proposals";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import { type Actor, auditInsert } from "../audit.server";
import { chainSettings } from "../chain/settings.server";
import { afterCommit, type CommandContext, type Outcome, type Result } from "../commands.server";
import type { Db } from "../db.server";
import { returning, schema, writeTogether } from "../db.server";
import type { AppEnv } from "../env.server";
import { enqueueEmailFor } from "../mail/outbox.server";
import { entryRefusal } from "./entries.server";
import { PROPOSAL_KIND_RECORDS } from "./proposal-kinds.server";
import { type SubmittedWallet, walletChangesOf } from "./wallets.server";

const { proposals, users, profiles } = schema;

/** Whether an entry or a request's approval of this amount waits for a second admin (the rules table's rule). */
export function needsSecondApproval(env: Pick<AppEnv, "FOUR_EYES_THRESHOLD">, amountCents: number): boolean {
  return needsSecondAdmin("ledgerEntry", env.FOUR_EYES_THRESHOLD, amountCents);
}

/** The proposal rows one batch just wrote: the proposer's, made at this instant. */
const justProposed = (actor: Actor, now: number, where: SQL) =>
  sql`proposals p WHERE p.proposed_by = ${actor.id} AND p.proposed_at = ${now} AND p.status = 'pending' AND ${where}`;

/**
 * The audit row and the mail to every other admin for the proposals `where` picks among those just made. The
 * mail's dedupe key is per proposal and admin, so however the batch is replayed each admin hears once.
 */
export function announceWrites(actor: Required<Actor>, now: number, where: SQL, description: string, reason?: string) {
  return {
    audit: auditInsert({
      actor,
      action: "proposal.propose",
      target: sql`'proposal:' || p.id`,
      detail: sql`'kind', p.kind, 'client', p.user_id, 'type', p.transaction_type, 'amountCents', p.amount_cents,
                  'transaction', p.transaction_id, 'wallet', p.wallet_id, 'before', p.old_address, 'after', p.new_address,
                  'reason', p.note, 'limitReason', p.limit_reason, 'expiresAt', p.expires_at`,
      // Once per proposal: a replay in the same millisecond finds the row, but its audit row too.
      from: sql`${justProposed(actor, now, where)}
        AND NOT EXISTS (SELECT 1 FROM audit_log a WHERE a.action = 'proposal.propose' AND a.target = 'proposal:' || p.id)`,
      at: now,
    }),
    waiting: enqueueEmailFor({
      template: "proposal_waiting",
      data: {
        description,
        proposedBy: actor.email,
        ...(reason ? { reason } : {}),
        expiresAt: now + PROPOSAL_LIFETIME_MS,
      },
      to: sql`users.email`,
      from: sql`users JOIN ${justProposed(actor, now, where)} AND users.role = 'admin' AND users.deactivated_at IS NULL
        AND users.id <> p.proposed_by`,
      dedupeKey: sql`'proposal_waiting:' || p.id || ':' || users.id`,
    }),
  };
}

/** A proposal made now (`created`), or the same one again (a resubmitted form, a withdrawal already proposed). */
export interface ProposalMade {
  proposalId: number;
  created: boolean;
  emailIds: number[];
}

export const emailIdsOf = (rows: unknown) => ((rows ?? []) as Array<{ id: number }>).map((row) => row.id);

export async function clientName(db: Db, userId: string): Promise<string | null> {
  const row = await db
    .select({ email: users.email, firstName: profiles.firstName, lastName: profiles.lastName })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
    .get();
  return row ? displayName(row.firstName, row.lastName, row.email) : null;
}

/**
 * An entry proposal: the entry as the form gave it and the proposer's reason (and, for an entry under the threshold
 * held by the proposer's approval limits, which limit). Refused now when the entry would be
 * refused now (not a client, overdrawing); checked again at approval. The form's key makes a resubmission the
 * same proposal, with no second audit row or mail.
 */
export async function proposeLedgerEntry(
  db: Db,
  actor: Required<Actor>,
  userId: string,
  entry: LedgerEntry & { reason: string; limitReason?: string },
  now = Date.now(),
): Promise<Result<ProposalMade>> {
  const name = await clientName(db, userId);
  const limitReason = entry.limitReason || null;
  if (name === null) return { ok: false, error: ADMIN_MESSAGES.processingFailed };
  const tradingPair = entry.type === "profit" || entry.type === "loss" ? (entry.tradingPair ?? null) : null;
  const stock = entry.type === "stock_deposit" ? (entry.stock ?? null) : null;
  const reason = entry.reason.trim();
  const mine = sql`p.idempotency_key = ${entry.idempotencyKey}`;
  const { inserted, ...rest } = await writeTogether(db, {
    inserted: returning<{ id: number }>(
      sql`INSERT INTO proposals (kind, user_id, transaction_type, amount_cents, trading_pair, stock, note,
                                 limit_reason, idempotency_key, proposed_by, proposed_at, expires_at)
          SELECT 'ledger_entry', ${userId}, ${entry.type}, ${entry.amountCents}, ${tradingPair}, ${stock}, ${reason},
                 ${limitReason}, ${entry.idempotencyKey}, ${actor.id}, ${now}, ${now + PROPOSAL_LIFETIME_MS}
          WHERE ${PROPOSAL_KIND_RECORDS.ledger_entry.check(userId, entry)}
          ON CONFLICT (proposed_by, idempotency_key) DO NOTHING
          RETURNING id`,
    ),
    ...announceWrites(
      actor,
      now,
      mine,
      describeProposal({
        kind: "ledger_entry",
        transactionType: entry.type,
        amountCents: entry.amountCents,
        tradingPair,
        stock,
        clientName: name,
      }),
      limitReason ? `${reason} (${limitReason})` : reason,
    ),
  });
  const row = inserted[0];
  if (row) return { ok: true, proposalId: row.id, created: true, emailIds: emailIdsOf(rest.waiting) };
  const earlier = await db
    .select({ id: proposals.id })
    .from(proposals)
    .where(sql`${proposals.proposedBy} = ${actor.id} AND ${proposals.idempotencyKey} = ${entry.idempotencyKey}`)
    .get();
  if (earlier) return { ok: true, proposalId: earlier.id, created: false, emailIds: [] };
  return { ok: false, error: await entryRefusal(db, userId, entry.type) };
}

/**
 * One wallet-change proposal per wallet whose address the form changed, all or none: each address is checked
 * for its network, a wallet changed since the form was rendered or with a change already waiting is refused,
 * and the proposals go in one batch that the database aborts whole if either happens in between.
 */
export async function proposeWalletChanges(
  db: Db,
  actor: Required<Actor>,
  submitted: SubmittedWallet[],
  reason: string | null = null,
  now = Date.now(),
  bitcoinNetwork: ChainNetwork = "mainnet",
): Promise<Result<{ proposed: number; emailIds: number[] }>> {
  const checked = await walletChangesOf(db, submitted, bitcoinNetwork);
  if (!checked.ok) return checked;
  const { changes } = checked;
  const waiting = await db
    .select({ walletId: proposals.walletId })
    .from(proposals)
    .where(sql`${proposals.kind} = 'wallet_change' AND ${proposals.status} = 'pending'`);
  if (changes.some((c) => waiting.some((w) => w.walletId === c.wallet.id))) {
    return { ok: false, error: PROPOSAL_MESSAGES.walletChangeWaiting };
  }

  const writes = Object.fromEntries(
    changes.flatMap(({ wallet, newAddress, oldAddress: old }) => {
      const mine = sql`p.kind = 'wallet_change' AND p.wallet_id = ${wallet.id}`;
      const { audit, waiting: notice } = announceWrites(
        actor,
        now,
        mine,
        describeProposal({
          kind: "wallet_change",
          transactionType: null,
          amountCents: null,
          walletType: wallet.walletType,
          oldAddress: old,
          newAddress,
        }),
        reason ?? undefined,
      );
      return [
        [
          `proposal:${wallet.id}`,
          // The old address is read in the statement: a wallet changed in between gives NULL, which the table's
          // CHECK refuses, and a change already waiting breaks the unique index; either aborts the whole batch.
          sql`INSERT INTO proposals (kind, wallet_id, wallet_type, old_address, new_address, note, proposed_by,
                                     proposed_at, expires_at)
              VALUES ('wallet_change', ${wallet.id}, ${wallet.walletType},
                      (SELECT wallet_address FROM deposit_wallets WHERE id = ${wallet.id} AND wallet_address = ${old}),
                      ${newAddress}, ${reason}, ${actor.id}, ${now}, ${now + PROPOSAL_LIFETIME_MS})`,
        ],
        [`audit:${wallet.id}`, audit],
        [`notice:${wallet.id}`, notice],
      ];
    }),
  );
  try {
    const results = await writeTogether(db, writes);
    const emailIds = changes.flatMap(({ wallet }) => emailIdsOf(results[`notice:${wallet.id}`]));
    return { ok: true, proposed: changes.length, emailIds };
  } catch (error) {
    const message = String((error as Error)?.message ?? error);
    if (/UNIQUE/i.test(message)) return { ok: false, error: PROPOSAL_MESSAGES.walletChangeWaiting };
    if (/CHECK/i.test(message)) return { ok: false, error: ADMIN_MESSAGES.walletChangedMeanwhile };
    console.error("proposeWalletChanges failed", error);
    return { ok: false, error: ADMIN_MESSAGES.walletsFailed };
  }
}

/** After a proposal is made or decided: the desk's card reloads, and its mails go out. */
export function proposalChanged(context: CommandContext, emailIds: number[] = []) {
  afterCommit(context, { emailIds, deskEvents: [{ type: "proposal.changed" }] });
}

export type Proposed = Outcome<{ proposalId: number }>;

/** The entry proposal, then its mails and the desk's card. */
export async function proposeEntry(
  context: CommandContext,
  actor: Required<Actor>,
  userId: string,
  entry: LedgerEntry & { reason: string; limitReason?: string },
): Promise<Proposed> {
  const result = await proposeLedgerEntry(context.db, actor, userId, entry);
  if (!result.ok) return { ok: false, error: result.error, status: 400 };
  if (result.created) proposalChanged(context, result.emailIds);
  return { ok: true, proposalId: result.proposalId };
}

/** The wallet-change proposals (with the proposer's optional reason), then their mails and the desk's card. */
export async function proposeWallets(
  context: CommandContext,
  actor: Required<Actor>,
  submitted: SubmittedWallet[],
  reason: string | null = null,
): Promise<Outcome<{ proposed: number }>> {
  const result = await proposeWalletChanges(
    context.db,
    actor,
    submitted,
    reason,
    Date.now(),
    chainSettings(context.bindings).bitcoin.network,
  );
  if (!result.ok) return { ok: false, error: result.error, status: 400 };
  proposalChanged(context, result.emailIds);
  return { ok: true, proposed: result.proposed };
}
