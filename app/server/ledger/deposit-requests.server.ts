/**
 * A client's deposit and stock deposit requests (docs/product.md, "Client requests", "Identity verification"):
 * the pending row and the admin's notice in one batch, inserted only while the profile is active and, for a
 * client who is not verified, while their deposits stay within UNVERIFIED_DEPOSIT_LIMIT. A Restricted client
 * (unverified past the deadline) asks for none.
 */
import { sql } from "drizzle-orm";
import { CHAIN_DEPOSIT_TEXTS } from "~/lib/chain/deposit-texts";
import { type FormRefusal, type Parsed, refusalOf } from "~/lib/forms";
import type { FeedTransaction } from "~/lib/realtime";
import { idempotencyKeyOf, MONEY_MESSAGES, parseDepositForm } from "~/lib/schemas/money";
import { VERIFICATION_MESSAGES } from "~/lib/verification";
import { LEVEL_MONEY_MESSAGES } from "~/lib/verification-money";
import { runAct } from "../acts.server";
import { depositWalletsOf } from "../chain/deposit-page.server";
import type { CommandContext, Outcome } from "../commands.server";
import type { Db } from "../db.server";
import { returning, writeTogether } from "../db.server";
import type { AppEnv } from "../env.server";
import { readForm } from "../form.server";
import { emailTemplates } from "../mail/templates.server";
import { getSessionUser, type SessionUser } from "../session.server";
import { depositRemainingCents, depositWithinLevelSql, readClientLevel } from "../verification/levels.server";
import { FEED_RETURNING } from "./reads.server";
import {
  activeProfile,
  deskName,
  moneyRequester,
  type Requester,
  type RequestOutcome,
  requestNotice,
  requestRow,
  settle,
  submitted,
} from "./requests.server";

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
          WHERE ${activeProfile(client.id)} AND ${depositWithinLevelSql(env, client.id, request.amountCents)}
          ON CONFLICT (user_id, idempotency_key) DO NOTHING
          RETURNING ${FEED_RETURNING}`,
    ),
    notice: requestNotice(
      "deposit_request",
      env.ADMIN_MAILBOX,
      emailTemplates.deposit_request.parse({
        name: deskName(client),
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
    async () => {
      const remaining = await depositRemainingCents(db, env, client.id);
      // Only the level's limit can refuse an active client's deposit; the generic words stay for the unforeseen.
      return remaining < request.amountCents
        ? LEVEL_MONEY_MESSAGES.depositLimit(env.UNVERIFIED_DEPOSIT_LIMIT * 100, remaining)
        : "Error creating deposit: please try again";
    },
  );
}

/**
 * The deposit forms' input (/deposit and /stocks/{symbol}/deposit), checked in the form's order: who may
 * ask, their level (a Restricted client is refused before anything is read), the amount, a wallet of the
 * firm's, then the stock (for a stock deposit), then the form's key.
 */
export async function readDepositForm(
  request: Request,
  context: CommandContext,
  checkStock?: (form: FormData) => Parsed<string>,
): Promise<Outcome<{ client: SessionUser; deposit: DepositRequest }> | ({ ok: false; status: number } & FormRefusal)> {
  const requester = moneyRequester(await getSessionUser(request, context));
  if (!requester.ok) return requester;
  const { level } = await readClientLevel(context.db, context.env, requester.client.id);
  if (level === "restricted") return { ok: false, error: VERIFICATION_MESSAGES.restricted, status: 403 };
  const form = await readForm(request);
  const { watched, claims } = await depositWalletsOf(context);
  const named = watched.find((wallet) => wallet.walletType === form.get("walletType"));
  if (named) return { ok: false, error: CHAIN_DEPOSIT_TEXTS.noClaimForWatched(named.walletType), status: 400 };
  const parsed = parseDepositForm(form, claims);
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

/** The deposit forms' command: the request submitted for the client the form was read for (the acts table's row). */
export async function submitDeposit(context: CommandContext, client: SessionUser, deposit: DepositRequest) {
  const asked = await runAct(context, client, "depositRequest", {
    run: () => submitted(context, client, requestDeposit(context.db, context.env, client, deposit)),
  });
  return "answer" in asked ? asked.answer : { ...asked.refused, status: asked.refused.status ?? 400 };
}
