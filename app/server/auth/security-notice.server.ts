import { describeBrowser, describeLocation } from "~/lib/user-agent";
import type { Db } from "../db.server";
import { enqueueEmail } from "../mail/outbox.server";
import type { SecurityEvent } from "../mail/templates.server";
import type { ClientMeta } from "./client-meta.server";

/**
 * The outbox insert of one security notice (docs/product.md, "Account security"): what happened, when, from
 * which browser and place, and what to do if it was not the account's owner. Callers put it in the batch of
 * the change it reports, so the change and its notice are stored together or not at all.
 */
export function securityNotice(
  db: Db,
  notice: {
    to: string;
    name: string;
    event: SecurityEvent;
    meta: ClientMeta;
    at?: number;
    provider?: string;
  },
) {
  return enqueueEmail(db, {
    to: notice.to,
    template: "security_notice",
    data: {
      name: notice.name,
      event: notice.event,
      at: notice.at ?? Date.now(),
      browser: describeBrowser(notice.meta.userAgent),
      location: describeLocation(notice.meta),
      provider: notice.provider,
    },
  });
}
