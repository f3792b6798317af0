import { type FeedEvent, parseFeedEvent } from "~/lib/realtime";
import type { WorkerBindings } from "./env.server";

/**
 * Publishing to the realtime feeds, after a write has committed (through `afterCommit`). D1 is the truth
 * and the socket only a hint, so publishing runs in `waitUntil` and a failure is logged, never returned to
 * the writer. The events carry the rows the write returned: nothing is read again to publish.
 */
interface RealtimeContext {
  bindings: WorkerBindings;
  ctx: ExecutionContext;
}

export const ADMIN_DESK_NAME = "desk";

const clientFeed = (bindings: WorkerBindings, userId: string) =>
  bindings.CLIENT_FEED.get(bindings.CLIENT_FEED.idFromName(userId));
const adminDesk = (bindings: WorkerBindings) =>
  bindings.ADMIN_DESK.get(bindings.ADMIN_DESK.idFromName(ADMIN_DESK_NAME));

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

/** Sends one event to a client's own feed only (news of theirs the desk has no use for: notifications read). */
export function publishToClient(context: RealtimeContext, userId: string, event: FeedEvent) {
  inBackground(context, event.type, async () => {
    const checked = parseFeedEvent(event);
    if (!checked) throw new Error(`refusing to publish a malformed ${event.type} event`);
    await clientFeed(context.bindings, userId).publish(checked);
  });
}

/** Sends one event to the admin desk only (news for admins, none of a client's business). */
export function publishToDesk(context: RealtimeContext, event: FeedEvent) {
  inBackground(context, event.type, async () => {
    const checked = parseFeedEvent(event);
    if (!checked) throw new Error(`refusing to publish a malformed ${event.type} event`);
    await adminDesk(context.bindings).publish(checked);
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

/**
 * Closes the sockets one session opened, on the user's own feed and on the desk: a sign-out on one device leaves
 * the user's other devices live. Its sockets on other feeds (an admin's on a client's page) close at the next
 * event, when the feed finds the session gone.
 */
export function disconnectSession(context: RealtimeContext, userId: string, sessionId: string) {
  inBackground(context, "disconnect session", async () => {
    await Promise.all([
      clientFeed(context.bindings, userId).disconnectSession(sessionId),
      adminDesk(context.bindings).disconnectSession(sessionId),
    ]);
  });
}
