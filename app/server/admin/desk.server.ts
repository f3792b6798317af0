/**
 * The admin desk (/admin) in one round trip: the two counts, the waiting list, one page of the client list,
 * the firm's wallets, whether mail is failing and the proposals awaiting a second approval.
 */
import { and, asc, count, eq, or, sql } from "drizzle-orm";
import { personColumns } from "../auth.server";
import type { Db } from "../db.server";
import { readTogether, schema } from "../db.server";
import { figureSql } from "../ledger/figures.server";
import { neverPaidTo } from "../ledger/payout-address.server";
import { listDepositWallets } from "../ledger/reads.server";
import { afterCursor, type Keyset, keysetOrderBy, pageOf } from "../paging.server";
import { displayName } from "./clients.server";
import { mailTroubleQuery, toMailTrouble } from "./mail.server";
import { adminCountQuery, toWaitingProposal, waitingProposalsQuery } from "./proposal-reads.server";

const { users, profiles, transactions } = schema;

const CLIENTS_PAGE = 25;
const WAITING_CLIENTS = 50;

interface ClientListOptions {
  search?: string;
  after?: Keyset<string>;
  pageSize?: number;
}

export async function adminDesk(db: Db, options: ClientListOptions = {}) {
  const pageSize = options.pageSize ?? CLIENTS_PAGE;
  const { clients, pending, waiting, page, wallets, mail, proposals, admins } = await readTogether(db, {
    // Counted as the table lists them: clients with a profile (deleting a client's data removes it).
    clients: db.select({ n: count() }).from(profiles).where(sql`${profiles.role} = 'user'`),
    // Literal 'pending' rather than a bound value, so the planner can count the partial pending index.
    pending: db.select({ n: count() }).from(transactions).where(sql`${transactions.status} = 'pending'`),
    waiting: waitingClientsQuery(db, WAITING_CLIENTS),
    page: clientsPageQuery(db, { ...options, pageSize }),
    wallets: listDepositWallets(db),
    mail: mailTroubleQuery(db),
    proposals: waitingProposalsQuery(db),
    admins: adminCountQuery(db),
  });
  const { rows, next } = pageOf(page, pageSize);
  return {
    counts: { totalUsers: clients[0]?.n ?? 0, activeAlerts: pending[0]?.n ?? 0 },
    pending: waiting.map(toWaitingClient),
    clients: { clients: rows.map(toClientRow), next },
    wallets,
    mailTrouble: toMailTrouble(mail),
    proposals: proposals.map(toWaitingProposal),
    adminCount: admins[0]?.n ?? 0,
  };
}

/**
 * Pending requests grouped by client, oldest waiting first, for the first `limit` clients. Bounded by
 * `limit`, not by the backlog: the clients are the first distinct owners met while walking the pending index
 * in age order, and each one's count and sum come from `ledger_totals`. SQLite keeps the inner ORDER BY because
 * the DISTINCT query around it has no join and no order of its own; keep it that way (a test checks that the 50
 * oldest are the ones shown).
 */
