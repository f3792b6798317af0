import type { SQL } from "drizzle-orm";
import { describeBrowser, describeLocation } from "~/lib/user-agent";
import type { Db } from "../db.server";
import { enqueueEmail, enqueueEmailFor } from "../mail/outbox.server";
import type { SecurityEvent } from "../mail/templates.server";
import type { ClientMeta } from "./client-meta.server";

/**
 * The outbox insert of one security notice (docs/product.md, "Account security"): what happened, when, from
 * which browser and place, and what to do if it was not the account's owner. Callers put it in the batch of
 * the change it reports, so the change and its notice are stored together or not at all.
 */
export function securityNotice(db: Db, notice: SecurityNoticeInput) {
  return enqueueEmail(db, { to: notice.to, template: "security_notice", data: securityNoticeData(notice) });
}

/**
 * The same notice, enqueued only if `from` (a FROM … WHERE … clause over rows of the same batch) finds a row:
 * for a change that the batch makes only under a condition, so that the notice goes with the change or not at all.
 */
export function securityNoticeWhere(notice: SecurityNoticeInput, from: SQL) {
  return enqueueEmailFor({ template: "security_notice", data: securityNoticeData(notice), to: notice.to, from });
}

interface SecurityNoticeInput {
  to: string;
  name: string;
  event: SecurityEvent;
  meta: ClientMeta;
  at?: number;
  provider?: string;
}

function securityNoticeData(notice: SecurityNoticeInput) {
  return {
    name: notice.name,
    event: notice.event,
    at: notice.at ?? Date.now(),
    browser: describeBrowser(notice.meta.userAgent),
    location: describeLocation(notice.meta),
    provider: notice.provider,
  };
}
