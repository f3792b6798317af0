import { and, asc, count, desc, eq, lt, or, type SQL, sql } from "drizzle-orm";
import { centsToAmount, isCredit, ledgerBalance, type TransactionType, totalProfit } from "~/lib/ledger";
import { ADMIN_MESSAGES, AUDIT_ACTIONS } from "~/lib/schemas/admin";
import { invalidAddressMessage, isValidAddress } from "~/lib/wallet-address";
import { accountQuery } from "./auth.server";
import type { Db } from "./db.server";
import { readTogether, schema, statement } from "./db.server";
import {
  approvedStocks,
  type Cursor,
  latestOfType,
  ledgerTotalsQuery,
  listDepositWallets,
  pageOf,
  totalsOf,
  transactionsPageQuery,
} from "./ledger.server";

/**
 * The back office's rules. Every mutation is one atomic batch that carries its audit_log row; decisions
 * and balance changes are conditional statements, so two admins acting at once cannot both win.
 */
const { users, profiles, transactions, auditLog } = schema;

export { ADMIN_MESSAGES, AUDIT_ACTIONS };

/** The fixed wallet address written on admin-created entries (SPEC §7). */
export const ADMIN_ENTRY_WALLET = "admin-ledger-entry";

export interface Actor {
  id: string;
  email: string;
}

/* ---------------------------------------------------------------- shared SQL */

/** The ledger balance of DESIGN §3 for one client, as SQL (the twin of `ledgerBalance` in ~/lib/ledger). */
const ledgerBalanceSql = (userId: SQL | string) => sql`(SELECT coalesce(sum(CASE
    WHEN transaction_type IN ('deposit', 'stock_deposit', 'fee_deposit', 'profit') THEN cents
    ELSE -cents END), 0)
  FROM ledger_totals WHERE user_id = ${userId} AND status = 'approved')`;

/** What an approved withdrawal may take: approved deposit + profit - loss - withdraw (the old app's check). */
const coverableSql = (userId: SQL | string) => sql`(SELECT coalesce(sum(CASE
    WHEN transaction_type IN ('deposit', 'profit') THEN cents
    WHEN transaction_type IN ('withdraw', 'loss') THEN -cents
    ELSE 0 END), 0)
  FROM ledger_totals WHERE user_id = ${userId} AND status = 'approved')`;

/**
 * Keeps the profile's projections (balance, trades, win rate) equal to the ledger; part of every batch that
 * changes approved rows.
 */
function refreshProfileProjection(db: Db, userId: SQL | string, now: number) {
  return statement(
    db,
    sql`UPDATE profiles SET
      balance_cents = ${ledgerBalanceSql(userId)},
      total_trades = (SELECT coalesce(sum(count), 0) FROM ledger_totals
                      WHERE user_id = ${userId} AND status = 'approved' AND transaction_type IN ('profit', 'loss')),
      win_rate = coalesce((SELECT round(100.0 * sum(CASE WHEN transaction_type = 'profit' THEN count ELSE 0 END) / sum(count), 1)
                           FROM ledger_totals
                           WHERE user_id = ${userId} AND status = 'approved' AND transaction_type IN ('profit', 'loss')), 0),
      updated_at = ${now}
    WHERE user_id = ${userId}`,
  );
}

function audit(db: Db, actor: Actor, action: string, target: string, detail: Record<string, unknown>, now: number) {
  return statement(
    db,
    sql`INSERT INTO audit_log (actor_id, action, target, detail, created_at)
        VALUES (${actor.id}, ${action}, ${target}, ${JSON.stringify({ by: actor.email, ...detail })}, ${now})`,
  );
}

/* ---------------------------------------------------------------- decisions */

export type Decision = "approved" | "rejected";
type Outcome = { ok: true } | { ok: false; error: string };

/**
 * Approves or rejects a pending transaction. The status update only matches a pending row (and, for a
 * withdrawal approval, only while the client's approved balance still covers it); the audit row and the
 * profile projection follow it in the same batch. Whoever comes second changes nothing.
 */
