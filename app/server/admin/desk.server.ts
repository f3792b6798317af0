/**
 * The admin desk (/admin) in one round trip: the four counts, the waiting list, one page of the client list,
 * the firm's wallets, whether mail is failing and the proposals awaiting a second approval.
 */
import { and, asc, count, eq, type SQL, sql } from "drizzle-orm";
import { flagsOf } from "~/lib/client-flags";
import { type ClientListQuery, type ClientSort, type ClientStatusFilter, encodeClientCursor } from "~/lib/client-list";
import { displayName } from "~/lib/person-name";
import { profileNameKey, USER_ACTIVITY_KEY, type VerificationStatus } from "../../../db/schema";
import { personColumns } from "../accounts.server";
import { builtOnce } from "../built-once.server";
import type { Db } from "../db.server";
import { readTogether, schema } from "../db.server";
import { figureSql } from "../ledger/figures.server";
import { neverPaidTo } from "../ledger/payout-address.server";
import { keysetPage, readsBackwards } from "../paging.server";
import { levelConditionSql, levelOf, liveCaseStatusSql } from "../verification/level-lists.server";
import { awaitingReviewQuery } from "../verification/review-reads.server";
import { clientSearchCondition, type SearchRead, searchReadOf } from "./client-search.server";
import { mailTroubleQuery, toMailTrouble } from "./mail.server";
import { adminCountQuery, toWaitingProposal, waitingProposalsQuery } from "./proposal-reads.server";
import { deskWalletsQuery } from "./wallets.server";

const { users, profiles, transactions, monitoringAlerts, deskCounts } = schema;

const CLIENTS_PAGE = 50;
/**
 * The waiting list shows the clients who have waited longest, this many; Pending requests counts every pending
 * request and /admin/transactions?status=pending pages through all of them. Kept short because each listed client
 * costs the desk several look-ups and a row of HTML on every load and every live refresh.
 */
export const WAITING_CLIENTS = 20;

const DEFAULT_LIST: ClientListQuery = {
  search: "",
  status: null,
  level: null,
  flag: null,
  sort: "joined",
  dir: "desc",
  after: null,
  before: null,
};

/** The desk at this moment; `introducedAt` (VERIFICATION_INTRODUCED_AT) places each client's verification deadline. */
/** The two rows the triggers keep: clients with a profile, pending requests. */
const deskTotalsRead = builtOnce((db) => db.select({ name: deskCounts.name, n: deskCounts.n }).from(deskCounts));
/** Literal 'open', so the count walks the partial index of open alerts only. */
const openAlertsRead = builtOnce((db) =>
  db.select({ n: count() }).from(monitoringAlerts).where(sql`${monitoringAlerts.status} = 'open'`),
);

export async function adminDesk(
  db: Db,
  introducedAt: number,
  list: ClientListQuery = DEFAULT_LIST,
  pageSize = CLIENTS_PAGE,
) {
  // A search first counts its matches (one bounded read) to choose how the page reads them.
  const searchRead = list.search ? await searchReadOf(db, list.search) : "sorted";
  const { totals, reviews, alerts, waiting, page, wallets, mail, proposals, admins } = await readTogether(db, {
    // Clients with a profile (as the table lists them) and pending requests: two rows the triggers keep,
    // where counting them read every client and every pending request on each load.
    totals: deskTotalsRead(db),
    reviews: awaitingReviewQuery(db),
    alerts: openAlertsRead(db),
    waiting: waitingClientsQuery(db, WAITING_CLIENTS),
    page: clientsPageQuery(db, list, pageSize, introducedAt, Date.now(), searchRead),
    wallets: deskWalletsQuery(db),
    mail: mailTroubleQuery(db),
    proposals: waitingProposalsQuery(db),
    admins: adminCountQuery(db),
  });
  const { rows, next, previous } = clientPageOf(page, list, pageSize);
  return {
    counts: {
      totalUsers: totals.find((row) => row.name === "clients")?.n ?? 0,
      pendingRequests: totals.find((row) => row.name === "pending")?.n ?? 0,
      awaitingReview: Number(reviews[0]?.n ?? 0),
      openAlerts: alerts[0]?.n ?? 0,
    },
    pending: waiting.map((row) => toWaitingClient(row, introducedAt)),
    clients: { clients: rows.map((row) => toClientRow(row, introducedAt)), next, previous },
    wallets,
    mailTrouble: toMailTrouble(mail),
    proposals: proposals.map(toWaitingProposal),
    adminCount: admins[0]?.n ?? 0,
  };
}

