/**
 * Option (a)'s desk read: the newest 50 transactions over every client and the pending count, on one database and
 * fanned out over the 16 shards (each shard asked the same, the lists merged by their key, the counts added).
 */
import { READ_MODEL_SCHEMA } from "./read-model.ts";

const NEWEST =
  "SELECT client_id, id, created_at FROM transactions ORDER BY created_at DESC, client_id DESC, id DESC LIMIT 50";
const PENDING = "SELECT count(*) AS n FROM transactions WHERE status = 'pending'";

export interface DeskRead {
  newest: { client_id: string; id: number; created_at: number }[];
  pending: number;
}

async function readOne(db: D1Database): Promise<DeskRead> {
  const [newest, pending] = await db.batch([db.prepare(NEWEST), db.prepare(PENDING)]);
  return {
    newest: (newest?.results ?? []) as DeskRead["newest"],
    pending: Number((pending?.results[0] as { n: number } | undefined)?.n ?? 0),
  };
}

export const deskOnOne = readOne;

export async function deskFannedOut(databases: D1Database[]): Promise<DeskRead> {
  const parts = await Promise.all(databases.map(readOne));
  const newest = parts
    .flatMap((part) => part.newest)
    .sort((a, b) => b.created_at - a.created_at || b.client_id.localeCompare(a.client_id) || b.id - a.id)
    .slice(0, 50);
  return { newest, pending: parts.reduce((sum, part) => sum + part.pending, 0) };
}

/**
 * The same rows on one database and on the shards: row `i` belongs to client `i % clients`, which lives on shard
 * `client % shards`. Rows are made by SQL on each database, so seeding sends no rows over the binding.
 */
export async function seedDesk(one: D1Database, shards: D1Database[], rows: number, clients: number): Promise<void> {
  const seed = (db: D1Database, shard: number | null) =>
    db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?1)
         INSERT INTO transactions (client_id, id, version, type, status, amount_cents, created_at, written_at, pushed_at)
         SELECT 'c' || (i % ?2), i, 1, CASE WHEN i % 3 = 0 THEN 'withdraw' ELSE 'deposit' END,
           CASE WHEN i % 11 = 0 THEN 'pending' ELSE 'approved' END, 100 + (i * 7919) % 100000,
           1700000000000 + i * 60000 + (i * 104729) % 50000, 0, 0
         FROM n WHERE ?3 IS NULL OR (i % ?2) % ?4 = ?3`,
      )
      .bind(rows, clients, shard, shards.length)
      .run();
  await Promise.all([seed(one, null), ...shards.map((db, shard) => seed(db, shard))]);
}

export async function createSchema(databases: D1Database[]): Promise<void> {
  await Promise.all(databases.map((db) => db.batch(READ_MODEL_SCHEMA.map((sql) => db.prepare(sql)))));
}
