import type { SQL } from "drizzle-orm";
import { describeBrowser, describeLocation } from "~/lib/user-agent";
import type { Db } from "../db.server";
import { enqueueEmail, enqueueEmailFor } from "../mail/outbox.server";
import type { SecurityEvent } from "../mail/templates.server";
import type { ClientMeta } from "./client-meta.server";

interface SecurityNotice {
  to: string;
  name: string;
  event: SecurityEvent;
  meta: ClientMeta;
  at?: number;
  provider?: string;
  passkey?: string;
  /** The account is an admin's (the two-factor-off notice reads differently for them). */
  admin?: boolean;
  /** The end of the money hold a two-factor reset with a recovery code started (the two-factor-off notice). */
  holdUntil?: number;
}

const noticeData = (notice: SecurityNotice) => ({
  name: notice.name,
  event: notice.event,
  at: notice.at ?? Date.now(),
  browser: describeBrowser(notice.meta.userAgent),
  location: describeLocation(notice.meta),
  provider: notice.provider,
  ...(notice.passkey ? { passkey: notice.passkey } : {}),
  ...(notice.admin ? { admin: true as const } : {}),
  ...(notice.holdUntil ? { holdUntil: notice.holdUntil } : {}),
});

/**
 * The outbox insert of one security notice (docs/product.md, "Account security"): what happened, when, from
 * which browser and place, and what to do if it was not the account's owner. Callers put it in the batch of
 * the change it reports, so the change and its notice are stored together or not at all.
 */
export function securityNotice(db: Db, notice: SecurityNotice) {
  return enqueueEmail(db, { to: notice.to, template: "security_notice", data: noticeData(notice) });
}

/**
 * The same notice for a change that a racing request may make first (two submissions of one reset link):
 * enqueued only if `from` (a FROM … WHERE … clause, checked when the batch runs) yields a row.
 */
export function securityNoticeIf(notice: SecurityNotice, from: SQL, dedupeKey?: SQL) {
  return enqueueEmailFor({ template: "security_notice", data: noticeData(notice), to: notice.to, from, dedupeKey });
}
