/**
 * The verification deadline's mails, sent by the scheduled handler (docs/product.md, "Identity verification",
 * "Deadline"): a reminder when 7 days are left and when 1 day is left, and a notice once the deadline has passed
 * unverified (the account is then Restricted). Each goes once per client: the outbox's dedupe key names the mail
 * and the client, so a run every minute, a retried run or a late one adds nothing twice.
 */
import { type SQL, sql } from "drizzle-orm";
import { VERIFICATION_DEADLINE_DAYS } from "~/lib/verification";
import { VERIFICATION_PATH } from "~/lib/verification-money";
import type { Db } from "../db.server";
import { returning, writeTogether } from "../db.server";
import type { AppEnv } from "../env.server";
import { emailTemplates } from "../mail/templates.server";
import { verifiedSql } from "./levels.server";

const DAY_MS = 24 * 60 * 60 * 1000;
const DEADLINE_MS = VERIFICATION_DEADLINE_DAYS * DAY_MS;
/** A restriction notice is still sent this long after the deadline (a cron that was down), never later. */
const RESTRICTED_NOTICE_GRACE_MS = 7 * DAY_MS;

/**
 * When the client's 14 days begin, as SQL over `users u`: their registration, or the day verification began
 * (`introducedAt`, the VERIFICATION_INTRODUCED_AT setting) for an account that existed before
 * (`verificationDueAt` in app/lib/verification.ts, less the 14 days).
 */
const deadlineStart = (introducedAt: number) => sql`max(u.created_at, ${introducedAt})`;

/**
 * Clients whose deadline falls in (`from`, `to`], unverified, with a profile (a deleted client's data is gone).
 * The registration bound is written on `created_at` itself so the scan uses the users' (role, created_at) index.
 */
function dueBetween(from: number, to: number, introducedAt: number): SQL {
  const startFrom = from - DEADLINE_MS;
  const startTo = to - DEADLINE_MS;
  const olderAccounts = introducedAt > startFrom && introducedAt <= startTo;
  return sql`users u JOIN profiles p ON p.user_id = u.id
    WHERE u.role = 'user'
      AND ((u.created_at > ${startFrom} AND u.created_at <= ${startTo} AND u.created_at >= ${introducedAt})
           ${olderAccounts ? sql`OR u.created_at < ${introducedAt}` : sql``})
      AND NOT ${verifiedSql(sql`u.id`)}`;
}

function reminder(daysLeft: 7 | 1, now: number, url: string | undefined, introducedAt: number) {
  // Due in exactly `daysLeft` days (rounded up, as the dashboard counts them): the mail never names a wrong count.
  const from = now + (daysLeft - 1) * DAY_MS;
  const to = now + daysLeft * DAY_MS;
  const data = emailTemplates.verification_reminder
    .omit({ name: true, dueAt: true })
    .parse({ daysLeft, ...(url ? { url } : {}) });
  return returning<{ id: number }>(
    sql`INSERT INTO email_outbox (to_address, template, payload, dedupe_key)
        SELECT lower(u.email), 'verification_reminder',
               json_set(${JSON.stringify(data)}, '$.name', coalesce(p.first_name, ''), '$.dueAt', ${deadlineStart(introducedAt)} + ${DEADLINE_MS}),
               ${`verification_reminder:${daysLeft}:`} || u.id
        FROM ${dueBetween(from, to, introducedAt)}
        ON CONFLICT (dedupe_key) DO NOTHING
        RETURNING id`,
  );
}

function restrictedNotice(now: number, url: string | undefined, introducedAt: number) {
  const data = emailTemplates.verification_restricted.omit({ name: true }).parse(url ? { url } : {});
  return returning<{ id: number }>(
    sql`INSERT INTO email_outbox (to_address, template, payload, dedupe_key)
        SELECT lower(u.email), 'verification_restricted', json_set(${JSON.stringify(data)}, '$.name', coalesce(p.first_name, '')),
               'verification_restricted:' || u.id
        FROM ${dueBetween(now - RESTRICTED_NOTICE_GRACE_MS, now, introducedAt)}
        ON CONFLICT (dedupe_key) DO NOTHING
        RETURNING id`,
  );
}

/** The scheduled handler's deadline mails at `now`; the ids of the notices it enqueued, to deliver at once. */
export async function sendVerificationDeadlineMails(db: Db, env: AppEnv, now = Date.now()): Promise<number[]> {
  const url = env.SITE_URL ? new URL(VERIFICATION_PATH, env.SITE_URL).toString() : undefined;
  const introducedAt = env.VERIFICATION_INTRODUCED_AT;
  const { sevenDays, oneDay, restricted } = await writeTogether(db, {
    sevenDays: reminder(7, now, url, introducedAt),
    oneDay: reminder(1, now, url, introducedAt),
    restricted: restrictedNotice(now, url, introducedAt),
  });
  return [...sevenDays, ...oneDay, ...restricted].map((row) => row.id);
}
