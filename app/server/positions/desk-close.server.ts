/**
 * The desk closes a client's position from their page (docs/product.md, "Orders and positions"): all its open
 * shares, at the bid of the server's quote read now, as a sale of that one position whose result is a profit or
 * loss entry, as a client's own sale writes it. The value at that bid decides whether a second admin must approve
 * (the acts table's `positionClose`): under the threshold the close is done at once; from it, it is a proposal,
 * with a reason, and the approval closes the same shares at the bid of its own moment
 * (close-approval.server.ts).
 */
import { sql } from "drizzle-orm";
import { secondAdminFromCents } from "~/lib/acts";
import { formatCents } from "~/lib/format";
import { formatPrice, formatShares, positionSerial, proceedsOf } from "~/lib/money/orders";
import { describeProposal, PROPOSAL_LIFETIME_MS, PROPOSAL_MESSAGES } from "~/lib/proposals";
import { parseRowId } from "~/lib/row-id";
import { idempotencyKeyOf, MONEY_MESSAGES } from "~/lib/schemas/money";
import { DESK_CLOSE_MESSAGES } from "~/lib/schemas/orders";
import { parseReason } from "~/lib/schemas/reason";
import type { Checked, Granted } from "../acts.server";
import { PROPOSAL_KIND_RECORDS } from "../admin/proposal-kinds.server";
import { announceWrites, clientName, emailIdsOf, proposalChanged } from "../admin/proposals.server";
import { afterCommit, type CommandContext, type FormOutcome } from "../commands.server";
import { returning, writeTogether } from "../db.server";
import { readQuote } from "../quotes/quotes.server";
import type { SessionUser } from "../session.server";
import { requesterOf } from "./close-approval.server";
import { type Sale, sellShares } from "./sales.server";

const DAY_MS = 24 * 60 * 60 * 1000;

const signed = (cents: number) => `${cents >= 0 ? "+" : "−"}${formatCents(Math.abs(cents))}`;

export const DESK_CLOSE_DONE = {
  closed: (
    serial: string,
    sale: { symbol: string; sharesE4: number; priceE4: number; proceedsCents: number },
    resultCents: number,
  ) =>
    `Closed ${serial}: sold ${formatShares(sale.sharesE4)} ${sale.symbol} at ${formatPrice(sale.priceE4)} for ${formatCents(sale.proceedsCents)}, result ${signed(resultCents)}`,
};

interface OpenPosition {
  id: number;
  symbol: string;
  sharesE4: number;
}

/** What the Close form names, checked before any code is asked: a position to close, or the close it already made. */
export type CloseTarget =
  | { kind: "open"; position: OpenPosition; idempotencyKey: string }
  | { kind: "done"; message: string };

/** A refusal about the form's position, which the page shows in that position's Close dialog. */
const refusal = (positionId: number | null, error: string, status: number, field?: string) => ({
  ok: false as const,
  error,
  status,
  subject: String(positionId ?? ""),
  ...(field ? { field } : {}),
});

/**
 * The form's position, this client's and open, and its key. A key that already sold is the close it made, answered
 * again, when it names the same position; naming another, the form is spent. Nothing here spends a code.
 */
export async function closablePosition(
  context: CommandContext,
  userId: string,
  form: FormData,
): Promise<Checked<CloseTarget>> {
  const positionId = parseRowId(form.get("positionId"));
  const idempotencyKey = idempotencyKeyOf(form);
  if (!idempotencyKey) return refusal(positionId, MONEY_MESSAGES.formExpired, 400);
  const earlier = await context.db.get<Sale & { positionId: number; byDesk: number }>(
    sql`SELECT s.id, s.symbol, s.shares_e4 AS sharesE4, s.price_e4 AS priceE4, s.proceeds_cents AS proceedsCents,
               s.result_cents AS resultCents, s.sold_by <> s.user_id AS byDesk,
               (SELECT position_id FROM position_closes WHERE sale_id = s.id LIMIT 1) AS positionId
        FROM stock_sales s WHERE s.user_id = ${userId} AND s.idempotency_key = ${idempotencyKey}`,
  );
  if (earlier) {
    if (!earlier.byDesk || earlier.positionId !== positionId) {
      return refusal(positionId, MONEY_MESSAGES.formExpired, 409);
    }
    return { ok: true, data: { kind: "done", message: closedMessage(earlier.positionId, earlier) } };
  }
  if (positionId === null) return refusal(positionId, DESK_CLOSE_MESSAGES.positionGone, 409);
  const position = await context.db.get<OpenPosition>(
    sql`SELECT id, symbol, open_shares_e4 AS sharesE4 FROM positions
        WHERE id = ${positionId} AND user_id = ${userId} AND status = 'open'`,
  );
  if (!position) return refusal(positionId, DESK_CLOSE_MESSAGES.positionGone, 409);
  return { ok: true, data: { kind: "open", position, idempotencyKey } };
}

const closedMessage = (positionId: number, sale: Omit<Sale, "id" | "serial" | "costCents">) =>
  DESK_CLOSE_DONE.closed(positionSerial(positionId), sale, sale.resultCents);

/**
 * The admin's desk closes of this client in the last 24 hours that no second admin approved, as SQL: they count
 * with a new close towards the four-eyes threshold, so splitting a holding into closes does not pass under it.
 */
const recentClosesSql = (userId: string, adminId: string, now: number) =>
  sql`(SELECT coalesce(sum(proceeds_cents), 0) FROM stock_sales
       WHERE user_id = ${userId} AND sold_by = ${adminId} AND sold_at > ${now - DAY_MS}
         AND idempotency_key NOT LIKE 'proposal:%')`;

