/**
 * The client's notification centre (docs/product.md, "Notifications"). Rows are written by the outbox insert of
 * the client's mail about the same event (migration 0025's trigger), never here: this module reads them a keyset
 * page at a time and marks them read, always within the signed-in client's own rows.
 */
import { and, asc, eq, inArray, isNull, lt } from "drizzle-orm";
import { describeNotification, type NotificationView } from "~/lib/notifications";
import type { CommandContext } from "../commands.server";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import {
  createdAtCursor,
  keysetPage,
  newestFirstReading,
  type PagePosition,
  parseCursor,
  readKeyset,
} from "../paging.server";
import { publishToClient } from "../realtime.server";

const { notifications } = schema;

export const NOTIFICATIONS_PAGE = 20;

/**
 * A notification is kept 13 months (395 days), read or not, as long as audit rows stay in D1; the mail it came
 * with stays in the mail archive, and the ledger keeps the event itself.
 */
export const NOTIFICATIONS_KEPT_MS = 395 * 24 * 60 * 60 * 1000;
/** Rows the cron looks at each run: 720,000 a day, more than a firm of a million clients writes. */
const PRUNE_BATCH = 500;

export const NOTIFICATION_MESSAGES = {
  markedRead: "Marked as read",
  allMarkedRead: "All notifications marked as read",
  notFound: "That notification was not found.",
} as const;

export interface NotificationRow extends NotificationView {
  id: number;
  createdAt: number;
  unread: boolean;
}

/** One page of the client's notifications, newest first; `after`/`before` are the URL's cursors. */
export async function notificationsPage(db: Db, userId: string, position: PagePosition<string>) {
  const parsed = { after: parseCursor(position.after ?? null), before: parseCursor(position.before ?? null) };
  const { cursor, order } = newestFirstReading(parsed);
  const mine = eq(notifications.userId, userId);
  const rows = await readKeyset(
    db.select().from(notifications).$dynamic(),
    notifications,
    mine,
    cursor,
    order,
    NOTIFICATIONS_PAGE + 1,
  );
  const page = keysetPage(rows, parsed, NOTIFICATIONS_PAGE, createdAtCursor);
  return {
    ...page,
    rows: page.rows.map(
      (row): NotificationRow => ({
        id: row.id,
        createdAt: row.createdAt,
        unread: row.readAt === null,
        ...describeNotification(row.kind, row.subject, row.data),
      }),
    ),
  };
}

/**
 * Marks one notification read, or all of the client's: one conditional statement, so another client's id or one
 * already read changes nothing. The client's other open pages hear of it and re-read the bell's count.
 */
export async function markNotificationsRead(
  context: CommandContext,
  userId: string,
  which: { id: number } | "all",
  now = Date.now(),
): Promise<{ ok: true; changed: number } | { ok: false; error: string; status: number }> {
  const changed = await context.db
    .update(notifications)
    .set({ readAt: now })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        which === "all" ? undefined : eq(notifications.id, which.id),
      ),
    )
    .returning({ id: notifications.id });
  if (which !== "all" && changed.length === 0) {
    // Already read is not an error; someone else's (or none) is not found, and nothing was written.
    const own = await context.db
      .select({ id: notifications.id })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.id, which.id)))
      .get();
    if (!own) return { ok: false, error: NOTIFICATION_MESSAGES.notFound, status: 404 };
  }
  if (changed.length > 0) publishToClient(context, userId, { type: "notifications.changed", userId });
  return { ok: true, changed: changed.length };
}

/**
 * Housekeeping for the cron: notifications older than `NOTIFICATIONS_KEPT_MS`. Only the oldest rows (by id, which
 * grows with time) are looked at, a bounded number each run: `created_at` alone has no index, and a full scan every
 * minute would read the whole table.
 */
export function pruneOldNotifications(db: Db, now = Date.now()) {
  const oldest = db
    .select({ id: notifications.id })
    .from(notifications)
    .orderBy(asc(notifications.id))
    .limit(PRUNE_BATCH);
  return db
    .delete(notifications)
    .where(and(inArray(notifications.id, oldest), lt(notifications.createdAt, now - NOTIFICATIONS_KEPT_MS)));
}
