import { TRANSACTION_STATUSES, TRANSACTION_TYPES, type TransactionStatus, type TransactionType } from "~/lib/ledger";

/**
 * The realtime feeds' one contract, shared by the Durable Objects, the server that publishes and the browser
 * that listens: the transaction row an event carries, the events, their parser and the objects' RPC surface.
 * Events are hints: D1 stays the source of truth, and a page that missed events catches up from it (by
 * `since` id, or by reloading its data). The parser is hand-written rather than a zod schema: the browser
 * loads this on every dashboard, and zod would add about 86 KiB of gzip to it
 * (docs/decisions/0005-realtime-feeds.md).
 */
export interface FeedTransaction {
  id: number;
  userId: string;
  transactionType: TransactionType;
  amountCents: number;
  status: TransactionStatus;
  createdAt: number;
  tradingPair: string | null;
  stock: string | null;
}

/** The fields of a FeedTransaction, in order: the columns to select for one (see `feedTransactionColumns`). */
export const FEED_TRANSACTION_COLUMNS = [
  "id",
  "userId",
  "transactionType",
  "amountCents",
  "status",
  "createdAt",
  "tradingPair",
  "stock",
] as const satisfies ReadonlyArray<keyof FeedTransaction>;

type FeedTransactionColumn = (typeof FEED_TRANSACTION_COLUMNS)[number];

/**
 * Picks the FeedTransaction columns out of a table (drizzle's `schema.transactions`), for a select whose
 * rows are FeedTransactions: `db.select(feedTransactionColumns(schema.transactions))`.
 */
export function feedTransactionColumns<T extends Record<FeedTransactionColumn, unknown>>(
  table: T,
): Pick<T, FeedTransactionColumn> {
  return Object.fromEntries(FEED_TRANSACTION_COLUMNS.map((column) => [column, table[column]])) as Pick<
    T,
    FeedTransactionColumn
  >;
}

export type FeedEvent =
  | { type: "transaction.created" | "transaction.updated"; transaction: FeedTransaction }
  | { type: "client.deleted"; userId: string }
  /** Desk only: a proposal was made or decided, so the 'Awaiting second approval' card reloads. */
  | { type: "proposal.changed" }
  /** Desk only: a monitoring alert was written or decided, so the open-alerts count and queue reload. */
  | { type: "alerts.changed" }
  /** Desk only: an access-recovery request was sent, decided or cancelled, so its queue reloads. */
  | { type: "access_recovery.changed" }
  /**
   * A client's identity verification was sent for review or decided: the desk's count and queue reload, and so
   * does the client's own page when it is a decision.
   */
  | { type: "verification.changed"; userId: string }
  /** Desk only: a note was written on a client, so their open back-office page reloads its notes and flags. */
  | { type: "client.notes.changed"; userId: string }
  /** Client only: their notifications were marked read, so their other open pages re-read the bell's count. */
  | { type: "notifications.changed"; userId: string }
  /** Client only: a payment to their deposit address was seen, confirmed further, credited, held or dropped. */
  | { type: "chain_payments.changed"; userId: string }
  /** A client's position was opened, cancelled or sold from: their pages and their desk page reload it. */
  | { type: "positions.changed"; userId: string };

/**
 * What the feed Durable Objects (one ClientFeed per client, one AdminDesk) offer over RPC. The Worker's
 * bindings are typed by it, so the server needs no import of the objects' classes.
 */
export interface FeedHub extends Rpc.DurableObjectBranded {
  /** Sends one event to every connected socket whose session is alive; returns how many received it. */
  publish(event: FeedEvent): Promise<number>;
  /** Closes the sockets of one listener (suspended or deleted); returns how many. */
  disconnectListener(listenerId: string, reason?: string): number;
  /** Closes the sockets one session opened (signed out); returns how many. */
  disconnectSession(sessionId: string, reason?: string): number;
  listenerCount(): number;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
const isPositiveInteger = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;
const isNullableString = (value: unknown) => value === null || typeof value === "string";

export function parseFeedTransaction(value: unknown): FeedTransaction | null {
  if (!isRecord(value)) return null;
  const { id, userId, transactionType, amountCents, status, createdAt, tradingPair, stock } = value;
  if (
    !isPositiveInteger(id) ||
    typeof userId !== "string" ||
    !TRANSACTION_TYPES.includes(transactionType as TransactionType) ||
    !isPositiveInteger(amountCents) ||
    !TRANSACTION_STATUSES.includes(status as TransactionStatus) ||
    typeof createdAt !== "number" ||
    !isNullableString(tradingPair) ||
    !isNullableString(stock)
  ) {
    return null;
  }
  return {
    id,
    userId,
    transactionType: transactionType as TransactionType,
    amountCents,
    status: status as TransactionStatus,
    createdAt,
    tradingPair: tradingPair as string | null,
    stock: stock as string | null,
  };
}

/** The event, checked and stripped to its known fields, or null for anything else. */
export function parseFeedEvent(value: unknown): FeedEvent | null {
  if (!isRecord(value)) return null;
  if (value.type === "proposal.changed" || value.type === "alerts.changed" || value.type === "access_recovery.changed")
    return { type: value.type };
  if (
    value.type === "client.deleted" ||
    value.type === "verification.changed" ||
    value.type === "client.notes.changed" ||
    value.type === "notifications.changed" ||
    value.type === "chain_payments.changed" ||
    value.type === "positions.changed"
  )
    return typeof value.userId === "string" ? { type: value.type, userId: value.userId } : null;
  if (value.type !== "transaction.created" && value.type !== "transaction.updated") return null;
  const transaction = parseFeedTransaction(value.transaction);
  return transaction ? { type: value.type, transaction } : null;
}

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
