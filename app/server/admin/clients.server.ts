/** A client as the back office sees and manages it: the client page's data, suspension and reactivation. */

import { and, eq, sql } from "drizzle-orm";
import { flagsOf } from "~/lib/client-flags";
import type { HistoryFilters } from "~/lib/history-filters";
import { LEVEL_LIMITS } from "~/lib/money/constraints";
import { figure, type LedgerTotals } from "~/lib/money/rules";
import { displayName } from "~/lib/person-name";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import { accountQuery } from "../accounts.server";
import { type Actor, auditInsert } from "../audit.server";
import { afterCommit, type CommandContext, type Outcome, type Result } from "../commands.server";
import type { Db } from "../db.server";
import { readTogether, returning, schema, writeTogether } from "../db.server";
import { ledgerTotalsQuery, totalsOf } from "../ledger/figures.server";
import {
  HISTORY_PAGE_SIZE,
  type HistoryPosition,
  historyConditions,
  historyPage,
  historyPageClauses,
} from "../ledger/history.server";
import { neverPaidTo } from "../ledger/payout-address.server";
import { positionRowsQuery, positionsOf } from "../ledger/portfolio.server";
import { approvedStocks, listColumns, ofType } from "../ledger/reads.server";
import { assertMay, type BackOfficeActor } from "../permissions.server";
import { endSessionsOf } from "../session.server";
import { clientVerification, liveCaseQuery } from "../verification/review-reads.server";
import { clientFlagsQuery, clientNotesQuery, notesPage } from "./notes.server";
import { adminCountQuery, toWaitingProposal, waitingProposalsQuery } from "./proposal-reads.server";

const { profiles, transactions, withdrawalWallets } = schema;

/**
 * One page of the client page's Transactions table: the history's filters and keyset paging (the client's own
 * indexes, see history.server.ts), with what the desk checks before approving a withdrawal: where it pays out,
 * in which currency, and whether this client was ever paid there.
 */
function clientTransactionsQuery(db: Db, userId: string, filters: HistoryFilters, position: HistoryPosition) {
  const { cursor, orderBy } = historyPageClauses(position);
  return db
    .select({
      ...listColumns,
      withdrawalWalletAddress: transactions.withdrawalWalletAddress,
      payoutCurrency: withdrawalWallets.cryptoCurrency,
      newPayoutAddress: sql<number>`CASE WHEN ${transactions.transactionType} = 'withdraw'
        AND ${transactions.withdrawalWalletAddress} IS NOT NULL
        THEN ${neverPaidTo(transactions.userId, transactions.withdrawalWalletAddress, { id: transactions.id, status: transactions.status })}
        ELSE 0 END`,
    })
    .from(transactions)
    .leftJoin(
      withdrawalWallets,
      and(eq(withdrawalWallets.userId, transactions.userId), eq(withdrawalWallets.transactionId, transactions.id)),
    )
    .where(and(historyConditions({ filters, userId }), cursor))
    .orderBy(...orderBy)
    .limit(HISTORY_PAGE_SIZE + 1);
}

/**
 * Everything /user/{id} shows, bounded, in one round trip: totals, short lists, one page of rows. `introducedAt`
 * (VERIFICATION_INTRODUCED_AT) places the client's verification deadline.
 */
