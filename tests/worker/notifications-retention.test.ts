import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { NOTIFICATIONS_KEPT_MS } from "~/server/notifications/notifications.server";
import worker from "../../workers/app";
import { createUser, getPage, sessionCookieFor } from "../support/fixtures";
import { bellCount } from "../support/notifications";

/**
 * A notification is kept 13 months, read or not: the cron deletes older ones, and the client's list and bell show
 * what is left. Other clients' recent ones, and anything younger than the keeping time, stay.
 */
const DAY = 24 * 60 * 60 * 1000;

async function notify(userId: string, createdAt: number, readAt: number | null = null) {
  const { meta } = await env.DB.prepare(
    `INSERT INTO notifications (user_id, kind, subject, data, created_at, read_at)
     VALUES (?, 'security_notice', 'security:new_browser', '{"event":"new_browser","browser":"Firefox on Linux"}', ?, ?)`,
  )
    .bind(userId, createdAt, readAt)
    .run();
  return meta.last_row_id;
}

const keptIds = async (userId: string) =>
  (
    await env.DB.prepare("SELECT id FROM notifications WHERE user_id = ? ORDER BY id")
      .bind(userId)
      .all<{ id: number }>()
  ).results.map((row) => row.id);

async function runCron(scheduledTime: number) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("notifications past their keeping time", () => {
  it("are deleted by the cron, read or unread, and the list and the bell show the rest", async () => {
    const now = Date.now();
    const client = await createUser();
    const other = await createUser();
    await notify(client.id, now - NOTIFICATIONS_KEPT_MS - DAY);
    await notify(client.id, now - NOTIFICATIONS_KEPT_MS - 60_000, now - 300 * DAY);
    const justKept = await notify(client.id, now - NOTIFICATIONS_KEPT_MS + 60 * 60_000);
    const recent = await notify(client.id, now - DAY);
    await notify(other.id, now - 2 * NOTIFICATIONS_KEPT_MS);
    const othersRecent = await notify(other.id, now - 60_000, now);

    const cookie = await sessionCookieFor(client.id);
    expect(bellCount(await (await getPage("/notifications", cookie)).text())).toBe(3);

    await runCron(now);

    expect(await keptIds(client.id)).toEqual([justKept, recent]);
    expect(await keptIds(other.id)).toEqual([othersRecent]);
    const page = await (await getPage("/notifications", cookie)).text();
    expect(bellCount(page)).toBe(2);
    expect(page.match(/data-testid="notification"/g)).toHaveLength(2);

    // The next run finds nothing more to delete; a year later, the rest have aged out too.
    await runCron(now + 60_000);
    expect(await keptIds(client.id)).toEqual([justKept, recent]);
    await runCron(now + NOTIFICATIONS_KEPT_MS);
    expect(await keptIds(client.id)).toEqual([]);
    expect(await keptIds(other.id)).toEqual([]);
  });
});