export async function decideTransaction(
  db: Db,
  actor: Actor,
  transactionId: number,
  decision: Decision,
  scope: { userId?: string } = {},
  now = Date.now(),
): Promise<Outcome & { userId?: string }> {
  const owner = sql`(SELECT user_id FROM transactions WHERE id = ${transactionId})`;
  const inScope = scope.userId ? sql`AND user_id = ${scope.userId}` : sql``;
  const coverCheck =
    decision === "approved"
      ? sql`AND (transaction_type <> 'withdraw' OR ${coverableSql(owner)} >= amount_cents)`
      : sql``;
  const [decided] = await db.$client.batch<{ id: number; user_id: string }>([
    statement(
      db,
      sql`UPDATE transactions SET status = ${decision}, decided_by = ${actor.id}, decided_at = ${now}
          WHERE id = ${transactionId} AND status = 'pending' ${inScope} ${coverCheck}
          RETURNING id, user_id`,
    ),
    // One decision per transaction ever, so one audit row: the guard makes a replay add nothing.
    statement(
      db,
      sql`INSERT INTO audit_log (actor_id, action, target, detail, created_at)
          SELECT ${actor.id}, ${`transaction.${decision === "approved" ? "approve" : "reject"}`}, 'transaction:' || id,
                 json_object('by', ${actor.email}, 'client', user_id, 'type', transaction_type, 'amountCents', amount_cents,
                             'before', 'pending', 'after', status),
                 ${now}
          FROM transactions
          WHERE id = ${transactionId} AND status = ${decision} AND decided_by = ${actor.id} AND decided_at = ${now}
            AND NOT EXISTS (SELECT 1 FROM audit_log a WHERE a.target = 'transaction:' || transactions.id
                            AND a.action IN ('transaction.approve', 'transaction.reject'))`,
    ),
    refreshProfileProjection(db, owner, now),
  ]);
  const row = decided?.results[0];
  if (row) return { ok: true, userId: row.user_id };

  const current = await db
    .select({ status: transactions.status, userId: transactions.userId })
    .from(transactions)
    .where(eq(transactions.id, transactionId))
    .get();
  if (!current || (scope.userId && current.userId !== scope.userId)) {
    return { ok: false, error: ADMIN_MESSAGES.transactionNotFound };
  }
  if (current.status !== "pending") return { ok: false, error: ADMIN_MESSAGES.alreadyDecided };
  return { ok: false, error: ADMIN_MESSAGES.cannotCoverWithdrawal };
}

/* ---------------------------------------------------------------- ledger entries */

export interface LedgerEntry {
  type: TransactionType;
  amountCents: number;
  tradingPair?: string;
  stock?: string;
  idempotencyKey: string;
}

/**
 * An admin entry: inserted approved, with the balance after it and the fixed admin wallet address, the
 * profile projection and the audit row, in one batch.
 */
export async function postLedgerEntry(
  db: Db,
  actor: Actor,
  userId: string,
  entry: LedgerEntry,
  now = Date.now(),
): Promise<Outcome & { transactionId?: number }> {
  const signed = entry.type === "withdraw" || entry.type === "loss" ? -entry.amountCents : entry.amountCents;
  const tradingPair = entry.type === "profit" || entry.type === "loss" ? (entry.tradingPair ?? null) : null;
  const stock = entry.type === "stock_deposit" ? (entry.stock ?? null) : null;
  const [inserted] = await db.$client.batch<{ id: number }>([
    statement(
      db,
      sql`INSERT INTO transactions (user_id, transaction_type, amount_cents, status, wallet_address, balance_after_cents,
                                    trading_pair, stock, idempotency_key, created_by, decided_by, decided_at, created_at)
          SELECT ${userId}, ${entry.type}, ${entry.amountCents}, 'approved', ${ADMIN_ENTRY_WALLET},
                 ${ledgerBalanceSql(userId)} + ${signed}, ${tradingPair}, ${stock}, ${entry.idempotencyKey},
                 ${actor.id}, ${actor.id}, ${now}, ${now}
          WHERE EXISTS (SELECT 1 FROM profiles WHERE user_id = ${userId})
          ON CONFLICT (user_id, idempotency_key) DO NOTHING
          RETURNING id`,
    ),
    statement(
      db,
      sql`INSERT INTO audit_log (actor_id, action, target, detail, created_at)
          SELECT ${actor.id}, 'ledger.entry', 'transaction:' || id,
                 json_object('by', ${actor.email}, 'client', user_id, 'type', transaction_type, 'amountCents', amount_cents,
                             'tradingPair', trading_pair, 'stock', stock, 'balanceAfterCents', balance_after_cents),
                 ${now}
          FROM transactions
          WHERE user_id = ${userId} AND idempotency_key = ${entry.idempotencyKey}
            AND NOT EXISTS (SELECT 1 FROM audit_log WHERE action = 'ledger.entry' AND target = 'transaction:' || transactions.id)`,
    ),
    refreshProfileProjection(db, userId, now),
  ]);
  const row = inserted?.results[0];
  if (row) return { ok: true, transactionId: row.id };
  const earlier = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(and(eq(transactions.userId, userId), eq(transactions.idempotencyKey, entry.idempotencyKey)))
    .get();
  if (earlier) return { ok: true, transactionId: earlier.id };
  return { ok: false, error: ADMIN_MESSAGES.processingFailed };
}