/**
 * Pending requests grouped by client, oldest waiting first, for the first `limit` clients. Bounded by
 * `limit`, not by the backlog: the clients are the first distinct owners met while walking the pending rows of
 * `transactions_status_recent_idx` in age order, and each one's count and sum come from `ledger_totals`. SQLite keeps the inner ORDER BY because
 * the DISTINCT query around it has no join and no order of its own; keep it that way (a test checks that the 50
 * oldest are the ones shown).
 */
export function waitingClientsQuery(db: Db, limit: number) {
  return waitingClientsRead(db, { limit });
}

/** The read of `waitingClientsQuery`, built once (../built-once.server.ts); `limit` is its one value. */
const waitingClientsRead = builtOnce((db) => {
  const byAge = db
    .select({ userId: transactions.userId })
    .from(transactions)
    .where(sql`${transactions.status} = 'pending'`)
    .orderBy(asc(transactions.createdAt), asc(transactions.id))
    .as("by_age");
  const waiting = db
    .$with("waiting")
    .as(db.selectDistinct({ userId: byAge.userId }).from(byAge).limit(sql.placeholder("limit")));
  const oldest = sql<number>`(SELECT min(created_at) FROM transactions
                              WHERE user_id = ${waiting.userId} AND status = 'pending')`.as("oldest");
  // Where the client's oldest waiting withdrawal pays out, so the desk sees it before opening the client: its
  // address, currency and whether the client was ever paid there, in one look-up (a JSON triple, or null when
  // nothing waits to be paid out). The unary + keeps the planner off (user_id, transaction_type, created_at, id),
  // which walks every withdrawal the client ever made, approved ones first, before the pending ones: on
  // (user_id, status, created_at, id) it reads only the client's pending rows, oldest first.
  const payout = sql<string | null>`(SELECT json_array(t.withdrawal_wallet_address, w.crypto_currency,
      ${neverPaidTo(sql`t.user_id`, sql`t.withdrawal_wallet_address`, { id: sql`t.id`, status: sql`t.status` })})
    FROM transactions t
    LEFT JOIN withdrawal_wallets w ON w.user_id = t.user_id AND w.transaction_id = t.id
    WHERE t.user_id = ${waiting.userId} AND t.status = 'pending' AND +t.transaction_type = 'withdraw'
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
      // Whether the client carries the Watch flag, shown beside the pending withdrawal: one primary-key look-up.
      watched: sql<number>`EXISTS (SELECT 1 FROM client_flags WHERE user_id = ${waiting.userId} AND flag = 'watch')`,
      oldest,
      // The level, for the payout line: an unverified client's withdrawal cannot be approved.
      caseStatus: sql<VerificationStatus | null>`${liveCaseStatusSql(waiting.userId)}`.as("case_status"),
      registeredAt: sql<number>`${users.createdAt}`.as("registered_at"),
    })
    .from(waiting)
    .innerJoin(users, eq(users.id, waiting.userId))
    .leftJoin(profiles, eq(profiles.userId, waiting.userId))
    .orderBy(sql`oldest`, waiting.userId);
});

function payoutOf(triple: string | null): { address: string; currency: string | null; isNew: boolean } | null {
  if (!triple) return null;
  const [address, currency, isNew] = JSON.parse(triple) as [string, string | null, number];
  return { address, currency, isNew: Boolean(isNew) };
}

const toWaitingClient = (r: Awaited<ReturnType<typeof waitingClientsQuery>>[number], introducedAt: number) => ({
  userId: r.userId,
  name: displayName(r.firstName, r.lastName, r.email),
  count: Number(r.count),
  incomingCents: Number(r.incomingCents),
  outgoingCents: Number(r.outgoingCents),
  withdrawals: Number(r.withdrawals),
  payout: payoutOf(r.payout),
  watched: Boolean(r.watched),
  oldest: Number(r.oldest),
  level: levelOf({ caseStatus: r.caseStatus, createdAt: Number(r.registeredAt) }, Date.now(), introducedAt),
});

/**
 * Each sort of the User Management table: the value a page is ordered and cut by (then the id), and the table
 * whose index walks it in that order, so no sort needs a temporary B-tree: users (role, created_at, id),
 * users (role, last_login_at or 0, id), profiles (role, <name key>, user_id), profiles (role, balance_cents,
 * user_id). Joined and balance seek straight to the cursor; for the two expression keys (name, activity) the
 * SQLite we checked walks the index from the start of the role and skips to the cursor, so a deep page reads at
 * most the clients before it, never any transaction. The expressions must stay the indexes' own, spelled the same.
 */
const CLIENT_SORT_KEYS: Record<ClientSort, { value: SQL; id: SQL; driver: "users" | "profiles" }> = {
  joined: { value: sql`${users.createdAt}`, id: sql`${users.id}`, driver: "users" },
  activity: {
    value: sql.raw(USER_ACTIVITY_KEY.replace('"last_login_at"', '"users"."last_login_at"')),
    id: sql`${users.id}`,
    driver: "users",
  },
  name: { value: sql.raw(profileNameKey("profiles")), id: sql`${profiles.userId}`, driver: "profiles" },
  balance: { value: sql`${profiles.balanceCents}`, id: sql`${profiles.userId}`, driver: "profiles" },
};

const STATUS_CONDITIONS: Record<ClientStatusFilter, SQL> = {
  active: sql`${users.emailConfirmedAt} IS NOT NULL AND ${profiles.status} = 'active'`,
  suspended: sql`${profiles.status} = 'suspended'`,
  unconfirmed: sql`${users.emailConfirmedAt} IS NULL`,
};

/**
 * The User Management table: one page of clients in the chosen order, by keyset on (sort value, id), after a
 * cursor (Next) or before one (Previous: read backwards, then turned round), filtered by status and by a search
 * of name or e-mail (and by a flag). A client whose data was deleted has no profile and is not listed until a new sign-in
 * creates one.
 */
export function clientsPageQuery(
  db: Db,
  list: ClientListQuery,
  pageSize: number,
  introducedAt: number,
  now = Date.now(),
  searchRead: SearchRead = "sorted",
) {
  const key = CLIENT_SORT_KEYS[list.sort];
  const backwards = readsBackwards(list);
  // Reading backwards flips both the comparison and the order.
  const ascending = (list.dir === "asc") !== backwards;
  const cursor = list.after ?? list.before;
  // A search with few matches reads them (the client search's index) and sorts them: `+` keeps the role's and the
  // sort's indexes from being walked instead, which would read every client to find a rare one.
  const order = list.search && searchRead === "sorted" ? sql`+` : sql``;
  const role = key.driver === "users" ? sql`${order}${users.role} = 'user'` : sql`${order}${profiles.role} = 'user'`;
  return db
    .select({
      ...personColumns,
      emailConfirmedAt: users.emailConfirmedAt,
      balanceCents: profiles.balanceCents,
      sortValue: sql<string | number>`${key.value}`.as("sort_value"),
      caseStatus: sql<VerificationStatus | null>`${liveCaseStatusSql(users.id)}`.as("case_status"),
      flags: sql<string | null>`(SELECT group_concat(flag) FROM client_flags WHERE user_id = ${users.id})`.as("flags"),
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(
      and(
        role,
        sql`${order}${users.role} = 'user'`,
        list.status ? STATUS_CONDITIONS[list.status] : undefined,
        list.level
          ? levelConditionSql(list.level, { id: users.id, createdAt: users.createdAt }, now, introducedAt)
          : undefined,
        // One look-up of the flags projection's primary key per client walked.
        list.flag
          ? sql`EXISTS (SELECT 1 FROM client_flags WHERE user_id = ${users.id} AND flag = ${list.flag})`
          : undefined,
        list.search ? clientSearchCondition(list.search, searchRead) : undefined,
        cursor
          ? ascending
            ? sql`(${key.value}, ${key.id}) > (${cursor.value}, ${cursor.id})`
            : sql`(${key.value}, ${key.id}) < (${cursor.value}, ${cursor.id})`
          : undefined,
      ),
    )
    .orderBy(
      ascending
        ? sql`${order}${key.value} ASC, ${order}${key.id} ASC`
        : sql`${order}${key.value} DESC, ${order}${key.id} DESC`,
    )
    .limit(pageSize + 1);
}

/** A page read by `clientsPageQuery` in the list's order, with the cursors of its neighbours. */
export const clientPageOf = <T extends { id: string; sortValue: string | number }>(
  rows: T[],
  list: ClientListQuery,
  pageSize: number,
) => keysetPage(rows, list, pageSize, (row) => encodeClientCursor({ value: row.sortValue, id: row.id }));

const toClientRow = (r: Awaited<ReturnType<typeof clientsPageQuery>>[number], introducedAt: number) => ({
  id: r.id,
  email: r.email,
  balanceCents: r.balanceCents,
  name: displayName(r.firstName, r.lastName, r.email),
  joinedAt: r.createdAt,
  lastActivityAt: r.lastLoginAt,
  // The Status column: unconfirmed until the e-mail is confirmed, then active unless suspended.
  status: r.emailConfirmedAt ? ("active" as const) : ("unconfirmed" as const),
  suspended: r.status === "suspended",
  level: levelOf({ caseStatus: r.caseStatus, createdAt: r.createdAt }, Date.now(), introducedAt),
  flags: flagsOf(r.flags),
});
