import { and, desc, eq, isNotNull, lt, or, type SQL, sql } from "drizzle-orm";
import {
  emptyTotals,
  type LedgerTotals,
  summarize,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  type TransactionStatus,
  type TransactionType,
} from "~/lib/ledger";
import { qrPath } from "~/lib/qr";
import { idempotencyKeyOf, parseDepositForm } from "~/lib/schemas/money";
import type { AppContext } from "~/load-context";
import { accountQuery } from "./auth.server";
import type { Db } from "./db.server";
import { readTogether, schema, statement } from "./db.server";
import type { AppEnv } from "./env.server";
import { deliverInBackground } from "./mail/outbox.server";
import { publishTransaction } from "./realtime.server";
import { getSessionUser, type SessionUser } from "./session.server";

/**
 * The ledger's server side: the SQL twins of the formulas in `~/lib/ledger`, and the creation of client
 * requests. Every money rule is one conditional statement or one atomic batch; nothing is read in
 * JavaScript and then written on the strength of that read.
 */
const { transactions, profiles, depositWallets, ledgerTotals: totalsTable } = schema;

export const SUSPENDED_MESSAGE = "Your account is suspended. Please contact support.";

/**
 * The client's totals by status and type, from `ledger_totals` (kept by triggers in the statement that
 * writes each ledger row): at most one row per status, type and stock, however long the history.
 */
export function ledgerTotalsQuery(db: Db, userId: string) {
  return db
    .select({
      status: totalsTable.status,
      type: totalsTable.transactionType,
      count: sql<number>`sum(${totalsTable.count})`,
      cents: sql<number>`sum(${totalsTable.cents})`,
    })
    .from(totalsTable)
    .where(eq(totalsTable.userId, userId))
    .groupBy(totalsTable.status, totalsTable.transactionType);
}

type TotalsRow = Awaited<ReturnType<typeof ledgerTotalsQuery>>[number];

export function totalsOf(rows: TotalsRow[]): LedgerTotals {
  const totals = emptyTotals();
  for (const row of rows) {
    if (!TRANSACTION_STATUSES.includes(row.status) || !TRANSACTION_TYPES.includes(row.type)) continue;
    totals[row.status][row.type] = { count: Number(row.count), cents: Number(row.cents) };
  }
  return totals;
}

export async function ledgerTotals(db: Db, userId: string): Promise<LedgerTotals> {
  return totalsOf(await ledgerTotalsQuery(db, userId));
}

export async function ledgerSummary(db: Db, userId: string) {
  return summarize(await ledgerTotals(db, userId));
}

/**
 * `withdrawable` of `~/lib/ledger` as a SQL expression, for use inside the statement that inserts a
 * withdrawal: approved deposit + profit - loss - withdraw, minus pending withdrawals.
 */
export function withdrawableSql(userId: string): SQL<number> {
  return sql<number>`(SELECT coalesce(sum(CASE
      WHEN status = 'approved' AND transaction_type IN ('deposit', 'profit') THEN cents
      WHEN status = 'approved' AND transaction_type IN ('withdraw', 'loss') THEN -cents
      WHEN status = 'pending' AND transaction_type = 'withdraw' THEN -cents
      ELSE 0 END), 0)
    FROM ledger_totals WHERE user_id = ${userId})`;
}

export async function withdrawableCents(db: Db, userId: string): Promise<number> {
  const row = await db.get<{ value: number }>(sql`SELECT ${withdrawableSql(userId)} AS value`);
  return Number(row?.value ?? 0);
}

export async function profileStatus(db: Db, userId: string) {
  const row = await db.select({ status: profiles.status }).from(profiles).where(eq(profiles.userId, userId)).get();
  return row?.status ?? null;
}

export function listDepositWallets(db: Db) {
  return db
    .select({
      id: depositWallets.id,
      walletType: depositWallets.walletType,
      walletAddress: depositWallets.walletAddress,
    })
    .from(depositWallets)
    .orderBy(depositWallets.walletType);
}

/* ---------------------------------------------------------------- client requests */

export interface Requester {
  id: string;
  email: string;
  firstName: string;
}

export type RequestOutcome =
  | { ok: true; transactionId: number; replayed: boolean; emailIds: number[] }
  | { ok: false; error: string };

async function existingRequest(db: Db, userId: string, idempotencyKey: string) {
  return db
    .select({ id: transactions.id })
    .from(transactions)
    .where(and(eq(transactions.userId, userId), eq(transactions.idempotencyKey, idempotencyKey)))
    .get();
}

const activeProfile = (userId: string) =>
  sql`EXISTS (SELECT 1 FROM profiles WHERE user_id = ${userId} AND status = 'active')`;

