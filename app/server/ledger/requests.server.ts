/**
 * Client requests: deposits, stock deposits and withdrawals. Each is one atomic batch whose first
 * statement inserts the pending row only while its conditions hold (an active profile; for a withdrawal,
 * enough withdrawable money), with the notices that follow the row or nothing. A form's idempotency key
 * makes a double click or a retried request one row.
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import { type FormRefusal, type Parsed, refusalOf } from "~/lib/forms";
import type { FeedTransaction } from "~/lib/realtime";
import { idempotencyKeyOf, MONEY_MESSAGES, parseDepositForm } from "~/lib/schemas/money";
import { afterCommit, type CommandContext, type Outcome, type Result } from "../commands.server";
import type { Db } from "../db.server";
import { returning, schema, writeTogether } from "../db.server";
import type { AppEnv } from "../env.server";
import { readForm } from "../form.server";
import { type EmailData, emailTemplates } from "../mail/templates.server";
import { getSessionUser, type SessionUser } from "../session.server";
import { withdrawableSql } from "./figures.server";
import { neverPaidTo } from "./payout-address.server";
import { FEED_RETURNING, listDepositWallets } from "./reads.server";

const { transactions } = schema;

export const SUSPENDED_MESSAGE = "Your account is suspended. Please contact support.";
export const EXCEEDS_BALANCE_MESSAGE = MONEY_MESSAGES.exceedsBalance;

interface Requester {
  id: string;
  email: string;
  firstName: string;
}

/** A request's batch: the row it created (null when the key was used before), and the notices it enqueued. */
type RequestOutcome = Result<{
  transaction: FeedTransaction | null;
  transactionId: number;
  replayed: boolean;
  emailIds: number[];
}>;

/**
 * Who may submit a money request: a signed-in client whose profile is active (the session lookup reads
 * the profile's status). 'User not authenticated' or the suspension message otherwise; nothing is written.
 */
export function moneyRequester(user: SessionUser | null): Outcome<{ client: SessionUser }> {
  if (user?.role !== "user") return { ok: false, error: MONEY_MESSAGES.notAuthenticated, status: 401 };
  if (user.profileStatus !== "active") return { ok: false, error: SUSPENDED_MESSAGE, status: 403 };
  return { ok: true, client: user };
}

const activeProfile = (userId: string) =>
  sql`EXISTS (SELECT 1 FROM profiles WHERE user_id = ${userId} AND status = 'active')`;

/** The rows a notice about this request is written for: the request's own row, whenever it was created. */
const requestRow = (userId: string, idempotencyKey: string) =>
  sql`transactions WHERE user_id = ${userId} AND idempotency_key = ${idempotencyKey}`;

/** One notice per request row and template, whatever the retries. */
const perRequest = (template: string) => sql`${`${template}:tx:`} || id`;

/**
 * What the batch did when it returned no new row: the same key was used before (a replay or a parallel
 * double click), or the statement's own conditions refused it. Runs only on those paths.
 */
async function settle(
  db: Db,
  client: Requester,
  idempotencyKey: string,
  created: FeedTransaction | undefined,
  emailIds: number[],
  refusal: string,
): Promise<RequestOutcome> {
  if (created) return { ok: true, transaction: created, transactionId: created.id, replayed: false, emailIds };
  const earlier = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(and(eq(transactions.userId, client.id), eq(transactions.idempotencyKey, idempotencyKey)))
    .get();
  if (earlier) return { ok: true, transaction: null, transactionId: earlier.id, replayed: true, emailIds: [] };
  const profile = await db
    .select({ status: schema.profiles.status })
    .from(schema.profiles)
    .where(eq(schema.profiles.userId, client.id))
    .get();
  if (profile?.status !== "active") return { ok: false, error: SUSPENDED_MESSAGE };
  return { ok: false, error: refusal };
}

interface DepositRequest {
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
  const type = request.stock ? "stock_deposit" : "deposit";
  const { inserted, notice } = await writeTogether(db, {
    inserted: returning<FeedTransaction>(
      sql`INSERT INTO transactions (user_id, transaction_type, amount_cents, status, wallet_address, stock,
                                    idempotency_key, created_by, created_at)
          SELECT ${client.id}, ${type}, ${request.amountCents}, 'pending', ${request.walletAddress}, ${request.stock ?? null},
                 ${request.idempotencyKey}, ${client.id}, ${now}
          WHERE ${activeProfile(client.id)}
          ON CONFLICT (user_id, idempotency_key) DO NOTHING
          RETURNING ${FEED_RETURNING}`,
    ),
    notice: requestNotice(
      "deposit_request",
      env.ADMIN_MAILBOX,
      emailTemplates.deposit_request.parse({
        name: client.firstName || "User",
        clientEmail: client.email,
        amount: request.amountCents / 100,
        walletType: request.walletType,
        walletAddress: request.walletAddress,
        ...(request.stock ? { stock: request.stock } : {}),
      }),
      requestRow(client.id, request.idempotencyKey),
    ),
  });
  return settle(
    db,
    client,
    request.idempotencyKey,
    inserted[0],
    notice.map((n) => n.id),
    "Error creating deposit: please try again",
  );
}

