/**
 * The 'Awaiting second approval' card's rows: proposals still waiting (pending, not yet expired, and for a
 * withdrawal still pending), oldest
 * first, with who proposed them, the client's name and what they would do (for a wallet's new key, its first
 * addresses); and how many admins the firm has,
 * since with one nobody can approve.
 */
import { and, asc, count, eq, sql } from "drizzle-orm";
import { keyAddressesOf } from "~/lib/chain/wallet-value";
import { displayName } from "~/lib/person-name";
import { describeProposal } from "~/lib/proposals";
import { builtOnce } from "../built-once.server";
import type { Db } from "../db.server";
import { schema } from "../db.server";

const { proposals, users, profiles } = schema;

/** The card lists at most this many; the desk's oldest come first. */
const CARD_LIMIT = 50;

export function waitingProposalsQuery(db: Db, options: { userId?: string; now?: number } = {}) {
  const now = options.now ?? Date.now();
  return options.userId === undefined
    ? everyWaitingProposalRead(db, { now })
    : clientWaitingProposalRead(db, { now, userId: options.userId });
}

/** The desk's card (every client) and a client's page (one), each read built once (../built-once.server.ts). */
const everyWaitingProposalRead = builtOnce((db) => waitingProposals(db, false));
const clientWaitingProposalRead = builtOnce((db) => waitingProposals(db, true));

/** Pending proposals not expired at the placeholder `now`, oldest first; of the client `userId` when `ofClient`. */
function waitingProposals(db: Db, ofClient: boolean) {
  return db
    .select({
      id: proposals.id,
      kind: proposals.kind,
      userId: proposals.userId,
      transactionId: proposals.transactionId,
      transactionType: proposals.transactionType,
      amountCents: proposals.amountCents,
      tradingPair: proposals.tradingPair,
      stock: proposals.stock,
      walletType: proposals.walletType,
      oldAddress: proposals.oldAddress,
      newAddress: proposals.newAddress,
      positionId: proposals.positionId,
      sharesE4: proposals.sharesE4,
      note: proposals.note,
      limitReason: proposals.limitReason,
      proposedBy: proposals.proposedBy,
      proposedAt: proposals.proposedAt,
      expiresAt: proposals.expiresAt,
      clientEmail: users.email,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      proposerEmail: sql<
        string | null
      >`(SELECT email FROM users AS proposer WHERE proposer.id = ${proposals.proposedBy})`.as("proposer_email"),
    })
    .from(proposals)
    .leftJoin(users, eq(users.id, proposals.userId))
    .leftJoin(profiles, eq(profiles.userId, proposals.userId))
    .where(
      and(
        sql`${proposals.status} = 'pending'`,
        sql`${proposals.expiresAt} > ${sql.placeholder("now")}`,
        // A request rejected or cancelled meanwhile leaves nothing to approve: its proposal is not listed.
        sql`(${proposals.kind} <> 'request_approval' OR EXISTS (SELECT 1 FROM transactions AS w
              WHERE w.id = ${proposals.transactionId} AND w.status = 'pending'))`,
        ofClient ? eq(proposals.userId, sql.placeholder("userId")) : undefined,
      ),
    )
    .orderBy(asc(proposals.proposedAt), asc(proposals.id))
    .limit(CARD_LIMIT);
}

export const adminCountQuery = builtOnce((db) => db.select({ n: count() }).from(users).where(eq(users.role, "admin")));

export type WaitingProposal = ReturnType<typeof toWaitingProposal>;

export function toWaitingProposal(row: Awaited<ReturnType<typeof waitingProposalsQuery>>[number]) {
  const clientName = row.clientEmail ? displayName(row.firstName, row.lastName, row.clientEmail) : null;
  return {
    id: row.id,
    kind: row.kind,
    userId: row.userId,
    transactionId: row.transactionId,
    positionId: row.positionId,
    description: describeProposal({ ...row, clientName }),
    reason: row.note,
    limitReason: row.limitReason,
    // A wallet change to a key: its first addresses, derived here from the stored key, never taken from the form.
    keyAddresses: row.kind === "wallet_change" ? keyAddressesOf(row.walletType, row.newAddress) : null,
    proposedBy: row.proposedBy,
    proposerEmail: row.proposerEmail ?? "an admin",
    proposedAt: row.proposedAt,
    expiresAt: row.expiresAt,
  };
}