/* ---------------------------------------------------------------- client status and deletion */

export async function setClientStatus(
  db: Db,
  actor: Actor,
  userId: string,
  status: "active" | "suspended",
  now = Date.now(),
): Promise<Outcome> {
  const before = status === "active" ? "suspended" : "active";
  const results = await db.$client.batch([
    statement(
      db,
      sql`UPDATE profiles SET status = ${status}, updated_at = ${now}
          WHERE user_id = ${userId} AND status = ${before} AND role = 'user' RETURNING id`,
    ),
    statement(
      db,
      sql`INSERT INTO audit_log (actor_id, action, target, detail, created_at)
          SELECT ${actor.id}, ${status === "suspended" ? "client.suspend" : "client.activate"}, ${`user:${userId}`},
                 json_object('by', ${actor.email}, 'before', ${before}, 'after', ${status}), ${now}
          WHERE changes() = 1`,
    ),
    // A suspended client is signed out everywhere (their sockets close with their sessions).
    ...(status === "suspended" ? [statement(db, sql`DELETE FROM sessions WHERE user_id = ${userId}`)] : []),
  ]);
  if ((results[0]?.results.length ?? 0) === 1) return { ok: true };
  const profile = await db.select({ status: profiles.status }).from(profiles).where(eq(profiles.userId, userId)).get();
  if (!profile) return { ok: false, error: "User not found" };
  if (profile.status === status) return { ok: true };
  return { ok: false, error: "Admins cannot be suspended" };
}

/**
 * SPEC's "delete client data", made recoverable: the profile and transactions are copied to the archives,
 * then removed from the live tables, the client's sessions end and an audit row records what went, in one
 * batch. The login account stays; a later sign-in creates a fresh profile.
 */
export async function deleteClientData(db: Db, actor: Actor, userId: string, now = Date.now()): Promise<Outcome> {
  const target = await db.select({ role: users.role }).from(users).where(eq(users.id, userId)).get();
  if (!target) return { ok: false, error: "User not found" };
  if (target.role === "admin") return { ok: false, error: "Admin accounts cannot be deleted here" };
  try {
    await db.$client.batch([
      statement(
        db,
        sql`INSERT INTO audit_log (actor_id, action, target, detail, created_at)
            SELECT ${actor.id}, 'client.delete', ${`user:${userId}`},
                   json_object('by', ${actor.email},
                               'transactions', (SELECT count(*) FROM transactions WHERE user_id = ${userId}),
                               'balanceCents', (SELECT balance_cents FROM profiles WHERE user_id = ${userId}),
                               'email', (SELECT email FROM users WHERE id = ${userId})),
                   ${now}`,
      ),
      statement(
        db,
        sql`INSERT INTO transactions_archive (id, user_id, transaction_type, amount_cents, status, wallet_address,
              withdrawal_wallet_address, balance_after_cents, trading_pair, stock, idempotency_key, created_by,
              decided_by, decided_at, created_at, archived_at, archived_by)
            SELECT id, user_id, transaction_type, amount_cents, status, wallet_address, withdrawal_wallet_address,
                   balance_after_cents, trading_pair, stock, idempotency_key, created_by, decided_by, decided_at,
                   created_at, ${now}, ${actor.id}
            FROM transactions WHERE user_id = ${userId}`,
      ),
      statement(
        db,
        sql`INSERT INTO profiles_archive (id, user_id, email, first_name, last_name, phone_number, username, country,
              referral_id, balance_cents, status, role, total_trades, win_rate, created_at, updated_at, archived_at,
              archived_by)
            SELECT id, user_id, email, first_name, last_name, phone_number, username, country, referral_id,
                   balance_cents, status, role, total_trades, win_rate, created_at, updated_at, ${now}, ${actor.id}
            FROM profiles WHERE user_id = ${userId}`,
      ),
      statement(db, sql`DELETE FROM transactions WHERE user_id = ${userId}`),
      statement(db, sql`DELETE FROM profiles WHERE user_id = ${userId}`),
      statement(db, sql`DELETE FROM sessions WHERE user_id = ${userId}`),
    ]);
    return { ok: true };
  } catch (error) {
    console.error("deleteClientData failed", error);
    const reason = error instanceof Error ? error.message : String(error);
    if (/transactions/.test(reason)) return { ok: false, error: `Failed to delete transactions: ${reason}` };
    if (/profiles/.test(reason)) return { ok: false, error: `Failed to delete profile: ${reason}` };
    return { ok: false, error: ADMIN_MESSAGES.deleteFailed };
  }
}