interface WithdrawalRequest {
  amountCents: number;
  cryptoCurrency: string;
  address: string;
  idempotencyKey: string;
}

/**
 * The client's warning about a withdrawal to an address they were never paid to, with a link to cancel it: one
 * per request, written only when the address is new for this client. The request's id goes into the stored data
 * in the statement itself (it does not exist before the batch); the link is signed when the mail renders.
 */
function newAddressNotice(client: Requester, request: WithdrawalRequest, origin: string) {
  const data = emailTemplates.withdrawal_new_address.omit({ transactionId: true }).parse({
    name: client.firstName,
    amount: request.amountCents / 100,
    currency: request.cryptoCurrency,
    address: request.address,
    clientId: client.id,
    origin,
  });
  return returning<{ id: number }>(
    sql`INSERT INTO email_outbox (to_address, template, payload, dedupe_key)
        SELECT ${client.email.trim().toLowerCase()}, 'withdrawal_new_address',
               json_set(${JSON.stringify(data)}, '$.transactionId', t.id), 'withdrawal_new_address:tx:' || t.id
        FROM transactions t
        WHERE t.user_id = ${client.id} AND t.idempotency_key = ${request.idempotencyKey} AND t.status = 'pending'
          AND ${neverPaidTo(client.id, sql`t.withdrawal_wallet_address`, { id: sql`t.id`, status: sql`t.status` })}
        ON CONFLICT (dedupe_key) DO NOTHING
        RETURNING id`,
  );
}

/**
 * The client's receipt of a withdrawal request, with the request's reference: like the new-address warning,
 * the id goes into the stored data in the statement itself (the row is inserted by the same batch).
 */
function receiptNotice(client: Requester, payload: EmailData<"withdrawal_receipt">, idempotencyKey: string) {
  const data = emailTemplates.withdrawal_receipt.omit({ transactionId: true }).parse(payload);
  return requestNotice("withdrawal_receipt", client.email, data, requestRow(client.id, idempotencyKey));
}

/**
 * A notice about one request, its id put into the stored data by the statement itself (the row is inserted by
 * the same batch), so the mail can name the request by its reference. `data` is already validated.
 */
function requestNotice(
  template: "deposit_request" | "withdrawal_request" | "withdrawal_receipt",
  to: string,
  data: object,
  row: SQL,
) {
  return returning<{ id: number }>(
    sql`INSERT INTO email_outbox (to_address, template, payload, dedupe_key)
        SELECT ${to.trim().toLowerCase()}, ${template},
               json_set(${JSON.stringify(data)}, '$.transactionId', id), ${perRequest(template)}
        FROM ${row}
        ON CONFLICT (dedupe_key) DO NOTHING
        RETURNING id`,
  );
}

/**
 * A pending withdrawal, accepted by ONE statement only while the withdrawable balance (pending
 * withdrawals reserved) covers it, so parallel requests cannot overdraw. Its withdrawal_wallets row,
 * the admin notice, the client's receipt and, for an address new to this client, the warning with its
 * cancel link (pointing at `origin`) are in the same batch and follow the row or nothing.
 */
