/**
 * Admin ledger entries: inserted approved, with the balance after it, the fixed admin wallet address and the
 * admin's reason (memo), then the audit row, the profile projection and the client's mail, in one batch. One statement refuses an entry on an admin's
 * account and a withdrawal or loss that would take the ledger balance below zero. The form's idempotency key
 * makes a resubmission one entry.
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { LedgerEntry, TransactionType } from "~/lib/ledger";
import { type AdminLimits, needsVerifiedClient } from "~/lib/money/constraints";
import { signedCents } from "~/lib/money/rules";
import type { FeedTransaction } from "~/lib/realtime";
import { ADMIN_MESSAGES, ENTRY_MESSAGES } from "~/lib/schemas/admin";
import { LEVEL_MONEY_MESSAGES } from "~/lib/verification-money";
import { ADMIN_ENTRY_WALLET } from "../../../db/enums";
import { type Actor, auditInsert } from "../audit.server";
import { afterCommit, type CommandContext, type Outcome, type Result } from "../commands.server";
import type { Db } from "../db.server";
import { returning, schema, writeTogether } from "../db.server";
import { coverSql, figureSql, refreshProfileProjection } from "../ledger/figures.server";
import { FEED_RETURNING } from "../ledger/reads.server";
import { isVerified, verifiedSql } from "../verification/levels.server";
import { approvalLimitBroken, withinApprovalLimitsSql } from "./approval-limits.server";
import { entryPostedNotice } from "./entry-notice.server";

const { transactions, profiles } = schema;

/** Entries are for clients only: never on an admin's account, one's own included. */
const isClient = (userId: string) => sql`EXISTS (SELECT 1 FROM profiles WHERE user_id = ${userId} AND role = 'user')`;

/** Who makes an entry: the admin who enters it, or for an approved proposal its proposer and the approver. */
interface EntryAuthors {
  createdBy: string;
  decidedBy: Required<Actor>;
}

/**
 * The statements of one admin ledger entry, for a batch: the approved row (refused on an admin's account and
 * when a withdrawal or loss would take the ledger balance below zero, and when `onlyIf` does not hold), its
 * audit row, the profile projection and the client's mail. Both the direct entry and a second admin's approval
 * of an entry proposal write exactly these.
 */
export function ledgerEntryWrites(
  authors: EntryAuthors,
  userId: string,
  entry: LedgerEntry,
  now: number,
  onlyIf: SQL = sql`1 = 1`,
) {
  const tradingPair = entry.type === "profit" || entry.type === "loss" ? (entry.tradingPair ?? null) : null;
  const stock = entry.type === "stock_deposit" ? (entry.stock ?? null) : null;
  const signed = signedCents(entry.type, entry.amountCents);
  const actor = authors.decidedBy;
  return {
    inserted: returning<FeedTransaction>(
      sql`INSERT INTO transactions (user_id, transaction_type, amount_cents, status, wallet_address, balance_after_cents,
                                    trading_pair, stock, idempotency_key, created_by, decided_by, decided_at, created_at,
                                    memo)
          SELECT ${userId}, ${entry.type}, ${entry.amountCents}, 'approved', ${ADMIN_ENTRY_WALLET},
                 ${figureSql("ledgerBalance", userId)} + ${signed}, ${tradingPair},
                 ${stock}, ${entry.idempotencyKey}, ${authors.createdBy}, ${actor.id}, ${now}, ${now},
                 ${entry.memo?.trim() || null}
          WHERE ${entryAllowed(userId, entry)} AND ${onlyIf}
          ON CONFLICT (user_id, idempotency_key) DO NOTHING
          RETURNING ${FEED_RETURNING}`,
    ),
    entryAudit: auditInsert({
      actor,
      action: "ledger.entry",
      target: sql`'transaction:' || id`,
      detail: sql`'client', user_id, 'type', transaction_type, 'amountCents', amount_cents,
                  'tradingPair', trading_pair, 'stock', stock, 'balanceAfterCents', balance_after_cents,
                  'memo', memo`,
      from: sql`transactions
          WHERE user_id = ${userId} AND idempotency_key = ${entry.idempotencyKey}
            AND NOT EXISTS (SELECT 1 FROM audit_log WHERE action = 'ledger.entry' AND target = 'transaction:' || transactions.id)`,
      at: now,
    }),
    projection: refreshProfileProjection(userId, now),
    clientNotice: entryPostedNotice(userId, entry, actor.id, now),
  };
}