/* ---------------------------------------------------------------- deposit wallets */

/**
 * Saves only the addresses that changed, each checked for its network's format. Each change is audited and
 * e-mailed to every admin, in the same batch; an address edited by someone else meanwhile is not overwritten.
 */
export async function updateDepositWallets(
  db: Db,
  actor: Actor,
  submitted: Array<{ id: number; walletAddress: string }>,
  now = Date.now(),
): Promise<(Outcome & { updated?: number; emailIds?: number[] }) | { ok: false; error: string }> {
  const current = await listDepositWallets(db);
  const changes = submitted
    .map((s) => ({ wallet: current.find((w) => w.id === s.id), walletAddress: s.walletAddress.trim() }))
    .filter((c): c is { wallet: (typeof current)[number]; walletAddress: string } =>
      Boolean(c.wallet && c.walletAddress !== c.wallet.walletAddress),
    );
  if (changes.length === 0) return { ok: false, error: ADMIN_MESSAGES.noWalletChanges };
  const invalid = changes.filter((c) => !isValidAddress(c.wallet.walletType, c.walletAddress));
  if (invalid.length > 0)
    return { ok: false, error: invalid.map((c) => invalidAddressMessage(c.wallet.walletType)).join("; ") };

  const statements = changes.flatMap(({ wallet, walletAddress }) => [
    statement(
      db,
      sql`UPDATE deposit_wallets SET wallet_address = ${walletAddress}, updated_at = ${now}, updated_by = ${actor.id}
          WHERE id = ${wallet.id} AND wallet_address = ${wallet.walletAddress}`,
    ),
    audit(
      db,
      actor,
      "wallet.update",
      `wallet:${wallet.id}`,
      {
        walletType: wallet.walletType,
        before: wallet.walletAddress,
        after: walletAddress,
      },
      now,
    ),
    statement(
      db,
      sql`INSERT INTO email_outbox (to_address, template, payload)
          SELECT email, 'deposit_wallet_changed',
                 json_object('walletType', ${wallet.walletType}, 'previousAddress', ${wallet.walletAddress},
                             'newAddress', ${walletAddress}, 'changedBy', ${actor.email})
          FROM users WHERE role = 'admin'
          RETURNING id`,
    ),
  ]);
  try {
    const results = await db.$client.batch<{ id: number }>(statements);
    const emailIds = results.filter((_, i) => i % 3 === 2).flatMap((r) => r.results.map((row) => row.id));
    return { ok: true, updated: changes.length, emailIds };
  } catch (error) {
    console.error("updateDepositWallets failed", error);
    return { ok: false, error: ADMIN_MESSAGES.walletsFailed };
  }
}

/* ---------------------------------------------------------------- reads */

/**
 * The admin desk in one round trip: the two counts, the waiting list, one page of the client list and the
 * firm's wallets.
 */