function waitingClientsQuery(db: Db, limit: number) {
  const byAge = db
    .select({ userId: transactions.userId })
    .from(transactions)
    .where(sql`${transactions.status} = 'pending'`)
    .orderBy(asc(transactions.createdAt), asc(transactions.id))
    .as("by_age");
  const waiting = db.$with("waiting").as(db.selectDistinct({ userId: byAge.userId }).from(byAge).limit(limit));
  const oldest = sql<number>`(SELECT min(created_at) FROM transactions
                              WHERE user_id = ${waiting.userId} AND status = 'pending')`.as("oldest");
  // Where the client's oldest waiting withdrawal pays out, so the desk sees it before opening the client: its
  // address, currency and whether the client was ever paid there, in one look-up (a JSON triple, or null when
  // nothing waits to be paid out).
  const payout = sql<string | null>`(SELECT json_array(t.withdrawal_wallet_address, w.crypto_currency,
      ${neverPaidTo(sql`t.user_id`, sql`t.withdrawal_wallet_address`, { id: sql`t.id`, status: sql`t.status` })})
    FROM transactions t
    LEFT JOIN withdrawal_wallets w ON w.user_id = t.user_id AND w.transaction_id = t.id
    WHERE t.user_id = ${waiting.userId} AND t.status = 'pending' AND t.transaction_type = 'withdraw'
      AND t.withdrawal_wallet_address IS NOT NULL
    ORDER BY t.created_at, t.id LIMIT 1)`;
  return db
    .with(waiting)
    .select({
      userId: waiting.userId,
      email: users.email,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      count: sql<number>`(SELECT sum(count) FROM ledger_totals WHERE user_id = ${waiting.userId} AND status = 'pending')`,
      // In and out apart: a deposit and a withdrawal do not add up to anything.
      incomingCents: figureSql("pendingIn", waiting.userId),
      outgoingCents: figureSql("pendingOut", waiting.userId),
      withdrawals: sql<number>`(SELECT coalesce(sum(count), 0) FROM ledger_totals WHERE user_id = ${waiting.userId}
                                AND status = 'pending' AND transaction_type = 'withdraw')`,
      payout,
      oldest,
    })
    .from(waiting)
    .innerJoin(users, eq(users.id, waiting.userId))
    .leftJoin(profiles, eq(profiles.userId, waiting.userId))
    .orderBy(sql`oldest`, waiting.userId);
}

function payoutOf(triple: string | null): { address: string; currency: string | null; isNew: boolean } | null {
  if (!triple) return null;
  const [address, currency, isNew] = JSON.parse(triple) as [string, string | null, number];
  return { address, currency, isNew: Boolean(isNew) };
}

const toWaitingClient = (r: Awaited<ReturnType<typeof waitingClientsQuery>>[number]) => ({
  userId: r.userId,
  name: displayName(r.firstName, r.lastName, r.email),
  count: Number(r.count),
  incomingCents: Number(r.incomingCents),
  outgoingCents: Number(r.outgoingCents),
  withdrawals: Number(r.withdrawals),
  payout: payoutOf(r.payout),
  oldest: Number(r.oldest),
});

const clientKeyset = { createdAt: users.createdAt, id: users.id };

/**
 * The User Management table: clients newest first, a page by keyset, optionally filtered by name or e-mail.
 * A client whose data was deleted has no profile and is not listed until a new sign-in creates one.
 */
function clientsPageQuery(db: Db, options: ClientListOptions & { pageSize: number }) {
  const term = options.search?.trim().toLowerCase();
  const pattern = term ? `%${term.replace(/[%_\\]/g, (c) => `\\${c}`)}%` : null;
  return db
    .select({ ...personColumns, emailConfirmedAt: users.emailConfirmedAt })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(
      and(
        eq(users.role, "user"),
        pattern
          ? or(
              sql`${users.email} LIKE ${pattern} ESCAPE '\\'`,
              sql`lower(coalesce(${profiles.firstName}, '') || ' ' || coalesce(${profiles.lastName}, '')) LIKE ${pattern} ESCAPE '\\'`,
            )
          : undefined,
        afterCursor(clientKeyset, options.after, "newest"),
      ),
    )
    .orderBy(...keysetOrderBy(clientKeyset, "newest"))
    .limit(options.pageSize + 1);
}

const toClientRow = (r: Awaited<ReturnType<typeof clientsPageQuery>>[number]) => ({
  id: r.id,
  name: displayName(r.firstName, r.lastName, r.email),
  joinedAt: r.createdAt,
  lastActivityAt: r.lastLoginAt,
  // The Status column: active when the e-mail is confirmed, inactive when not.
  status: r.emailConfirmedAt ? ("active" as const) : ("inactive" as const),
  suspended: r.status === "suspended",
});
