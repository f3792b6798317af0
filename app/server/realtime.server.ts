import { eq } from "drizzle-orm";
import { type FeedEvent, type FeedTransaction, parseFeedEvent } from "~/lib/realtime";
import type { Db } from "./db.server";
import { schema } from "./db.server";
import type { WorkerBindings } from "./env.server";

/**
 * Publishing to the realtime feeds, after a write has committed. D1 is the truth and the socket only a
 * hint, so publishing runs in `waitUntil` and a failure is logged, never returned to the writer.
 */
interface RealtimeContext {
  db: Db;
  bindings: WorkerBindings;
  ctx: ExecutionContext;
}

export const ADMIN_DESK_NAME = "desk";

const clientFeed = (bindings: WorkerBindings, userId: string) =>
  bindings.CLIENT_FEED.get(bindings.CLIENT_FEED.idFromName(userId));
const adminDesk = (bindings: WorkerBindings) =>
  bindings.ADMIN_DESK.get(bindings.ADMIN_DESK.idFromName(ADMIN_DESK_NAME));

export async function readFeedTransaction(db: Db, id: number): Promise<FeedTransaction | null> {
  const t = schema.transactions;
  const row = await db
    .select({
      id: t.id,
      userId: t.userId,
      transactionType: t.transactionType,
      amountCents: t.amountCents,
      status: t.status,
      createdAt: t.createdAt,
      tradingPair: t.tradingPair,
      stock: t.stock,
    })
    .from(t)
    .where(eq(t.id, id))
    .get();
  return row ?? null;
}

function inBackground(context: RealtimeContext, label: string, work: () => Promise<unknown>) {
  context.ctx.waitUntil(
    work().catch((error) => {
      console.error(`realtime: ${label} failed (the write stands; pages catch up from D1)`, error);
    }),
  );
}

/** Sends one event to a client's feed and to the admin desk. */
export function publish(context: RealtimeContext, userId: string, event: FeedEvent) {
  inBackground(context, event.type, async () => {
    const checked = parseFeedEvent(event);
    if (!checked) throw new Error(`refusing to publish a malformed ${event.type} event`);
    await Promise.all([
      clientFeed(context.bindings, userId).publish(checked),
      adminDesk(context.bindings).publish(checked),
    ]);
  });
}

/** Publishes a transaction as it now stands in D1 (created or decided). */
export function publishTransaction(
  context: RealtimeContext,
  transactionId: number,
  type: "transaction.created" | "transaction.updated",
) {
  inBackground(context, type, async () => {
    const transaction = await readFeedTransaction(context.db, transactionId);
    if (!transaction) return;
    const event = parseFeedEvent({ type, transaction });
    if (!event) throw new Error(`transaction ${transactionId} does not make a valid ${type} event`);
    await Promise.all([
      clientFeed(context.bindings, transaction.userId).publish(event),
      adminDesk(context.bindings).publish(event),
    ]);
  });
}

/** Closes a user's sockets (sign-out, suspension, deletion) on their own feed and on the desk. */
export function disconnectUser(context: RealtimeContext, userId: string) {
  inBackground(context, "disconnect", async () => {
    await Promise.all([
      clientFeed(context.bindings, userId).disconnectListener(userId),
      adminDesk(context.bindings).disconnectListener(userId),
    ]);
  });
}
