/**
 * The desk's close of a client's position as a proposal kind (docs/product.md, "Orders and positions"): the rule
 * a proposal and its approval both check (the position still open with the shares it had when proposed), and the
 * approval's statements, the sale of exactly those shares at the bid of the approval's moment. The sale is the
 * proposer's (their roles allow closing, a trigger checks); its audit row is the approver's.
 */
import { type SQL, sql } from "drizzle-orm";
import { proceedsOf } from "~/lib/money/orders";
import { rolesFor } from "~/lib/permissions";
import { DESK_CLOSE_MESSAGES } from "~/lib/schemas/orders";
import { approvable, markApproved, type Writes } from "../admin/proposal-records.server";
import type { Actor } from "../audit.server";
import type { Result } from "../commands.server";
import type { Db } from "../db.server";
import type { WorkerBindings } from "../env.server";
import type { Requester } from "../ledger/requests.server";
import { readQuote } from "../quotes/quotes.server";
import { saleKeyed, saleWrites } from "./sales.server";

/** The position is open, the client's, and holds exactly these shares. */
export const positionUnchanged = (userId: string, positionId: number, sharesE4: number): SQL =>
  sql`EXISTS (SELECT 1 FROM positions WHERE id = ${positionId} AND user_id = ${userId} AND status = 'open'
              AND open_shares_e4 = ${sharesE4})`;

/** The admin (the close's proposer) is active and still holds a role that may close positions. */
const mayClose = (adminId: string) =>
  sql`EXISTS (SELECT 1 FROM users u JOIN admin_roles r ON r.user_id = u.id
              WHERE u.id = ${adminId} AND u.deactivated_at IS NULL
                AND r.role IN (${sql.join(
                  rolesFor("closePositions").map((role) => sql`${role}`),
                  sql`, `,
                )}))`;

/** The client as their order notices name them. */
export async function requesterOf(db: Db, userId: string): Promise<Requester | null> {
  const row = await db.get<Requester>(
    sql`SELECT u.id, u.email, coalesce(p.first_name, '') AS firstName, coalesce(p.last_name, '') AS lastName
        FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = ${userId} AND p.role = 'user'`,
  );
  return row ?? null;
}

/** What an approval reads of a close proposal. */
export interface CloseProposal {
  id: number;
  userId: string | null;
  positionId: number | null;
  sharesE4: number | null;
  stock: string | null;
  note: string | null;
  proposedBy: string;
}

/** Why a close's approval wrote nothing once the proposal itself was approvable: the position moved on. */
export async function closeRefusal(db: Db, loaded: CloseProposal): Promise<string> {
  const proposer = await db.get<{ may: number }>(sql`SELECT ${mayClose(loaded.proposedBy)} AS may`);
  if (!proposer?.may) return DESK_CLOSE_MESSAGES.proposerMayNotClose;
  const open = await db.get<{ id: number }>(
    sql`SELECT id FROM positions WHERE id = ${loaded.positionId ?? 0} AND status = 'open'`,
  );
  return open ? DESK_CLOSE_MESSAGES.positionChanged : DESK_CLOSE_MESSAGES.positionGone;
}

/**
 * The approval's statements: the sale of the proposed shares of the proposed position at the current bid, while
 * the proposal is approvable and the position unchanged; the proposal approved only if that sale is
 * in the database, naming its result entry. Refused before the batch when the price is unavailable.
 */
export async function closeApprovalWrites(
  db: Db,
  loaded: CloseProposal,
  approver: Required<Actor>,
  now: number,
  bindings?: WorkerBindings,
): Promise<Result<{ writes: Writes }>> {
  const { userId, positionId, sharesE4, stock } = loaded;
  if (!userId || !positionId || !sharesE4 || !stock) return { ok: false, error: DESK_CLOSE_MESSAGES.positionGone };
  if (!bindings) return { ok: false, error: DESK_CLOSE_MESSAGES.priceUnavailable };
  const [client, read] = await Promise.all([requesterOf(db, userId), readQuote(bindings, stock, now)]);
  if (!client) return { ok: false, error: DESK_CLOSE_MESSAGES.positionGone };
  if (!read.ok) return { ok: false, error: DESK_CLOSE_MESSAGES.priceUnavailable };
  // The proposal's own key for its sale: one sale per proposal, whatever happens.
  const idempotencyKey = `proposal:${loaded.id}`;
  const order = {
    symbol: stock,
    sharesE4,
    proceedsCents: proceedsOf(sharesE4, read.quote.bidE4),
    idempotencyKey,
    positionId,
    reason: loaded.note ?? undefined,
  };
  // The sale is the proposer's: written only while they may still close (else the sale's role trigger would abort).
  const onlyIf = sql`${approvable(loaded.id, approver, now)} AND ${positionUnchanged(userId, positionId, sharesE4)}
    AND ${mayClose(loaded.proposedBy)}`;
  const sellers = { soldBy: loaded.proposedBy, actor: approver };
  const sale = saleKeyed(userId, idempotencyKey);
  const sold = sql`EXISTS (SELECT 1 FROM ${sale} AND sold_at = ${now} AND settled_at = ${now})`;
  return {
    ok: true,
    writes: {
      ...saleWrites(client, sellers, order, read.quote, now, onlyIf),
      approved: markApproved(loaded.id, approver, now, sold, sql`(SELECT transaction_id FROM ${sale})`),
    },
  };
}
