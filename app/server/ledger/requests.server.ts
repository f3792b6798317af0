/**
 * Client requests: deposits, stock deposits and withdrawals (deposit-requests.server.ts,
 * withdrawal-requests.server.ts). Each is one atomic batch whose first statement inserts the pending row only
 * while its conditions hold (an active profile; the client's verification level and its limits; for a
 * withdrawal, enough withdrawable money), with the notices that follow the row or nothing. A form's idempotency
 * key makes a double click or a retried request one row. Here: what both kinds share.
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import { displayName } from "~/lib/person-name";
import type { FeedTransaction } from "~/lib/realtime";
import { MONEY_MESSAGES } from "~/lib/schemas/money";
import { afterCommit, type CommandContext, type Outcome, type Result } from "../commands.server";
import type { Db } from "../db.server";
import { returning, schema } from "../db.server";
import type { SessionUser } from "../session.server";

const { transactions } = schema;

export const SUSPENDED_MESSAGE = "Your account is suspended. Please contact support.";
export const EXCEEDS_BALANCE_MESSAGE = MONEY_MESSAGES.exceedsBalance;

export interface Requester {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** How the desk's notice of a request names its client: in full, as the desk's pages do. */
export const deskName = (client: Requester) => displayName(client.firstName, client.lastName, client.email);

/** A request's batch: the row it created (null when the key was used before), and the notices it enqueued. */
export type RequestOutcome = Result<{
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

export const activeProfile = (userId: string) =>
  sql`EXISTS (SELECT 1 FROM profiles WHERE user_id = ${userId} AND status = 'active')`;

/** The rows a notice about this request is written for: the request's own row, whenever it was created. */
export const requestRow = (userId: string, idempotencyKey: string) =>
  sql`transactions WHERE user_id = ${userId} AND idempotency_key = ${idempotencyKey}`;

/** One notice per request row and template, whatever the retries. */
const perRequest = (template: string) => sql`${`${template}:tx:`} || id`;

/**
 * What the batch did when it returned no new row: the same key was used before (a replay or a parallel
 * double click), or the statement's own conditions refused it; `refusal` then says which condition, and runs
 * only on that path.
 */
export async function settle(
  db: Db,
  client: Requester,
  idempotencyKey: string,
  created: FeedTransaction | undefined,
  emailIds: number[],
  refusal: () => Promise<string>,
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
  return { ok: false, error: await refusal() };
}

/**
 * A notice about one request, its id put into the stored data by the statement itself (the row is inserted by
 * the same batch), so the mail can name the request by its reference. `data` is already validated.
 */
export function requestNotice(
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
 * A request submitted: its batch, then the notices delivered, the feeds told and the monitoring rules run, in the
 * background.
 */
export async function submitted(
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
    // A replay wrote nothing new: its request was judged when it was made.
    monitorTransactionId: result.transaction ? result.transactionId : undefined,
  });
  return { ok: true, transactionId: result.transactionId };
}