export async function requestWithdrawal(
  db: Db,
  env: AppEnv,
  client: Requester,
  request: WithdrawalRequest,
  origin: string,
  now = Date.now(),
): Promise<RequestOutcome> {
  const payload = {
    name: client.firstName || "User",
    amount: request.amountCents / 100,
    walletType: request.cryptoCurrency,
    walletAddress: request.address,
  };
  const { inserted, adminNotice, receipt, newAddress } = await writeTogether(db, {
    inserted: returning<FeedTransaction>(
      sql`INSERT INTO transactions (user_id, transaction_type, amount_cents, status, wallet_address,
                                    withdrawal_wallet_address, idempotency_key, created_by, created_at)
          SELECT ${client.id}, 'withdraw', ${request.amountCents}, 'pending',
                 coalesce((SELECT wallet_address FROM deposit_wallets ORDER BY id LIMIT 1), ''),
                 ${request.address}, ${request.idempotencyKey}, ${client.id}, ${now}
          WHERE ${activeProfile(client.id)} AND ${withdrawableSql(client.id)} >= ${request.amountCents}
          ON CONFLICT (user_id, idempotency_key) DO NOTHING
          RETURNING ${FEED_RETURNING}`,
    ),
    payoutAddress: sql`
      INSERT INTO withdrawal_wallets (user_id, transaction_id, wallet_address, crypto_currency, amount_cents, created_at)
      SELECT user_id, id, ${request.address}, ${request.cryptoCurrency}, amount_cents, ${now}
      FROM transactions t
      WHERE user_id = ${client.id} AND idempotency_key = ${request.idempotencyKey}
        AND NOT EXISTS (SELECT 1 FROM withdrawal_wallets w WHERE w.transaction_id = t.id)`,
    adminNotice: requestNotice(
      "withdrawal_request",
      env.ADMIN_MAILBOX,
      emailTemplates.withdrawal_request.parse({ ...payload, clientEmail: client.email }),
      requestRow(client.id, request.idempotencyKey),
    ),
    receipt: receiptNotice(client, payload, request.idempotencyKey),
    newAddress: newAddressNotice(client, request, env.SITE_URL ?? origin),
  });
  return settle(
    db,
    client,
    request.idempotencyKey,
    inserted[0],
    [...adminNotice, ...receipt, ...newAddress].map((n) => n.id),
    EXCEEDS_BALANCE_MESSAGE,
  );
}

/** A request submitted: its batch, then the notices delivered and the feeds told, in the background. */
async function submitted(
  context: CommandContext,
  client: Requester,
  pending: Promise<RequestOutcome>,
): Promise<Outcome<{ transactionId: number }>> {
  const result = await pending;
  if (!result.ok) return { ok: false, error: result.error, status: 409 };
  afterCommit(context, {
    emailIds: result.emailIds,
    events: result.transaction
      ? [{ userId: client.id, event: { type: "transaction.created", transaction: result.transaction } }]
      : [],
  });
  return { ok: true, transactionId: result.transactionId };
}

/**
 * The deposit forms' input (/deposit and /stocks/{symbol}/deposit), checked in the form's order: who may
 * ask, the amount, a wallet of the firm's, then the stock (for a stock deposit), then the form's key.
 */
async function readDepositForm(
  request: Request,
  context: CommandContext,
  checkStock?: (form: FormData) => Parsed<string>,
): Promise<Outcome<{ client: SessionUser; deposit: DepositRequest }> | ({ ok: false; status: number } & FormRefusal)> {
  const requester = moneyRequester(await getSessionUser(request, context));
  if (!requester.ok) return requester;
  const form = await readForm(request);
  const parsed = parseDepositForm(form, await listDepositWallets(context.db));
  if (!parsed.ok) return { ok: false, ...refusalOf(parsed), status: 400 };
  const stock = checkStock?.(form);
  if (stock && !stock.ok) return { ok: false, ...refusalOf(stock), status: 400 };
  const idempotencyKey = idempotencyKeyOf(form);
  if (!idempotencyKey) return { ok: false, error: MONEY_MESSAGES.formExpired, status: 400 };
  const { amountCents, wallet } = parsed.data;
  return {
    ok: true,
    client: requester.client,
    deposit: {
      amountCents,
      walletType: wallet.walletType,
      walletAddress: wallet.walletAddress,
      stock: stock?.ok ? stock.data : undefined,
      idempotencyKey,
    },
  };
}

/**
 * The deposit forms' command (/deposit and /stocks/{symbol}/deposit): the form read and checked, then the
 * request submitted. A refusal carries its status and, when it is about one field, that field's name.
 */
export async function submitDepositForm(
  request: Request,
  context: CommandContext,
  checkStock?: (form: FormData) => Parsed<string>,
): Promise<Outcome<{ transactionId: number }> | ({ ok: false; status: number } & FormRefusal)> {
  const input = await readDepositForm(request, context, checkStock);
  if (!input.ok) return input;
  return submitted(context, input.client, requestDeposit(context.db, context.env, input.client, input.deposit));
}

/**
 * The withdrawal form's command. `origin` is where the request came to: mail links use SITE_URL when it is
 * set, this otherwise (as the reset and confirmation links do).
 */
export function submitWithdrawal(
  context: CommandContext,
  client: Requester,
  request: WithdrawalRequest,
  origin: string,
) {
  return submitted(context, client, requestWithdrawal(context.db, context.env, client, request, origin));
}