/**
 * The Close form of a position on the client page, once `closablePosition` found it and the code was given: a fresh
 * quote, then the close or, from the threshold (its value at the bid with the admin's other closes of this client
 * in 24 hours), its proposal, which needs a reason.
 */
export async function closePositionForm(
  context: CommandContext,
  admin: SessionUser,
  userId: string,
  form: FormData,
  target: CloseTarget,
  granted: Granted,
  now = Date.now(),
): Promise<FormOutcome> {
  if (target.kind === "done") return { ok: true, message: target.message };
  const { position, idempotencyKey } = target;
  const refuse = (error: string, status: number, field?: string) => refusal(position.id, error, status, field);
  const client = await requesterOf(context.db, userId);
  if (!client) return refuse(DESK_CLOSE_MESSAGES.positionGone, 409);
  const read = await readQuote(context.bindings, position.symbol, now);
  if (!read.ok) return refuse(DESK_CLOSE_MESSAGES.priceUnavailable, 503);
  const proceedsCents = proceedsOf(position.sharesE4, read.quote.bidE4);
  const recent = await context.db.get<{ cents: number }>(
    sql`SELECT ${recentClosesSql(userId, admin.id, now)} AS cents`,
  );
  const proposal = granted.secondAdmin(proceedsCents + Number(recent?.cents ?? 0));
  const reason = parseReason(form.get("reason"), proposal ? DESK_CLOSE_MESSAGES.reasonRequired : null);
  if (!reason.ok) return refuse(reason.error, 400, "reason");
  const actor = { id: admin.id, email: admin.email };
  if (proposal) {
    const facts = { ...position, userId, proceedsCents, reason: reason.text, idempotencyKey };
    const proposed = await proposeClose(context, actor, facts, now);
    return proposed.ok ? proposed : refuse(proposed.error, proposed.status);
  }
  const order = {
    symbol: position.symbol,
    sharesE4: position.sharesE4,
    proceedsCents,
    idempotencyKey,
    positionId: position.id,
    reason: reason.text,
  };
  // Checked again in the sale's statement: another close of this client by this admin in between counts too.
  const underThreshold = sql`${recentClosesSql(userId, admin.id, now)} + ${proceedsCents} <
    ${secondAdminFromCents(context.env.FOUR_EYES_THRESHOLD)}`;
  const sellers = { soldBy: admin.id, actor };
  const sold = await sellShares(context.db, client, sellers, order, read.quote, now, underThreshold);
  if (!sold.ok) {
    const open = await context.db.get<{ id: number }>(
      sql`SELECT id FROM positions WHERE id = ${position.id} AND status = 'open'`,
    );
    return refuse(open ? DESK_CLOSE_MESSAGES.closedMeanwhile : DESK_CLOSE_MESSAGES.positionGone, 409);
  }
  if (!sold.replayed) {
    const positions = { type: "positions.changed", userId } as const;
    afterCommit(context, {
      emailIds: sold.emailIds,
      events: [
        { userId, event: positions },
        ...(sold.entry ? [{ userId, event: { type: "transaction.created", transaction: sold.entry } as const }] : []),
      ],
      deskEvents: [positions],
    });
  }
  return { ok: true, message: closedMessage(position.id, sold.sale) };
}

/**
 * The close's proposal: the position and its open shares while both are still so, its value at the bid now, and
 * the reason; one waits per position (a unique index), and the form's key makes a resubmission the same proposal.
 */
async function proposeClose(
  context: CommandContext,
  actor: Required<{ id: string; email: string }>,
  p: OpenPosition & { userId: string; proceedsCents: number; reason: string; idempotencyKey: string },
  now: number,
): Promise<FormOutcome> {
  const { db } = context;
  const name = await clientName(db, p.userId);
  const mine = sql`p.kind = 'position_close' AND p.position_id = ${p.id}`;
  const { inserted, ...rest } = await writeTogether(db, {
    inserted: returning<{ id: number }>(
      sql`INSERT INTO proposals (kind, user_id, position_id, shares_e4, stock, amount_cents, note, idempotency_key,
                                 proposed_by, proposed_at, expires_at)
          SELECT 'position_close', ${p.userId}, ${p.id}, ${p.sharesE4}, ${p.symbol}, ${p.proceedsCents}, ${p.reason},
                 ${p.idempotencyKey}, ${actor.id}, ${now}, ${now + PROPOSAL_LIFETIME_MS}
          WHERE ${PROPOSAL_KIND_RECORDS.position_close.check(p.userId, p.id, p.sharesE4)}
          ON CONFLICT DO NOTHING
          RETURNING id`,
    ),
    ...announceWrites(
      actor,
      now,
      mine,
      describeProposal({
        kind: "position_close",
        transactionType: null,
        amountCents: p.proceedsCents,
        stock: p.symbol,
        positionId: p.id,
        sharesE4: p.sharesE4,
        clientName: name,
      }),
      p.reason,
    ),
  });
  if (inserted[0]) {
    proposalChanged(context, emailIdsOf(rest.waiting));
    return { ok: true, message: PROPOSAL_MESSAGES.awaiting };
  }
  const waiting = await db.get<{ proposedBy: string; key: string | null }>(
    sql`SELECT proposed_by AS proposedBy, idempotency_key AS key FROM proposals
        WHERE kind = 'position_close' AND position_id = ${p.id} AND status = 'pending'`,
  );
  // The same form again is the proposal it made; another close while one waits is refused.
  if (waiting?.proposedBy === actor.id && waiting.key === p.idempotencyKey) {
    return { ok: true, message: PROPOSAL_MESSAGES.awaiting };
  }
  if (waiting) return { ok: false, error: DESK_CLOSE_MESSAGES.closeWaiting, status: 409 };
  return { ok: false, error: DESK_CLOSE_MESSAGES.positionGone, status: 409 };
}