/** The outbox insert for a notice about the row this request created, once per row whatever the retries. */
function noticeForRequest(
  db: Db,
  userId: string,
  idempotencyKey: string,
  notice: { to: string; template: string; payload: Record<string, unknown> },
) {
  return statement(
    db,
    sql`
    INSERT INTO email_outbox (to_address, template, payload, dedupe_key)
    SELECT ${notice.to.toLowerCase()}, ${notice.template}, ${JSON.stringify(notice.payload)},
           ${`${notice.template}:tx:`} || id
    FROM transactions WHERE user_id = ${userId} AND idempotency_key = ${idempotencyKey}
    ON CONFLICT (dedupe_key) DO NOTHING
    RETURNING id`,
  );
}

/**
 * Settles what happened after a request's batch: created now, created earlier with the same key (a
 * replay or a parallel double click), or refused by the statement's own conditions.
 */
async function settle(
  db: Db,
  userId: string,
  idempotencyKey: string,
  inserted: Array<{ id: number }>,
  emailIds: number[],
  refusal: string,
): Promise<RequestOutcome> {
  const created = inserted[0];
  if (created) return { ok: true, transactionId: created.id, replayed: false, emailIds };
  const earlier = await existingRequest(db, userId, idempotencyKey);
  if (earlier) return { ok: true, transactionId: earlier.id, replayed: true, emailIds: [] };
  if ((await profileStatus(db, userId)) !== "active") return { ok: false, error: SUSPENDED_MESSAGE };
  return { ok: false, error: refusal };
}

export interface DepositRequest {
  amountCents: number;
  walletType: string;
  walletAddress: string;
  stock?: string;
  idempotencyKey: string;
}

/** A pending deposit (or stock deposit) and its notice to the admin mailbox, stored together. */
export async function requestDeposit(
  db: Db,
  env: AppEnv,
  client: Requester,
  request: DepositRequest,
  now = Date.now(),
): Promise<RequestOutcome> {
  const earlier = await existingRequest(db, client.id, request.idempotencyKey);
  if (earlier) return { ok: true, transactionId: earlier.id, replayed: true, emailIds: [] };

  const type: TransactionType = request.stock ? "stock_deposit" : "deposit";
  const [inserted, notices] = await db.$client.batch<{ id: number }>([
    statement(
      db,
      sql`
      INSERT INTO transactions (user_id, transaction_type, amount_cents, status, wallet_address, stock,
                                idempotency_key, created_by, created_at)
      SELECT ${client.id}, ${type}, ${request.amountCents}, 'pending', ${request.walletAddress}, ${request.stock ?? null},
             ${request.idempotencyKey}, ${client.id}, ${now}
      WHERE ${activeProfile(client.id)}
      ON CONFLICT (user_id, idempotency_key) DO NOTHING
      RETURNING id`,
    ),
    noticeForRequest(db, client.id, request.idempotencyKey, {
      to: env.ADMIN_MAILBOX,
      template: "deposit_request",
      payload: {
        name: client.firstName || "User",
        clientEmail: client.email,
        amount: request.amountCents / 100,
        walletType: request.walletType,
        walletAddress: request.walletAddress,
        ...(request.stock ? { stock: request.stock } : {}),
      },
    }),
  ]);
  return settle(
    db,
    client.id,
    request.idempotencyKey,
    inserted?.results ?? [],
    (notices?.results ?? []).map((n) => n.id),
    "Error creating deposit: please try again",
  );
}

export interface WithdrawalRequest {
  amountCents: number;
  cryptoCurrency: string;
  address: string;
  idempotencyKey: string;
}

export const EXCEEDS_BALANCE_MESSAGE = "Withdrawal amount exceeds account balance";

/**
 * A pending withdrawal, accepted by ONE statement only while the withdrawable balance (pending
 * withdrawals reserved) covers it, so parallel requests cannot overdraw. Its withdrawal_wallets row,
 * the admin notice and the client's receipt are in the same batch and follow the row or nothing.
 */