export async function clientDetail(
  db: Db,
  userId: string,
  introducedAt: number,
  filters: HistoryFilters = {},
  position: HistoryPosition = {},
  notesBefore?: number,
) {
  const {
    account,
    totals,
    firstDeposit,
    stocks,
    positions,
    feeDeposits,
    page,
    proposals,
    admins,
    verification,
    notes,
    flags,
  } = await readTogether(db, {
    account: accountQuery(db, userId),
    totals: ledgerTotalsQuery(db, userId),
    firstDeposit: ofType(db, userId, "deposit", 1, eq(transactions.status, "approved"), "oldest"),
    stocks: approvedStocks(db, userId),
    positions: positionRowsQuery(db, userId),
    feeDeposits: ofType(db, userId, "fee_deposit", 10, eq(transactions.status, "approved")),
    page: clientTransactionsQuery(db, userId, filters, position),
    proposals: waitingProposalsQuery(db, { userId }),
    admins: adminCountQuery(db),
    verification: liveCaseQuery(db, userId),
    notes: clientNotesQuery(db, userId, notesBefore),
    flags: clientFlagsQuery(db, userId),
  });
  const [client] = account;
  if (!client?.status) return null;
  const ledger: LedgerTotals = totalsOf(totals);
  const { rows, next, previous } = historyPage(page, position);
  const { balanceCents, totalTrades: _trades, winRate: _winRate, ...profile } = client;
  return {
    profile: { ...profile, status: client.status, name: displayName(client.firstName, client.lastName, client.email) },
    summary: {
      // The profile's projection of the ledger balance, kept by every batch that changes approved rows.
      balanceCents: balanceCents ?? 0,
      totalDepositsCents: figure(ledger, "plainDeposits"),
      stockBalanceCents: figure(ledger, "stockBalance"),
      totalFeeDepositsCents: figure(ledger, "feeDeposits"),
      totalProfitCents: figure(ledger, "totalProfit"),
      firstDeposit: firstDeposit[0]
        ? { createdAt: firstDeposit[0].createdAt, amountCents: firstDeposit[0].amountCents }
        : null,
    },
    stocks: stocks.map(({ stock, cents }) => ({ stock, cents })),
    positions: positionsOf(positions, balanceCents ?? 0),
    feeDeposits: feeDeposits.map(({ id, createdAt, amountCents }) => ({ id, createdAt, amountCents })),
    // The reference is derived from the id where the row is shown (live rows need it too), not sent.
    transactions: rows,
    next,
    previous,
    proposals: proposals.map(toWaitingProposal),
    adminCount: admins[0]?.n ?? 0,
    verification: {
      ...clientVerification(verification, client.createdAt, introducedAt),
      // What counts towards an unverified client's deposit limit (the desk warns before an entry passes it).
      depositsTowardsLimitCents: figure(ledger, LEVEL_LIMITS.unverifiedDeposits.figure),
    },
    ...notesPage(notes),
    flags: flagsOf(flags.map((f) => f.flag)),
  };
}

/** Suspends or reactivates a client. A suspended client is signed out everywhere, sockets included. */
export async function setClientStatus(
  db: Db,
  actor: Required<Actor>,
  userId: string,
  status: "active" | "suspended",
  now = Date.now(),
): Promise<Result<{ changed: boolean }>> {
  const before = status === "active" ? "suspended" : "active";
  const { changed } = await writeTogether(db, {
    changed: returning<{ id: number }>(
      sql`UPDATE profiles SET status = ${status}, updated_at = ${now}
          WHERE user_id = ${userId} AND status = ${before} AND role = 'user' RETURNING id`,
    ),
    audit: auditInsert({
      actor,
      action: status === "suspended" ? "client.suspend" : "client.activate",
      target: `user:${userId}`,
      detail: { before, after: status },
      onlyIf: sql`changes() = 1`,
      at: now,
    }),
    // Only when this batch suspended a client: a refused suspension (an admin's id) must sign nobody out.
    signOut:
      status === "suspended" &&
      endSessionsOf(
        db,
        userId,
        undefined,
        sql`EXISTS (SELECT 1 FROM profiles WHERE user_id = ${userId} AND role = 'user' AND status = 'suspended'
                    AND updated_at = ${now})`,
      ),
  });
  if (changed.length === 1) return { ok: true, changed: true };
  const profile = await db.select({ status: profiles.status }).from(profiles).where(eq(profiles.userId, userId)).get();
  if (!profile) return { ok: false, error: ADMIN_MESSAGES.userNotFound };
  if (profile.status === status) return { ok: true, changed: false };
  return { ok: false, error: "Admins cannot be suspended" };
}

export async function changeClientStatus(
  context: CommandContext,
  actor: BackOfficeActor,
  userId: string,
  status: "active" | "suspended",
): Promise<Outcome> {
  const allowed = assertMay(actor, "changeClientStatus");
  if (!allowed.ok) return allowed;
  const result = await setClientStatus(context.db, actor, userId, status);
  if (!result.ok) return { ok: false, error: result.error, status: 400 };
  if (status === "suspended") afterCommit(context, { signedOut: [userId] });
  return { ok: true };
}
