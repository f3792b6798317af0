/**
 * The client's mail about a ledger entry the desk posted to their account, for the entry's own batch. Whatever
 * path posts it (an admin's direct entry, a second admin's approval of an entry proposal), the notice is this
 * one insert: written only when the entry it reports was inserted by this batch (same key, decider and time, so
 * a refused entry or a resubmitted form mails nothing), at most once per transaction (its dedupe key). The
 * entry's id and the client's first name go into the stored data in the statement itself.
 */
import { sql } from "drizzle-orm";
import type { LedgerEntry } from "~/lib/ledger";
import { returning } from "../db.server";
import { entryPostedData } from "../mail/templates/entry.server";

export function entryPostedNotice(userId: string, entry: LedgerEntry, decidedBy: string, now: number) {
  const data = entryPostedData.omit({ transactionId: true, name: true }).parse({
    entryType: entry.type,
    amount: entry.amountCents / 100,
    tradingPair: entry.type === "profit" || entry.type === "loss" ? entry.tradingPair : undefined,
    stock: entry.type === "stock_deposit" ? entry.stock : undefined,
    memo: entry.memo || undefined,
    postedAt: now,
  });
  return returning<{ id: number }>(
    sql`INSERT INTO email_outbox (to_address, template, payload, dedupe_key)
        SELECT u.email, 'entry_posted',
               json_set(${JSON.stringify(data)}, '$.transactionId', t.id, '$.name', coalesce(trim(p.first_name), '')),
               'entry_posted:tx:' || t.id
        FROM transactions t
        JOIN users u ON u.id = t.user_id
        LEFT JOIN profiles p ON p.user_id = t.user_id
        WHERE t.user_id = ${userId} AND t.idempotency_key = ${entry.idempotencyKey}
          AND t.decided_by = ${decidedBy} AND t.created_at = ${now}
        ON CONFLICT (dedupe_key) DO NOTHING
        RETURNING id`,
  );
}