export async function adminDesk(db: Db, options: ClientListOptions = {}) {
  const pageSize = options.pageSize ?? 25;
  const { clients, pending, waiting, page, wallets } = await readTogether(db, {
    clients: db.select({ n: count() }).from(users).where(sql`${users.role} = 'user'`),
    // Literal 'pending' rather than a bound value, so the planner can count the partial pending index.
    pending: db.select({ n: count() }).from(transactions).where(sql`${transactions.status} = 'pending'`),
    waiting: waitingClientsQuery(db, 50),
    page: clientsPageQuery(db, { ...options, pageSize }),
    wallets: listDepositWallets(db),
  });
  return {
    counts: { totalUsers: clients[0]?.n ?? 0, activeAlerts: pending[0]?.n ?? 0 },
    pending: waiting.map(toWaitingClient),
    clients: clientsPageOf(page, pageSize),
    wallets,
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
  return db
    .with(waiting)
    .select({
      userId: waiting.userId,
      email: users.email,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      count: sql<number>`(SELECT sum(count) FROM ledger_totals WHERE user_id = ${waiting.userId} AND status = 'pending')`,
      cents: sql<number>`(SELECT sum(cents) FROM ledger_totals WHERE user_id = ${waiting.userId} AND status = 'pending')`,
      oldest,
    })
    .from(waiting)
    .innerJoin(users, eq(users.id, waiting.userId))
    .leftJoin(profiles, eq(profiles.userId, waiting.userId))
    .orderBy(sql`oldest`, waiting.userId);
}

const toWaitingClient = (r: Awaited<ReturnType<typeof waitingClientsQuery>>[number]) => ({
  userId: r.userId,
  name: displayName(r.firstName, r.lastName, r.email),
  count: Number(r.count),
  cents: Number(r.cents),
  oldest: Number(r.oldest),
});

export function displayName(first: string | null | undefined, last: string | null | undefined, email: string): string {
  const full = `${first ?? ""} ${last ?? ""}`.trim();
  return full || email;
}

export interface ClientListCursor {
  createdAt: number;
  id: string;
}

interface ClientListOptions {
  search?: string;
  after?: ClientListCursor;
  pageSize?: number;
}

/** The User Management table: clients newest first, 25 a page by keyset, optionally filtered by name or e-mail. */
function clientsPageQuery(db: Db, options: ClientListOptions & { pageSize: number }) {
  const term = options.search?.trim().toLowerCase();
  const pattern = term ? `%${term.replace(/[%_\\]/g, (c) => `\\${c}`)}%` : null;
  return db
    .select({
      id: users.id,
      email: users.email,
      createdAt: users.createdAt,
      lastLoginAt: users.lastLoginAt,
      emailConfirmedAt: users.emailConfirmedAt,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      status: profiles.status,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(
      and(
        eq(users.role, "user"),
        pattern
          ? or(
              sql`${users.email} LIKE ${pattern} ESCAPE '\\'`,
              sql`lower(coalesce(${profiles.firstName}, '') || ' ' || coalesce(${profiles.lastName}, '')) LIKE ${pattern} ESCAPE '\\'`,
            )
          : undefined,
        options.after
          ? or(
              lt(users.createdAt, options.after.createdAt),
              and(eq(users.createdAt, options.after.createdAt), lt(users.id, options.after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(options.pageSize + 1);
}

function clientsPageOf(rows: Awaited<ReturnType<typeof clientsPageQuery>>, pageSize: number) {
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return {
    clients: page.map((r) => ({
      id: r.id,
      name: displayName(r.firstName, r.lastName, r.email),
      joinedAt: r.createdAt,
      lastActivityAt: r.lastLoginAt,
      // SPEC's Status column: active when the e-mail is confirmed, inactive when not.
      status: r.emailConfirmedAt ? ("active" as const) : ("inactive" as const),
      suspended: r.status === "suspended",
      // A client whose data was deleted keeps the login but has no profile until the next sign-in.
      hasProfile: r.status !== null,
    })),
    next: rows.length > pageSize && last ? `${last.createdAt}.${last.id}` : null,
  };
}

export function parseClientCursor(value: string | null): ClientListCursor | undefined {
  const match = /^(\d+)\.([0-9a-f-]{36})$/.exec(value ?? "");
  return match ? { createdAt: Number(match[1]), id: match[2] ?? "" } : undefined;
}

/* ---------------------------------------------------------------- client detail */

/** Everything /user/{id} shows, bounded, in one round trip: totals, short lists, one page of rows. */
export async function clientDetail(db: Db, userId: string, cursor?: Cursor) {
  const { account, totals, firstDeposit, stocks, feeDeposits, page } = await readTogether(db, {
    account: accountQuery(db, userId),
    totals: ledgerTotalsQuery(db, userId),
    firstDeposit: db
      .select({ createdAt: transactions.createdAt, amountCents: transactions.amountCents })
      .from(transactions)
      .where(
        and(
          eq(transactions.userId, userId),
          eq(transactions.status, "approved"),
          eq(transactions.transactionType, "deposit"),
        ),
      )
      .orderBy(asc(transactions.createdAt), asc(transactions.id))
      .limit(1),
    stocks: approvedStocks(db, userId),
    feeDeposits: latestOfType(db, userId, "fee_deposit", 10, eq(transactions.status, "approved")),
    page: transactionsPageQuery(db, userId, 25, cursor),
  });
  const [client] = account;
  if (!client?.status) return null;
  const ledger = totalsOf(totals);
  const { rows, next } = pageOf(page, 25);
  return {
    profile: {
      ...client,
      status: client.status,
      name: displayName(client.firstName, client.lastName, client.email),
    },
    summary: {
      balanceCents: ledgerBalance(ledger),
      totalDepositsCents: ledger.approved.deposit.cents,
      stockBalanceCents: ledger.approved.stock_deposit.cents,
      totalFeeDepositsCents: ledger.approved.fee_deposit.cents,
      totalProfitCents: totalProfit(ledger),
      firstDeposit: firstDeposit[0] ?? null,
    },
    stocks,
    feeDeposits,
    transactions: rows,
    next,
  };
}

/* ---------------------------------------------------------------- statement export */

/**
 * The client's whole statement as CSV, oldest first, with the running ledger balance (approved rows
 * only move it). Read 1,000 rows at a time, so a long history streams instead of filling memory.
 */
export function statementCsv(db: Db, userId: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: Cursor | undefined;
  let balance = 0;
  let headerSent = false;
  return new ReadableStream({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(
          encoder.encode("id,date,type,status,amount,trading_pair,stock,wallet_address,withdrawal_address,balance\r\n"),
        );
      }
      const rows = await db
        .select()
        .from(transactions)
        .where(
          and(
            eq(transactions.userId, userId),
            after
              ? or(
                  sql`${transactions.createdAt} > ${after.createdAt}`,
                  and(eq(transactions.createdAt, after.createdAt), sql`${transactions.id} > ${after.id}`),
                )
              : undefined,
          ),
        )
        .orderBy(asc(transactions.createdAt), asc(transactions.id))
        .limit(1000);
      if (rows.length === 0) {
        controller.close();
        return;
      }
      const lines = rows.map((row) => {
        if (row.status === "approved") balance += isCredit(row.transactionType) ? row.amountCents : -row.amountCents;
        return [
          row.id,
          new Date(row.createdAt).toISOString(),
          row.transactionType,
          row.status,
          centsToAmount(row.amountCents),
          row.tradingPair ?? "",
          row.stock ?? "",
          row.walletAddress ?? "",
          row.withdrawalWalletAddress ?? "",
          centsToAmount(balance),
        ]
          .map(csvField)
          .join(",");
      });
      controller.enqueue(encoder.encode(`${lines.join("\r\n")}\r\n`));
      const last = rows.at(-1);
      after = last ? { createdAt: last.createdAt, id: last.id } : undefined;
    },
  });
}

/** RFC 4180 quoting, and no leading formula characters (a spreadsheet must not run a cell). */
function csvField(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/* ---------------------------------------------------------------- audit log */

export async function listAudit(
  db: Db,
  filters: { actorId?: string; action?: string; client?: string; beforeId?: number },
  pageSize = 50,
) {
  const clientTargets = filters.client
    ? or(
        eq(auditLog.target, `user:${filters.client}`),
        sql`json_extract(${auditLog.detail}, '$.client') = ${filters.client}`,
      )
    : undefined;
  const rows = await db
    .select({
      id: auditLog.id,
      actorId: auditLog.actorId,
      actorEmail: users.email,
      action: auditLog.action,
      target: auditLog.target,
      detail: auditLog.detail,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(
      and(
        filters.actorId ? eq(auditLog.actorId, filters.actorId) : undefined,
        filters.action ? eq(auditLog.action, filters.action) : undefined,
        clientTargets,
        filters.beforeId ? lt(auditLog.id, filters.beforeId) : undefined,
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(pageSize + 1);
  const page = rows.slice(0, pageSize);
  return { entries: page, next: rows.length > pageSize ? (page.at(-1)?.id ?? null) : null };
}

export async function listAdmins(db: Db) {
  return db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.role, "admin"))
    .orderBy(users.email);
}