export async function requestWithdrawal(
  db: Db,
  env: AppEnv,
  client: Requester,
  request: WithdrawalRequest,
  now = Date.now(),
): Promise<RequestOutcome> {
  const earlier = await existingRequest(db, client.id, request.idempotencyKey);
  if (earlier) return { ok: true, transactionId: earlier.id, replayed: true, emailIds: [] };

  const payload = {
    name: client.firstName || "User",
    amount: request.amountCents / 100,
    walletType: request.cryptoCurrency,
    walletAddress: request.address,
  };
  const [inserted, , adminNotice, receipt] = await db.$client.batch<{ id: number }>([
    statement(
      db,
      sql`
      INSERT INTO transactions (user_id, transaction_type, amount_cents, status, wallet_address,
                                withdrawal_wallet_address, idempotency_key, created_by, created_at)
      SELECT ${client.id}, 'withdraw', ${request.amountCents}, 'pending',
             coalesce((SELECT wallet_address FROM deposit_wallets ORDER BY id LIMIT 1), ''),
             ${request.address}, ${request.idempotencyKey}, ${client.id}, ${now}
      WHERE ${activeProfile(client.id)} AND ${withdrawableSql(client.id)} >= ${request.amountCents}
      ON CONFLICT (user_id, idempotency_key) DO NOTHING
      RETURNING id`,
    ),
    statement(
      db,
      sql`
      INSERT INTO withdrawal_wallets (user_id, transaction_id, wallet_address, crypto_currency, amount_cents, created_at)
      SELECT user_id, id, ${request.address}, ${request.cryptoCurrency}, amount_cents, ${now}
      FROM transactions t
      WHERE user_id = ${client.id} AND idempotency_key = ${request.idempotencyKey}
        AND NOT EXISTS (SELECT 1 FROM withdrawal_wallets w WHERE w.transaction_id = t.id)`,
    ),
    noticeForRequest(db, client.id, request.idempotencyKey, {
      to: env.ADMIN_MAILBOX,
      template: "withdrawal_request",
      payload: { ...payload, clientEmail: client.email },
    }),
    noticeForRequest(db, client.id, request.idempotencyKey, {
      to: client.email,
      template: "withdrawal_receipt",
      payload,
    }),
  ]);
  return settle(
    db,
    client.id,
    request.idempotencyKey,
    inserted?.results ?? [],
    [...(adminNotice?.results ?? []), ...(receipt?.results ?? [])].map((n) => n.id),
    EXCEEDS_BALANCE_MESSAGE,
  );
}

/* ---------------------------------------------------------------- dashboard reads */

const listColumns = {
  id: transactions.id,
  transactionType: transactions.transactionType,
  amountCents: transactions.amountCents,
  status: transactions.status,
  createdAt: transactions.createdAt,
  tradingPair: transactions.tradingPair,
  stock: transactions.stock,
};
export type LedgerListRow = {
  id: number;
  transactionType: TransactionType;
  amountCents: number;
  status: TransactionStatus;
  createdAt: number;
  tradingPair: string | null;
  stock: string | null;
};

const newestFirst = [desc(transactions.createdAt), desc(transactions.id)];
const byNewest = (a: LedgerListRow, b: LedgerListRow) => b.createdAt - a.createdAt || b.id - a.id;

/** Keyset paging on (created_at, id): "rows older than this one". */
export interface Cursor {
  createdAt: number;
  id: number;
}
const olderThan = (cursor?: Cursor) =>
  cursor
    ? or(
        lt(transactions.createdAt, cursor.createdAt),
        and(eq(transactions.createdAt, cursor.createdAt), lt(transactions.id, cursor.id)),
      )
    : undefined;

export function latestWithStatus(db: Db, userId: string, status: TransactionStatus, limit: number, cursor?: Cursor) {
  return db
    .select(listColumns)
    .from(transactions)
    .where(and(eq(transactions.userId, userId), eq(transactions.status, status), olderThan(cursor)))
    .orderBy(...newestFirst)
    .limit(limit);
}

export function latestOfType(db: Db, userId: string, type: TransactionType, limit: number, extra?: SQL) {
  return db
    .select(listColumns)
    .from(transactions)
    .where(and(eq(transactions.userId, userId), eq(transactions.transactionType, type), extra))
    .orderBy(...newestFirst)
    .limit(limit);
}

/**
 * Everything the dashboard shows, in one round trip and without reading the client's whole history: the
 * account, totals from `ledger_totals`, each list a bounded index range (two small ranges merged where a
 * list spans two statuses or types).
 */
export async function dashboardData(db: Db, userId: string, listSize = 5) {
  const { account, totals, recent, profits, losses, pending, rejected, stocks } = await readTogether(db, {
    account: accountQuery(db, userId),
    totals: ledgerTotalsQuery(db, userId),
    recent: latestWithStatus(db, userId, "approved", listSize + 1),
    profits: latestOfType(db, userId, "profit", listSize, isNotNull(transactions.tradingPair)),
    losses: latestOfType(db, userId, "loss", listSize, isNotNull(transactions.tradingPair)),
    pending: latestWithStatus(db, userId, "pending", 10),
    rejected: latestWithStatus(db, userId, "rejected", 10),
    stocks: approvedStocks(db, userId),
  });
  return {
    account: account[0] ?? null,
    summary: summarize(totalsOf(totals)),
    recentActivity: recent.slice(0, listSize),
    hasMoreActivity: recent.length > listSize,
    openPositions: [...profits, ...losses].sort(byNewest).slice(0, listSize),
    pendingAndDeclined: [...pending, ...rejected].sort(byNewest).slice(0, 10),
    stocks,
  };
}

