import { z } from "zod";
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from "~/lib/ledger";

/**
 * The realtime feeds' events, validated on both ends. They are hints: D1 stays the source of truth, and a
 * page that missed events catches up from it (by `since` id, or by reloading its data).
 */
export const feedTransactionSchema = z.object({
  id: z.number().int().positive(),
  userId: z.string(),
  transactionType: z.enum(TRANSACTION_TYPES),
  amountCents: z.number().int().positive(),
  status: z.enum(TRANSACTION_STATUSES),
  createdAt: z.number(),
  tradingPair: z.string().nullable(),
  stock: z.string().nullable(),
});
export type FeedTransaction = z.infer<typeof feedTransactionSchema>;

export const feedEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("transaction.created"), transaction: feedTransactionSchema }),
  z.object({ type: z.literal("transaction.updated"), transaction: feedTransactionSchema }),
  z.object({ type: z.literal("client.deleted"), userId: z.string() }),
]);
export type FeedEvent = z.infer<typeof feedEventSchema>;

/** Merges events into a list newest first: new rows on top, updated rows replaced in place, never twice. */
export function mergeTransactions<T extends { id: number }, U extends { id: number } = T>(
  rows: readonly T[],
  incoming: readonly U[],
): Array<T | U> {
  const known = new Set(rows.map((row) => row.id));
  const latest = new Map<number, U>();
  for (const row of incoming) latest.set(row.id, row);
  const fresh = [...latest.values()].filter((row) => !known.has(row.id)).sort((a, b) => b.id - a.id);
  return [...fresh, ...rows.map((row) => latest.get(row.id) ?? row)];
}
