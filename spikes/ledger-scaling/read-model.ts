/**
 * The back office's read model in D1: one row per ledger row of every client, written only by the client objects'
 * outbox pushes. The same table, seeded instead, is option (a)'s desk table on one database and on the 16 shards.
 */
export const READ_MODEL_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS transactions (
    client_id TEXT NOT NULL,
    id INTEGER NOT NULL,
    version INTEGER NOT NULL,
    type TEXT NOT NULL,
    status TEXT NOT NULL,
    amount_cents INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    written_at INTEGER NOT NULL,
    pushed_at INTEGER NOT NULL,
    PRIMARY KEY (client_id, id)
  ) WITHOUT ROWID`,
  // The desk's two reads: the newest rows over every client, and the pending count.
  "CREATE INDEX IF NOT EXISTS transactions_recent_idx ON transactions (created_at, client_id, id)",
  "CREATE INDEX IF NOT EXISTS transactions_status_idx ON transactions (status, created_at)",
];

/** A ledger row's state as its outbox event carries it; `version` is the event's sequence in the client object. */
export interface LedgerEvent {
  clientId: string;
  id: number;
  version: number;
  type: "deposit" | "withdraw";
  status: "pending" | "approved" | "rejected";
  amountCents: number;
  createdAt: number;
  writtenAt: number;
}

/**
 * Applies events idempotently and in order: a row is replaced only by a later version of itself, so a push
 * repeated after a crash, or two pushes overlapping, leave the same row.
 */
export function applyEvents(db: D1Database, events: LedgerEvent[], pushedAt: number): Promise<D1Result[]> {
  const upsert = db.prepare(
    `INSERT INTO transactions (client_id, id, version, type, status, amount_cents, created_at, written_at, pushed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (client_id, id) DO UPDATE SET version = excluded.version, status = excluded.status,
       written_at = excluded.written_at, pushed_at = excluded.pushed_at
     WHERE excluded.version > transactions.version`,
  );
  return db.batch(
    events.map((event) =>
      upsert.bind(
        event.clientId,
        event.id,
        event.version,
        event.type,
        event.status,
        event.amountCents,
        event.createdAt,
        event.writtenAt,
        pushedAt,
      ),
    ),
  );
}