/** Approved stock deposits grouped by stock (the dashboard's and the admin's Stocks lists). */
export function approvedStocks(db: Db, userId: string) {
  return db
    .select({ stock: totalsTable.stock, cents: totalsTable.cents, count: totalsTable.count })
    .from(totalsTable)
    .where(
      and(
        eq(totalsTable.userId, userId),
        eq(totalsTable.status, "approved"),
        eq(totalsTable.transactionType, "stock_deposit"),
      ),
    )
    .orderBy(totalsTable.stock);
}

/** All of a client's transactions, newest first, a page at a time (the admin's Transactions table). */
export function transactionsPageQuery(db: Db, userId: string, pageSize: number, cursor?: Cursor) {
  return db
    .select({
      ...listColumns,
      walletAddress: transactions.walletAddress,
      withdrawalWalletAddress: transactions.withdrawalWalletAddress,
    })
    .from(transactions)
    .where(and(eq(transactions.userId, userId), olderThan(cursor)))
    .orderBy(...newestFirst)
    .limit(pageSize + 1);
}

/** One page of rows read with a limit of `pageSize + 1`, and the cursor of the next page if there is one. */
export function pageOf<T extends { createdAt: number; id: number }>(rows: T[], pageSize: number) {
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return { rows: page, next: rows.length > pageSize && last ? `${last.createdAt}.${last.id}` : null };
}

export function parseCursor(value: string | null): Cursor | undefined {
  const match = /^(\d+)\.(\d+)$/.exec(value ?? "");
  return match ? { createdAt: Number(match[1]), id: Number(match[2]) } : undefined;
}

/**
 * Who may submit a money request: a signed-in client whose profile is active. Answers SPEC's
 * 'User not authenticated' or the suspension message otherwise (the action shows it; nothing is written).
 */
export async function moneyRequester(
  request: Request,
  context: { db: Db; env: AppEnv; ctx?: ExecutionContext },
): Promise<{ ok: true; client: SessionUser } | { ok: false; error: string; status: number }> {
  const user = await getSessionUser(request, context);
  if (user?.role !== "user") return { ok: false, error: "User not authenticated", status: 401 };
  if ((await profileStatus(context.db, user.id)) !== "active") {
    return { ok: false, error: SUSPENDED_MESSAGE, status: 403 };
  }
  return { ok: true, client: user };
}

/** The firm's wallets with their QR codes, for the deposit forms. */
export async function depositWalletViews(db: Db) {
  const wallets = await listDepositWallets(db);
  return wallets.map((wallet) => ({ ...wallet, qr: qrPath(wallet.walletAddress) }));
}

/**
 * The deposit actions' shared path (/deposit and /stocks/{symbol}/deposit): who may ask, SPEC's rules in
 * order, then one atomic request with its notice. `stock` is the stock deposit's validated symbol.
 */
export async function submitDeposit(
  request: Request,
  context: AppContext,
  checkStock?: (form: FormData) => { ok: true; stock: string } | { ok: false; error: string },
): Promise<{ ok: true; transactionId: number } | { ok: false; error: string; status: number }> {
  const requester = await moneyRequester(request, context);
  if (!requester.ok) return requester;
  const form = await request.formData();
  const parsed = parseDepositForm(form, await listDepositWallets(context.db));
  if (!parsed.ok) return { ok: false, error: parsed.error, status: 400 };
  const stock = checkStock?.(form);
  if (stock && !stock.ok) return { ok: false, error: stock.error, status: 400 };
  const idempotencyKey = idempotencyKeyOf(form);
  if (!idempotencyKey) return { ok: false, error: "This form has expired. Please reload the page.", status: 400 };

  const result = await requestDeposit(context.db, context.env, requester.client, {
    amountCents: parsed.data.amountCents,
    walletType: parsed.data.wallet.walletType,
    walletAddress: parsed.data.wallet.walletAddress,
    stock: stock?.ok ? stock.stock : undefined,
    idempotencyKey,
  });
  if (!result.ok) return { ok: false, error: result.error, status: 409 };
  deliverInBackground(context.ctx, context.db, context.env, result.emailIds);
  if (!result.replayed) publishTransaction(context, result.transactionId, "transaction.created");
  return { ok: true, transactionId: result.transactionId };
}
