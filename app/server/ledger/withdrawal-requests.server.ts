/**
 * A client's withdrawal request (docs/product.md, "Client requests", "Identity verification"): only a verified
 * client asks for one, within the withdrawable balance and the rolling 24-hour and 30-day limits, all checked by
 * the insert itself.
 */
import { sql } from "drizzle-orm";
import { type FormRefusal, refusalOf } from "~/lib/forms";
import { coverHolds } from "~/lib/money/constraints";
import type { FeedTransaction } from "~/lib/realtime";
import { idempotencyKeyOf, MONEY_MESSAGES, parseWithdrawalForm } from "~/lib/schemas/money";
import { VERIFICATION_MESSAGES } from "~/lib/verification";
import { LEVEL_MONEY_MESSAGES } from "~/lib/verification-money";
import { runAct } from "../acts.server";
import { chainSettings } from "../chain/settings.server";
import type { CommandContext, Outcome } from "../commands.server";
import type { Db } from "../db.server";
import { returning, writeTogether } from "../db.server";
import type { AppEnv } from "../env.server";
import { readForm } from "../form.server";
import { type EmailData, emailTemplates } from "../mail/templates.server";
import { getSessionUser, type SessionUser } from "../session.server";
import { readClientLevel, withdrawalRemaining, withdrawalWithinLevelSql } from "../verification/levels.server";
import { coverSql, ledgerTotals, openPositionsCostCents, withdrawableCents } from "./figures.server";
import { neverPaidTo } from "./payout-address.server";
import { FEED_RETURNING } from "./reads.server";
import {
  activeProfile,
  deskName,
  EXCEEDS_BALANCE_MESSAGE,
  moneyRequester,
  type Requester,
  type RequestOutcome,
  requestNotice,
  requestRow,
  settle,
  submitted,
} from "./requests.server";

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
 * A pending withdrawal, accepted by ONE statement only while the client is verified, the withdrawable balance
 * (pending withdrawals reserved) covers it and it fits both rolling withdrawal limits, so parallel requests can
 * neither overdraw nor pass a limit together. Its withdrawal_wallets row,
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
          WHERE ${activeProfile(client.id)}
            AND ${coverSql("withdrawalRequest", client.id, { type: "withdraw", amountCents: request.amountCents })}
            AND ${withdrawalWithinLevelSql(env, client.id, request.amountCents, now)}
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
      // The desk's notice names the client in full, as the desk's pages do; the client's receipt greets them.
      emailTemplates.withdrawal_request.parse({ ...payload, name: deskName(client), clientEmail: client.email }),
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
    () => withdrawalRefusal(db, env, client.id, request.amountCents, now),
  );
}

/** Which of the statement's conditions refused an active client's withdrawal, in the form's order. */
async function withdrawalRefusal(db: Db, env: AppEnv, userId: string, amountCents: number, now: number) {
  if ((await readClientLevel(db, env, userId, now)).level !== "verified") {
    return VERIFICATION_MESSAGES.verifyBeforeWithdrawing;
  }
  const move = { type: "withdraw", amountCents } as const;
  const reserved = await openPositionsCostCents(db, userId);
  if (!coverHolds("withdrawalRequest", await ledgerTotals(db, userId), move, reserved)) return EXCEEDS_BALANCE_MESSAGE;
  const remaining = await withdrawalRemaining(db, env, userId, now);
  const window = remaining.day.remainingCents < amountCents ? "day" : "month";
  return LEVEL_MONEY_MESSAGES.withdrawalLimit(window, remaining[window].limitCents, remaining[window].remainingCents);
}

/**
 * Whether this client may ask for a withdrawal at all: only once verified. Checked before the form is read (and
 * again by the insert), so an unverified client is told at once, with the way to verify, and no code is asked.
 */
export async function mayRequestWithdrawal(db: Db, env: AppEnv, userId: string, now = Date.now()): Promise<Outcome> {
  const { level } = await readClientLevel(db, env, userId, now);
  if (level === "verified") return { ok: true };
  return { ok: false, error: VERIFICATION_MESSAGES.verifyBeforeWithdrawing, status: 403 };
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

/**
 * The withdrawal form's input, checked in the form's order: who may ask, their level (an unverified client could
 * never send this form, so no code is asked of them), a fresh second factor (without it only the code prompt
 * answers, before anything else is read), the fields against what may still be withdrawn, then the form's key.
 */
export async function readWithdrawalForm(
  request: Request,
  context: CommandContext,
): Promise<
  { ok: true; client: SessionUser; withdrawal: WithdrawalRequest } | ({ ok: false; status: number } & FormRefusal)
> {
  const requester = moneyRequester(await getSessionUser(request, context));
  if (!requester.ok) return requester;
  const { client } = requester;
  const verified = await mayRequestWithdrawal(context.db, context.env, client.id);
  if (!verified.ok) return verified;
  const form = await readForm(request);
  // The acts runner asks for the fresh code (the acts table's `withdrawal`) before the fields are read.
  const asked = await runAct(context, client, "withdrawal", {
    form,
    run: async () => {
      const parsed = parseWithdrawalForm(form, {
        withdrawableCents: await withdrawableCents(context.db, client.id),
        bitcoinNetwork: chainSettings(context.bindings).bitcoin.network,
      });
      if (!parsed.ok) return { ok: false as const, ...refusalOf(parsed), status: 400 };
      const idempotencyKey = idempotencyKeyOf(form);
      if (!idempotencyKey) return { ok: false as const, error: MONEY_MESSAGES.formExpired, status: 400 };
      // The balance check above is for the message; the insert itself re-checks, atomically.
      return { ok: true as const, client, withdrawal: { ...parsed.data, idempotencyKey } };
    },
  });
  if ("answer" in asked) return asked.answer;
  return { ok: false, ...refusalOf(asked.refused), status: asked.refused.status ?? 400 };
}
