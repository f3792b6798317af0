import { env } from "cloudflare:workers";
import { postForm, TEST_PASSWORD } from "./fixtures";

/** A user's notifications, oldest first, as stored. */
export async function notificationsOf(userId: string) {
  const { results } = await env.DB.prepare(
    "SELECT id, kind, subject, data, dedupe_key AS dedupeKey, read_at AS readAt FROM notifications WHERE user_id = ? ORDER BY id",
  )
    .bind(userId)
    .all<{
      id: number;
      kind: string;
      subject: string;
      data: string;
      dedupeKey: string | null;
      readAt: number | null;
    }>();
  return results.map((row) => ({ ...row, data: JSON.parse(row.data) as Record<string, unknown> }));
}

/** The outbox rows of one template to one address. */
export async function mailsTo(email: string, template: string) {
  const { results } = await env.DB.prepare(
    "SELECT id, payload FROM email_outbox WHERE to_address = ? AND template = ? ORDER BY id",
  )
    .bind(email.toLowerCase(), template)
    .all<{ id: number; payload: string }>();
  return results;
}

/** The bell's number in a page's HTML: its link's name says it ("Notifications, 2 unread"), 0 when it says none. */
export function bellCount(html: string): number | null {
  const match = /aria-label="Notifications(?:, (\d+) unread)?"/.exec(html);
  if (!match) return null;
  return match[1] ? Number(match[1]) : 0;
}

/** Changes the signed-in person's password on /account (from the fixtures' password), as the form posts it. */
export const changePassword = (cookie: string, newPassword: string) =>
  postForm(
    "/account",
    { intent: "password", currentPassword: TEST_PASSWORD, newPassword, confirmPassword: newPassword },
    { cookie },
  );