/**
 * An entry's own rule: on a client's account, never taking the ledger balance below zero, and money paid out (a
 * withdrawal entry) only from a verified client's account, as for a client's own withdrawal.
 */
export function entryAllowed(userId: string, entry: Pick<LedgerEntry, "type" | "amountCents">): SQL {
  const paidOut = needsVerifiedClient(entry.type) ? sql` AND ${verifiedSql(userId)}` : sql``;
  return sql`${isClient(userId)} AND ${coverSql("entry", userId, entry)}${paidOut}`;
}

/**
 * Why an entry the statement refused was refused: the account is not a client's, a withdrawal from a client who is
 * not verified, or it would overdraw.
 */
export async function entryRefusal(db: Db, userId: string, type?: TransactionType | null): Promise<string> {
  const target = await db.select({ role: profiles.role }).from(profiles).where(eq(profiles.userId, userId)).get();
  if (!target) return ADMIN_MESSAGES.processingFailed;
  if (target.role !== "user") return ENTRY_MESSAGES.clientsOnly;
  if (type && needsVerifiedClient(type) && !(await isVerified(db, userId)))
    return LEVEL_MONEY_MESSAGES.entryNeedsVerifiedClient;
  return ENTRY_MESSAGES.wouldGoNegative;
}

/**
 * A ledger entry the admin posts alone: within their approval limits (checked in the insert itself) and not
 * already proposed under the same form key. Refused by the limits, it answers `heldBy`, the reason for the
 * proposal it becomes.
 */
export async function postLedgerEntry(
  db: Db,
  actor: Required<Actor>,
  userId: string,
  entry: LedgerEntry,
  limits: AdminLimits,
  now = Date.now(),
): Promise<Result<{ transactionId: number; transaction?: FeedTransaction; emailIds: number[] }> | HeldByLimit> {
  const notProposed = sql`NOT EXISTS (SELECT 1 FROM proposals WHERE proposed_by = ${actor.id}
                                      AND idempotency_key = ${entry.idempotencyKey})`;
  const withinLimits = withinApprovalLimitsSql(limits, actor.id, userId, entry.amountCents, now);
  const { inserted, clientNotice } = await writeTogether(
    db,
    ledgerEntryWrites(
      { createdBy: actor.id, decidedBy: actor },
      userId,
      entry,
      now,
      sql`${withinLimits} AND ${notProposed}`,
    ),
  );
  const row = inserted[0];
  if (row) return { ok: true, transactionId: row.id, transaction: row, emailIds: clientNotice.map((n) => n.id) };
  const earlier = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(and(eq(transactions.userId, userId), eq(transactions.idempotencyKey, entry.idempotencyKey)))
    .get();
  if (earlier) return { ok: true, transactionId: earlier.id, emailIds: [] };
  const heldBy = await approvalLimitBroken(db, limits, actor.id, userId, entry.amountCents, now);
  if (heldBy) return { ok: false, error: heldBy, heldBy };
  const proposed = await db.get<{ note: string | null }>(sql`SELECT limit_reason AS note FROM proposals
      WHERE proposed_by = ${actor.id} AND idempotency_key = ${entry.idempotencyKey}`);
  // The same form again after it became a proposal: it is that proposal, whatever the sums are now.
  if (proposed) return { ok: false, error: proposed.note ?? "", heldBy: proposed.note ?? "" };
  // Refused by the statement's own conditions: say which.
  return { ok: false, error: await entryRefusal(db, userId, entry.type) };
}

/** An act refused by the admin's approval limits: `heldBy` is why, for the proposal it becomes. */
export interface HeldByLimit {
  ok: false;
  error: string;
  heldBy: string;
}

/** The admin's ledger entry, then the client's mail goes out and their feed and the desk hear of it. */
export async function postEntry(
  context: CommandContext,
  actor: Required<Actor>,
  userId: string,
  entry: LedgerEntry,
): Promise<Outcome | (HeldByLimit & { status: number })> {
  const result = await postLedgerEntry(context.db, actor, userId, entry, context.env);
  if (!result.ok) return { ...result, status: 400 };
  if (result.transaction) {
    afterCommit(context, {
      emailIds: result.emailIds,
      events: [{ userId, event: { type: "transaction.created", transaction: result.transaction } }],
    });
  }
  return { ok: true };
}
